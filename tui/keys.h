/* Actions and key bindings. Every action is declared once in ACTION_LIST
 * (id, name, scope, help) and expanded into the enum, the name table and the
 * help view. Default bindings are compiled in, written in the same format as
 * a user key file ("bind SCOPE KEY ACTION"). Action ids start above KEY_MAX
 * so they never collide with curses key codes. */
#ifndef KLANG_TUI_KEYS_H
#define KLANG_TUI_KEYS_H

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/tags.h"
#include "core/util.h"

/* Key scopes: a view's keys are looked up in its scope, then in generic. */
#define SCOPE_LIST(X)                                                                              \
	X(GENERIC, "generic", "Everywhere")                                                        \
	X(STACK, "stack", "Stack view")                                                            \
	X(PATCH, "patch", "Patch view")                                                            \
	X(TAGS, "tags", "Tag picker")                                                              \
	X(CLANG, "clang", "Clang picker")                                                          \
	X(HELP, "help", "Help")                                                                    \
	X(BUILDS, "builds", "Builds view")                                                         \
	X(WARNINGS, "warnings", "Warnings view")

/* clang-format off */ /* (it misreads an X-macro list in an enum) */
enum key_scope {
#define SCOPE_ENUM(id, name, title) SCOPE_##id,
	SCOPE_LIST(SCOPE_ENUM)
#undef SCOPE_ENUM
	SCOPE_COUNT
};
/* clang-format on */

/* id, name, scope, help. Actions of views not written yet (builds, warnings,
 * series decisions) are reserved here so that keys and help stay coherent;
 * their modules install handlers with action_set_handler(). */
#define ACTION_LIST(X)                                                                             \
	X(QUIT, "quit", GENERIC, "Close the view (quit in the stack)")                             \
	X(QUIT_ALL, "quit-all", GENERIC, "Quit klang")                                             \
	X(HELP, "help", GENERIC, "Show this help")                                                 \
	X(MOVE_UP, "move-up", GENERIC, "Move up one line")                                         \
	X(MOVE_DOWN, "move-down", GENERIC, "Move down one line")                                   \
	X(MOVE_PAGE_UP, "move-page-up", GENERIC, "Move up one page")                               \
	X(MOVE_PAGE_DOWN, "move-page-down", GENERIC, "Move down one page")                         \
	X(MOVE_HALF_UP, "move-half-page-up", GENERIC, "Move up half a page")                       \
	X(MOVE_HALF_DOWN, "move-half-page-down", GENERIC, "Move down half a page")                 \
	X(MOVE_FIRST, "move-first", GENERIC, "Move to the first line")                             \
	X(MOVE_LAST, "move-last", GENERIC, "Move to the last line")                                \
	X(SCROLL_LEFT, "scroll-left", GENERIC, "Scroll left")                                      \
	X(SCROLL_RIGHT, "scroll-right", GENERIC, "Scroll right")                                   \
	X(ENTER, "enter", GENERIC, "Open the selected line")                                       \
	X(VIEW_NEXT, "view-next", GENERIC, "Focus the other view of a split")                      \
	X(MAXIMIZE, "maximize", GENERIC, "Show only the focused view")                             \
	X(SEARCH, "search", GENERIC, "Search (regex, smart case)")                                 \
	X(FIND_NEXT, "find-next", GENERIC, "Find the next match")                                  \
	X(FIND_PREV, "find-prev", GENERIC, "Find the previous match")                              \
	X(NEXT_PATCH, "next-patch", GENERIC, "Show the next patch")                                \
	X(PREV_PATCH, "prev-patch", GENERIC, "Show the previous patch")                            \
	X(VIEW_STACK, "view-stack", GENERIC, "Show the stack view")                                \
	X(VIEW_PATCH, "view-patch", GENERIC, "Show the patch view")                                \
	X(VIEW_BUILDS, "view-builds", GENERIC, "Show the builds view")                             \
	X(VIEW_WARNINGS, "view-warnings", GENERIC, "Show the warnings view")                       \
	X(BUILD_START, "build-start", GENERIC, "Start the builds")                                 \
	X(REDRAW, "redraw", GENERIC, "Redraw the screen")                                          \
	X(COPY, "copy", GENERIC, "Copy patch id or warning's file:line")                           \
	X(COPY_LINK, "copy-link", GENERIC, "Copy a Link: URL or CBL issue search")                 \
	X(FILTER_PICK, "filter-pick", STACK, "Pick tags to show (several at once)")                \
	X(FILTER_CLEAR, "filter-clear", STACK, "Show every patch again")                           \
	TAG_LIST(ACTION_FILTER_TAG)                                                                \
	X(SERIES_TOGGLE, "series-toggle", STACK, "Keep or drop the patch in the series")           \
	X(SERIES_CLANG, "series-clang", STACK, "Pick the Clang to decide for")                     \
	X(SERIES_APPLY, "series-apply", STACK, "Apply the series to a new branch")                 \
	X(SERIES_EXPORT, "series-export", STACK, "Export the series (mbox or quilt)")              \
	X(WARN_SIDE, "warnings-side", WARNINGS, "Show clang-only, gcc-only, both or all")          \
	X(WARN_EDIT, "warnings-edit", WARNINGS, "Open the warning's line in $EDITOR")              \
	X(WARN_ARCH, "warnings-arch", WARNINGS, "Show every arch or one of the logs' arches")      \
	X(WARN_STATUS_FILTER, "warnings-status-filter", WARNINGS,                                  \
	  "Show any status, open ones (new, confirmed) or one status")                             \
	X(WARN_TEXT, "warnings-text", WARNINGS, "Show only rows with a text (empty: all)")         \
	X(WARN_FOLD, "warnings-fold", WARNINGS, "Fold or unfold the group or diagnostic")          \
	X(WARN_FOLD_ALL, "warnings-fold-all", WARNINGS, "Fold every group")                        \
	X(WARN_UNFOLD_ALL, "warnings-unfold-all", WARNINGS, "Unfold every group and diagnostic")   \
	X(WARN_NEW, "warnings-new", WARNINGS, "Triage: back to new (a group row: all of it)")      \
	X(WARN_CONFIRMED, "warnings-confirmed", WARNINGS, "Triage: confirmed")                     \
	X(WARN_WONTFIX, "warnings-wontfix", WARNINGS, "Triage: wontfix")                           \
	X(WARN_FALSE_POSITIVE, "warnings-false-positive", WARNINGS, "Triage: false positive")      \
	X(WARN_FIXED, "warnings-fixed", WARNINGS, "Triage: fixed")                                 \
	X(WARN_NOTE, "warnings-note", WARNINGS, "Triage: write a note")                            \
	X(WARN_BLAME, "warnings-blame", WARNINGS,                                                  \
	  "Show the patch of the stack that last changed the line")                                \
	X(WARN_RELOAD, "warnings-reload", WARNINGS, "Read the newest build logs again")            \
	X(SERIES_CLEAR, "series-clear", STACK, "Clear the manual keep/drop of the patch")          \
	X(SERIES_FIXED_IN, "series-fixed-in", STACK,                                               \
	  "Say from which Clang on the patch is not needed")                                       \
	X(SERIES_PICK, "series-pick", CLANG, "Decide for this Clang and close the picker")         \
	X(SERIES_TRY, "series-try", CLANG, "Decide for this Clang, keep the picker open")          \
	X(TOGGLE, "toggle", TAGS, "Select or unselect the tag")                                    \
	X(BUILD_CANCEL, "build-cancel", BUILDS, "Cancel the selected build")                       \
	X(BUILD_RESTART, "build-restart", BUILDS, "Start or rerun the selected build")

