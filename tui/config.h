/* The user's settings (core/config) applied to the workbench: key bindings
 * checked against the action table, the theme. */
#ifndef KLANG_TUI_CONFIG_H
#define KLANG_TUI_CONFIG_H

#include "core/config.h"

/* Load defaults, the user's and the repository's config.yaml, with action and
 * key names checked against the TUI's tables. */
int tui_config_load(struct config *c, const char *repo, struct kerr *e);
/* Apply the bindings of `c` on top of the compiled-in keys. */
int tui_config_apply_keys(const struct config *c, struct kerr *e);

#endif
