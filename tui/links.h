/* Links and the clipboard in the workbench: a patch's Link:, Closes: and
 * BugLink: URLs, the ClangBuiltLinux issue search for a warning's flag, and
 * the copy keys (copy: the patch id; copy-link: the patch's next link),
 * through OSC 52 so that they work over ssh and in tmux. */
#ifndef KLANG_TUI_LINKS_H
#define KLANG_TUI_LINKS_H

#include <stdbool.h>

#include "core/stack.h"
#include "core/util.h"

/* Install the copy and copy-link handlers for the stack and patch views
 * (another view handles ACT_COPY/ACT_COPY_LINK in its request() first). */
void links_tui_init(void);
/* Put `text` on the clipboard of the terminal the user sits at and say so
 * in the status bar ("copied WHAT: TEXT"), or report why not. */
bool tui_copy(const char *what, const char *text);
/* For the stack view's status bar: "Link: URL" (the first of the patch's
 * links, "+N" when it has more); nothing when it has none. */
void tui_patch_links_status(const struct patch *p, struct strbuf *sb);

/* For the warnings view (tui/warnings.c, not wired here): the
 * ClangBuiltLinux issue-tracker search for a warning's flag, as a status
 * text "ClangBuiltLinux issues: URL"; on ACT_COPY_LINK it can call
 * tui_copy("issue search", url) with links_cbl_issue_url(flag), and on
 * ACT_COPY tui_copy("location", "file:line"). */
void tui_flag_link(const char *flag, struct strbuf *sb);

#endif
