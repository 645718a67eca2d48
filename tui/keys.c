/* The action table, key names and the key map, with the default bindings
 * compiled in as a key file (the same format a user would write). */
#include "tui/keys.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ACTION_FILTER_TAG expands through the macro named X. */
static const struct action_info actions[ACTION_COUNT] = {
#define X(id, name, scope, help) {name, SCOPE_##scope, help},
    ACTION_LIST(X)
#undef X
};

const char *const scope_names[SCOPE_COUNT] = {
#define SCOPE_NAME(id, name, title) name,
    SCOPE_LIST(SCOPE_NAME)
#undef SCOPE_NAME
};

const char *const scope_titles[SCOPE_COUNT] = {
#define SCOPE_TITLE(id, name, title) title,
    SCOPE_LIST(SCOPE_TITLE)
#undef SCOPE_TITLE
};

/* The default key map. Tag filters use capitals so that lower case stays
 * free for movement and the reserved series/build keys. */
static const char default_keys[] = "bind generic q quit\n"
				   "bind generic Q quit-all\n"
				   "bind generic ? help\n"
				   "bind generic <F1> help\n"
				   "bind generic j move-down\n"
				   "bind generic <Down> move-down\n"
				   "bind generic k move-up\n"
				   "bind generic <Up> move-up\n"
				   "bind generic <PgDown> move-page-down\n"
				   "bind generic <C-f> move-page-down\n"
				   "bind generic <PgUp> move-page-up\n"
				   "bind generic <C-b> move-page-up\n"
				   "bind generic - move-page-up\n"
				   "bind generic <C-d> move-half-page-down\n"
				   "bind generic <C-u> move-half-page-up\n"
				   "bind generic <Home> move-first\n"
				   "bind generic g move-first\n"
				   "bind generic <End> move-last\n"
				   "bind generic G move-last\n"
				   "bind generic <Left> scroll-left\n"
				   "bind generic h scroll-left\n"
				   "bind generic <Right> scroll-right\n"
				   "bind generic l scroll-right\n"
				   "bind generic <Enter> enter\n"
				   "bind generic <Tab> view-next\n"
				   "bind generic o maximize\n"
				   "bind generic / search\n"
				   "bind generic n find-next\n"
				   "bind generic N find-prev\n"
				   "bind generic J next-patch\n"
				   "bind generic ] next-patch\n"
				   "bind generic K prev-patch\n"
				   "bind generic [ prev-patch\n"
				   "bind generic 1 view-stack\n"
				   "bind generic 2 view-patch\n"
				   "bind generic 3 view-builds\n"
				   "bind generic 4 view-warnings\n"
				   "bind generic w view-warnings\n"
				   "bind warnings s warnings-side\n"
				   "bind warnings e warnings-edit\n"
				   "bind warnings a warnings-arch\n"
				   "bind warnings S warnings-status-filter\n"
				   "bind warnings \\ warnings-text\n"
				   "bind warnings <Space> warnings-fold\n"
				   "bind warnings - warnings-fold-all\n"
				   "bind warnings + warnings-unfold-all\n"
				   "bind warnings u warnings-new\n"
				   "bind warnings c warnings-confirmed\n"
				   "bind warnings W warnings-wontfix\n"
				   "bind warnings F warnings-false-positive\n"
				   "bind warnings X warnings-fixed\n"
				   "bind warnings m warnings-note\n"
				   "bind warnings B warnings-blame\n"
				   "bind warnings R warnings-reload\n"
				   "bind generic b build-start\n"
				   "bind generic <C-l> redraw\n"
				   "bind generic y copy\n"
				   "bind generic Y copy-link\n"
				   "bind stack t filter-pick\n"
				   "bind stack T filter-clear\n"
				   "bind stack U filter-UPSTREAM\n"
				   "bind stack B filter-BACKPORT\n"
				   "bind stack F filter-FROMGIT\n"
				   "bind stack L filter-FROMLIST\n"
				   "bind stack H filter-HACK\n"
				   "bind stack C filter-CUSTOM\n"
				   "bind stack O filter-OBSOLETE\n"
				   "bind stack M filter-CHROMIUM\n"
				   "bind stack D filter-ANDROID\n"
				   "bind stack <Space> series-toggle\n"
				   "bind stack c series-clang\n"
				   "bind stack A series-apply\n"
				   "bind stack E series-export\n"
				   "bind stack u series-clear\n"
				   "bind stack f series-fixed-in\n"
				   "bind clang <Enter> series-pick\n"
				   "bind clang <Space> series-try\n"
				   "bind clang c quit\n"
				   "bind patch <Space> move-page-down\n"
				   "bind help <Space> move-page-down\n"
				   "bind tags <Space> toggle\n"
				   "bind tags t quit\n"
				   "bind tags T filter-clear\n"
				   "bind builds x build-cancel\n"
				   "bind builds r build-restart\n";

