/* The Clang-aware series in the workbench: keep/drop per patch in the stack
 * view for a target Clang, manual overrides saved in .klang/, the Clang
 * picker, and apply/export of the result. */
#ifndef KLANG_TUI_SERIES_H
#define KLANG_TUI_SERIES_H

#include <stddef.h>

#include "core/clangver.h"
#include "core/stack.h"
#include "tui/view.h"

/* The Clang picker, opened by `c` under the stack view. */
extern struct view clang_view;
void clang_view_free(void);

/* Open the series over the stack (loading REPO/.klang/overrides.yaml),
 * detect the default Clang, and install the stack view's hooks and the
 * series actions. */
void series_tui_init(struct stack *st);
void series_tui_free(void);

/* The target Clang and where it came from ("clang, Debian", "typed"); NULL
 * when there is none yet. */
const struct clang_version *series_tui_target(const char **from);
/* Decide every patch again for `v`; says in the status bar how many
 * decisions changed. */
void series_tui_set_target(const struct clang_version *v, const char *from);
/* Every clang on PATH (looked up once, on first use). */
const struct clang_found *series_tui_found(size_t *n);

#endif
