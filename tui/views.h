/* The workbench's views and what they offer each other.
 *
 * To add a view: write tui/NAME.c with a `static const struct view_ops`
 * (open, draw, title, request, select, grep, status) and a
 * `struct view NAME_view = { .ops = &NAME_ops }`, declare it here, and bind
 * its view key in tui/main.c register_views():
 *     view_bind_key(ACT_VIEW_BUILDS, &builds_view);
 * A pane that follows another (source under warnings, patch under stack) is
 * opened with view_open(&source_view, OPEN_SPLIT) and reloaded from the
 * parent's select() with view_reload(). New actions are one line in
 * ACTION_LIST (tui/keys.h) plus a "bind SCOPE KEY ACTION" line in
 * default_keys (tui/keys.c); handle them in the view's request(), or for
 * actions that are not a view's, with action_set_handler(). Pipes and
 * timers: loop_watch_fd(), loop_add_timer(), loop_on_child(); cleanup on
 * quit and on SIGINT/SIGTERM/SIGHUP: loop_on_exit() (tui/loop.h). Messages:
 * report(), report_error(), prompt_open() (tui/prompt.h). The screen is
 * redrawn after every event, so a callback only changes state. */
#ifndef KLANG_TUI_VIEWS_H
#define KLANG_TUI_VIEWS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/stack.h"
#include "core/theme.h"
#include "tui/view.h"

extern struct view stack_view, patch_view, help_view, tags_view, builds_view;
extern struct view warnings_view, source_view;

/* The builds view: b (from any view) starts the arch x toolchain matrix. */
void builds_view_init(void);
struct config;
/* The matrix and how it is built (arches, toolchains, config, wrapper, jobs)
 * from the configuration, which must outlive the view; without it arm64 and
 * x86_64 with llvm and gcc, defconfig, no wrapper, a slot per CPU. */
void builds_view_configure(const struct config *c);
/* The editor `e` runs (the configuration's); NULL: $EDITOR, else vi. */
void warnings_set_editor(const char *cmd);
/* Some build is queued or running. */
bool builds_busy(void);

/* The warnings view's logs (--gcc-log/--clang-log; NULL: the newest finished
 * builds, see core/buildlogs.h) and the repository whose work tree has the sources. */
void warnings_set_logs(const char *gcc_log, const char *clang_log, const char *repo);
void warnings_view_free(void);
/* The warnings view shows one arch (all when its logs have none of it) the
 * next time it opens: Enter on a build. */
void warnings_show_arch(const char *arch);

struct patchset;
/* The patchset given with --patchset, or NULL. */
const struct patchset *tui_patchset(void);

/* The stack view: one line per patch, filtered by tags. */
void stack_view_set_stack(struct stack *st);
struct stack *stack_view_stack(void);
/* The patch under the cursor (NULL for an empty or fully filtered stack). */
struct patch *stack_view_selected(void);
/* Move the cursor by delta patches (J/K from the patch view). False at
 * either end. */
bool stack_view_step(int delta);
/* Position of the selected patch among those shown: 1-based, and how many
 * are shown. */
size_t stack_view_position(size_t *shown);

/* Tag filters: one slot per known tag, then the stack's extra tags, then
 * "untagged". Several slots on at once show patches with any of them. */
size_t stack_filter_slots(void);
const char *stack_filter_name(size_t slot);
size_t stack_filter_patches(size_t slot); /* patches carrying it */
bool stack_filter_on(size_t slot);
void stack_filter_toggle(size_t slot);
void stack_filter_clear(void);

/* Hooks for the series decisions (keep/drop), filled by the series module. */
struct stack_view_hooks {
	/* A column after the index, `width` columns wide: the text ("keep",
	 * "drop") and its element; set *dim to dim the whole line. */
	int width;
	const char *(*decision)(const struct patch *p, enum theme_elem *elem, bool *dim,
				void *data);
	/* Why the selected patch is kept or dropped: shown in the status bar. */
	const char *(*reason)(const struct patch *p, void *data);
	/* Header rows below the tag counts (kept/dropped per tag), on the
	 * view's background: how many a width needs, and row `row` of them.
	 * May be NULL. */
	int (*summary_rows)(int width, void *data);
	void (*summary)(struct line_draw *d, int row, void *data);
	void *data;
};
/* Setting them again lays the header out again (the summary changed). */
void stack_view_set_hooks(const struct stack_view_hooks *h);

/* Free what the views hold (at exit). */
void stack_view_free(void);
void patch_view_free(void);
/* When the patch view next opens, show file's new line `line` (highlighted). */
void patch_view_goto(const char *file, unsigned line);
void help_view_free(void);

#endif