const struct action_info *action_info(int action)
{
	if (action <= ACT_NONE || action >= ACT_END)
		return NULL;
	return &actions[action - ACT_NONE - 1];
}

int action_from_name(const char *name)
{
	for (int i = 0; i < ACTION_COUNT; i++)
		if (!strcmp(actions[i].name, name))
			return ACT_NONE + 1 + i;
	return ACT_NONE;
}

static const int filter_actions[TAG_COUNT] = {
#define FILTER_ACT(id, name) ACT_FILTER_##id,
    TAG_LIST(FILTER_ACT)
#undef FILTER_ACT
};

int action_filter_tag(enum tag t)
{
	return filter_actions[t];
}

int action_tag(int action)
{
	for (int t = 0; t < TAG_COUNT; t++)
		if (filter_actions[t] == action)
			return t;
	return -1;
}

static const struct {
	const char *name;
	int key;
} key_names[] = {
    {"Enter", '\r'},
    {"Esc", 27},
    {"Tab", '\t'},
    {"Space", ' '},
    {"Backspace", KEY_BACKSPACE},
    {"Up", KEY_UP},
    {"Down", KEY_DOWN},
    {"Left", KEY_LEFT},
    {"Right", KEY_RIGHT},
    {"PgUp", KEY_PPAGE},
    {"PgDown", KEY_NPAGE},
    {"Home", KEY_HOME},
    {"End", KEY_END},
    {"Insert", KEY_IC},
    {"Delete", KEY_DC},
    {"BackTab", KEY_BTAB},
    {"LessThan", '<'},
    {"Hash", '#'},
};

int key_parse(const char *s, int *key)
{
	if (!*s)
		return 0;
	if (*s == '<') {
		const char *end = strchr(s, '>');
		size_t n = end ? (size_t)(end - s - 1) : 0;
		const char *name = s + 1;
		if (end && n == 3 && (name[0] == 'C' || name[0] == 'c') && name[1] == '-' &&
		    isalpha((unsigned char)name[2])) {
			*key = tolower((unsigned char)name[2]) & 0x1f;
			return 5;
		}
		if (end && n >= 2 && n <= 3 && name[0] == 'F' && isdigit((unsigned char)name[1])) {
			int f = atoi(name + 1);
			if (f >= 1 && f <= 12) {
				*key = KEY_F(f);
				return (int)n + 2;
			}
		}
		for (size_t i = 0; end && i < ARRAY_SIZE(key_names); i++)
			if (strlen(key_names[i].name) == n &&
			    !strncasecmp(name, key_names[i].name, n)) {
				*key = key_names[i].key;
				return (int)n + 2;
			}
	}
	*key = (unsigned char)*s;
	return 1;
}

const char *key_name(int key)
{
	static char buf[16];
	for (size_t i = 0; i < ARRAY_SIZE(key_names) - 2; i++)
		if (key_names[i].key == key)
			return snprintf(buf, sizeof(buf), "<%s>", key_names[i].name), buf;
	if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, sizeof(buf), "<F%d>", key - KEY_F(0));
	else if (key > 0 && key < 32)
		snprintf(buf, sizeof(buf), "<C-%c>", key + 'a' - 1);
	else if (key < 128)
		snprintf(buf, sizeof(buf), "%c", key);
	else
		snprintf(buf, sizeof(buf), "<%d>", key);
	return buf;
}

