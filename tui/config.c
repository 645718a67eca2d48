/* Bridge between core/config and the TUI's action and key tables. */
#include "tui/config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/keys.h"

static bool known_action(const char *name)
{
	return action_from_name(name) != ACT_NONE;
}

static bool known_key(const char *name)
{
	int key;
	return key_parse(name, &key) == (int)strlen(name);
}

static const char *scope_of(const char *action)
{
	const struct action_info *ai = action_info(action_from_name(action));
	return ai ? scope_names[ai->scope] : NULL;
}

int tui_config_load(struct config *c, const char *repo, struct kerr *e)
{
	struct config_checks chk = {known_action, known_key};
	memset(c, 0, sizeof(*c));
	config_defaults(c);
	return config_load(c, repo, &chk, e);
}

int tui_config_apply_keys(const struct config *c, struct kerr *e)
{
	char *text = config_keyfile(c, scope_of);
	int rc = *text ? keys_load_text(text, "config.yaml", e) : 0;
	free(text);
	return rc;
}
