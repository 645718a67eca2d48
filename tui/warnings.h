/* What the warnings view and its source pane (tui/source.c) share. */
#ifndef KLANG_TUI_WARNINGS_H
#define KLANG_TUI_WARNINGS_H

#include "core/diag.h"

/* The diagnostic the source pane shows, or NULL. */
const struct diag *warnings_shown(void);
/* The repository whose work tree has the sources. */
const char *warnings_repo(void);
/* The path of a source file in the work tree; caller frees. */
char *warnings_source_path(const char *file);
/* The .config a Kconfig diagnostic speaks of: that of the build directory
 * of a log read for its arch, else the work tree's; NULL if none. Caller
 * frees. */
char *warnings_config_of(const struct diag *d);
/* Suspend curses, run $EDITOR +LINE FILE (vi if unset), restore. */
void warnings_edit(const char *file, unsigned line);
/* Select in the stack view the patch that last touched the line (libgit2
 * blame within the stack's base..head); says so when none did. */
void warnings_blame(const char *file, unsigned line);
void source_pane_free(void);

#endif