struct binding {
	enum key_scope scope;
	int key;
	int action;
};

static struct binding *bindings;
static size_t nbindings, cap_bindings;

static void bind_key(enum key_scope scope, int key, int action)
{
	for (size_t i = 0; i < nbindings; i++)
		if (bindings[i].scope == scope && bindings[i].key == key) {
			bindings[i].action = action;
			return;
		}
	ALLOC_GROW(bindings, nbindings + 1, cap_bindings);
	bindings[nbindings++] = (struct binding){scope, key, action};
}

static int bind_line(char *line, const char *label, int lineno, struct kerr *e)
{
	char *save = NULL;
	char *cmd = strtok_r(line, " \t", &save);
	if (!cmd || *cmd == '#')
		return 0;
	char *scope = strtok_r(NULL, " \t", &save);
	char *key = strtok_r(NULL, " \t", &save);
	char *act = strtok_r(NULL, " \t", &save);
	if (strcmp(cmd, "bind"))
		return kerr_set(e, "%s:%d: unknown command '%s' (expected bind)", label, lineno,
				cmd);
	if (!scope || !key || !act)
		return kerr_set(e, "%s:%d: expected 'bind SCOPE KEY ACTION'", label, lineno);
	int s = 0;
	while (s < SCOPE_COUNT && strcmp(scope_names[s], scope))
		s++;
	if (s == SCOPE_COUNT)
		return kerr_set(e, "%s:%d: unknown scope '%s'", label, lineno, scope);
	int k;
	if (key_parse(key, &k) != (int)strlen(key))
		return kerr_set(e, "%s:%d: unknown key '%s'", label, lineno, key);
	int a = action_from_name(act);
	if (a == ACT_NONE)
		return kerr_set(e, "%s:%d: unknown action '%s'", label, lineno, act);
	bind_key((enum key_scope)s, k, a);
	return 0;
}

int keys_load_text(const char *text, const char *label, struct kerr *e)
{
	char *copy = xstrdup(text), *save = NULL;
	int lineno = 0, rc = 0;
	/* strtok_r would skip empty lines and miscount; walk by hand */
	for (char *line = copy; line && !rc; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		rc = bind_line(line, label, lineno, e);
	}
	free(copy);
	return rc;
}

void keys_init(void)
{
	if (nbindings)
		return;
	struct kerr e;
	if (keys_load_text(default_keys, "default keys", &e))
		warnx_("%s", e.msg); /* a bug in the table above */
}

int keys_lookup(enum key_scope scope, int key)
{
	int generic = ACT_NONE;
	for (size_t i = 0; i < nbindings; i++) {
		if (bindings[i].key != key)
			continue;
		if (bindings[i].scope == scope)
			return bindings[i].action;
		if (bindings[i].scope == SCOPE_GENERIC)
			generic = bindings[i].action;
	}
	return generic;
}

void keys_describe(int action, struct strbuf *out)
{
	const struct action_info *ai = action_info(action);
	for (size_t i = 0; ai && i < nbindings; i++) {
		if (bindings[i].action != action)
			continue;
		if (out->len)
			sb_adds(out, " ");
		sb_adds(out, key_name(bindings[i].key));
		if (bindings[i].scope != ai->scope)
			sb_addf(out, "(%s)", scope_names[bindings[i].scope]);
	}
}

void keys_dump(FILE *f)
{
	for (int s = 0; s < SCOPE_COUNT; s++)
		for (int a = ACT_NONE + 1; a < ACT_END; a++) {
			const struct action_info *ai = action_info(a);
			if ((int)ai->scope != s)
				continue;
			struct strbuf sb = STRBUF_INIT;
			keys_describe(a, &sb);
			fprintf(f, "%s\t%s\t%s\t%s\n", scope_titles[s], sb_str(&sb), ai->name,
				ai->help);
			sb_free(&sb);
		}
}