/* One filter action per subject tag, from the tag list. */
#define ACTION_FILTER_TAG(id, name)                                                                \
	X(FILTER_##id, "filter-" name, STACK, "Show or hide " name " patches")

/* clang-format off */ /* (it misreads an X-macro list in an enum) */
enum action {
	ACT_NONE = KEY_MAX + 1,
#define X(id, name, scope, help) ACT_##id,
	ACTION_LIST(X)
#undef X
	ACT_END
};
/* clang-format on */

#define ACTION_COUNT (ACT_END - ACT_NONE - 1)

struct action_info {
	const char *name;
	enum key_scope scope;
	const char *help;
};

/* Metadata of an action (NULL for an id that is not an action). */
const struct action_info *action_info(int action);
int action_from_name(const char *name);
/* The filter action of a tag, and back (-1 if not a filter action). */
int action_filter_tag(enum tag t);
int action_tag(int action);

extern const char *const scope_names[SCOPE_COUNT];
extern const char *const scope_titles[SCOPE_COUNT];

/* Keys are ints: a character (< 128) or a curses KEY_ code. */
/* Parse one key name at s: "j", "<Down>", "<C-f>", "<Enter>"; returns the
 * number of bytes read (0 if none) and stores the key. A '<' that does not
 * start a known name is the key '<'. */
int key_parse(const char *s, int *key);
/* The name of a key ("j", "<Down>"), in a static buffer. */
const char *key_name(int key);

/* Bind: "bind SCOPE KEY ACTION" lines (comments with #). Messages name the
 * file and line: "keys:3: unknown action 'foo'". */
int keys_load_text(const char *text, const char *label, struct kerr *e);
/* Install the compiled-in defaults (once; idempotent). */
void keys_init(void);
/* The action bound to a key in a scope (else generic); ACT_NONE if none. */
int keys_lookup(enum key_scope scope, int key);
/* The keys bound to an action, as "j <Down> <Space>(patch)": a scope in
 * parentheses when it is not the action's own. */
void keys_describe(int action, struct strbuf *out);
/* The key table in the help view's order, one action a line: scope title,
 * keys (as keys_describe), action name, help, tab-separated; what
 * `klang --dump-keys` prints and doc/keys2man.sh turns into the man page's
 * KEYS section. */
void keys_dump(FILE *f);

#endif
