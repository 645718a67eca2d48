/* Colour themes read from YAML with libyaml's document API, so that every
 * message can name the line and column of the node it is about. */
#include "core/theme.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <yaml.h>

#include "core/yamldoc.h"

const char *const theme_elem_names[ELEM_COUNT] = {
#define THEME_ELEM_NAME(id, name) name,
    THEME_ELEMENTS(THEME_ELEM_NAME)
#undef THEME_ELEM_NAME
};

static const char *const color_names[16] = {
    "black",	    "red",	     "green",	    "yellow",	      "blue",
    "magenta",	    "cyan",	     "white",	    "bright-black",   "bright-red",
    "bright-green", "bright-yellow", "bright-blue", "bright-magenta", "bright-cyan",
    "bright-white",
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
    {"bold", THEME_BOLD},	{"dim", THEME_DIM},
    {"reverse", THEME_REVERSE}, {"underline", THEME_UNDERLINE},
    {"italic", THEME_ITALIC},	{"standout", THEME_STANDOUT},
    {"blink", THEME_BLINK},	{"normal", 0},
};

/* Parsing context: the document and the label used in messages. */
struct tparse {
	yaml_document_t *doc;
	const char *label;
	struct kerr *e;
};

static int node_err(struct tparse *tp, yaml_node_t *n, const char *fmt, const char *arg)
{
	return kerr_set(tp->e, "%s:%zu:%zu: %s%s%s%s", tp->label, n->start_mark.line + 1,
			n->start_mark.column + 1, fmt, arg ? " '" : "", arg ? arg : "",
			arg ? "'" : "");
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int parse_color(struct tparse *tp, yaml_node_t *n, short *out)
{
	const char *s = scalar(n);
	if (!s)
		return node_err(tp, n, "a colour must be a name or a number", NULL);
	if (!strcmp(s, "default") || !strcmp(s, "none")) {
		*out = THEME_COLOR_DEFAULT;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(color_names); i++)
		if (!strcmp(s, color_names[i])) {
			*out = (short)i;
			return 0;
		}
	char *end;
	long v = strtol(s, &end, 10);
	if (*s && !*end) {
		if (v < 0 || v > 255)
			return node_err(tp, n, "colour out of range 0..255:", s);
		*out = (short)v;
		return 0;
	}
	return node_err(tp, n, "unknown colour", s);
}

static int parse_attr_word(struct tparse *tp, yaml_node_t *n, const char *w, unsigned *attrs)
{
	for (size_t i = 0; i < ARRAY_SIZE(attr_names); i++)
		if (!strcmp(w, attr_names[i].name)) {
			*attrs |= attr_names[i].bit;
			return 0;
		}
	return node_err(tp, n, "unknown attribute", w);
}

/* attrs: [bold, reverse] or "bold reverse" */
static int parse_attrs(struct tparse *tp, yaml_node_t *n, unsigned *attrs)
{
	*attrs = 0;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++) {
			yaml_node_t *item = yaml_document_get_node(tp->doc, *it);
			if (!scalar(item))
				return node_err(tp, item, "an attribute must be a word", NULL);
			if (parse_attr_word(tp, item, scalar(item), attrs))
				return -1;
		}
		return 0;
	}
	if (!scalar(n))
		return node_err(tp, n, "attrs must be a list of words", NULL);
	char *copy = xstrdup(scalar(n)), *save = NULL;
	int rc = 0;
	for (char *w = strtok_r(copy, " ,", &save); w && !rc; w = strtok_r(NULL, " ,", &save))
		rc = parse_attr_word(tp, n, w, attrs);
	free(copy);
	return rc;
}

/* { fg: COLOUR, bg: COLOUR, attrs: [...] } */
static int parse_style(struct tparse *tp, yaml_node_t *n, struct theme_style *st)
{
	if (n->type != YAML_MAPPING_NODE)
		return node_err(tp, n, "a style must be a mapping like { fg: red, attrs: [bold] }",
				NULL);
	*st = (struct theme_style){THEME_COLOR_DEFAULT, THEME_COLOR_DEFAULT, 0};
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(tp->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(tp->doc, p->value);
		const char *key = scalar(k);
		int rc;
		if (!key)
			return node_err(tp, k, "a key must be a word", NULL);
		if (!strcmp(key, "fg"))
			rc = parse_color(tp, v, &st->fg);
		else if (!strcmp(key, "bg"))
			rc = parse_color(tp, v, &st->bg);
		else if (!strcmp(key, "attrs"))
			rc = parse_attrs(tp, v, &st->attrs);
		else
			rc = node_err(tp, k, "unknown style key", key);
		if (rc)
			return -1;
	}
	return 0;
}

static int parse_elements(struct tparse *tp, struct theme *t, yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE)
		return node_err(tp, n, "'elements' must be a mapping of element: style", NULL);
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(tp->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(tp->doc, p->value);
		const char *key = scalar(k);
		size_t i = 0;
		while (key && i < ELEM_COUNT && strcmp(key, theme_elem_names[i]))
			i++;
		if (!key || i == ELEM_COUNT)
			return node_err(tp, k, "unknown element", key);
		if (parse_style(tp, v, &t->elem[i]))
			return -1;
	}
	return 0;
}

static int parse_tags(struct tparse *tp, struct theme *t, yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE)
		return node_err(tp, n, "'tags' must be a mapping of TAG: style", NULL);
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(tp->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(tp->doc, p->value);
		const char *key = scalar(k);
		struct theme_style st;
		if (!key || !*key)
			return node_err(tp, k, "a tag must be a word", NULL);
		if (parse_style(tp, v, &st))
			return -1;
		int tag = tag_from_name(key);
		if (tag >= 0) {
			t->tag[tag] = st;
		} else if (!strcmp(key, "other")) {
			t->other_tag = st;
		} else {
			t->extra = xrealloc(t->extra, (t->nextra + 1) * sizeof(*t->extra));
			t->extra[t->nextra++] = (struct theme_extra_tag){xstrdup(key), st};
		}
	}
	return 0;
}

static int parse_root(struct tparse *tp, struct theme *t, yaml_node_t *root)
{
	if (!root)
		return kerr_set(tp->e, "%s: empty theme", tp->label);
	if (root->type != YAML_MAPPING_NODE)
		return node_err(tp, root,
				"a theme must be a mapping (name, colors, elements, tags)", NULL);
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(tp->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(tp->doc, p->value);
		const char *key = scalar(k);
		int rc = 0;
		if (!key) {
			rc = node_err(tp, k, "a key must be a word", NULL);
		} else if (!strcmp(key, "name") || !strcmp(key, "description")) {
			if (!scalar(v))
				return node_err(tp, v, "expected text for", key);
			char **dst = !strcmp(key, "name") ? &t->name : &t->description;
			free(*dst);
			*dst = xstrdup(scalar(v));
		} else if (!strcmp(key, "colors")) {
			const char *s = scalar(v);
			char *end = NULL;
			long c = s ? strtol(s, &end, 10) : -1;
			if (!s || *end || (c != 0 && c != 8 && c != 16 && c != 256))
				return node_err(tp, v, "colors must be 0, 8, 16 or 256", NULL);
			t->colors = (int)c;
		} else if (!strcmp(key, "elements")) {
			rc = parse_elements(tp, t, v);
		} else if (!strcmp(key, "tags")) {
			rc = parse_tags(tp, t, v);
		} else {
			rc = node_err(tp, k, "unknown key", key);
		}
		if (rc)
			return -1;
	}
	return 0;
}

static void theme_init(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	struct theme_style none = {THEME_COLOR_DEFAULT, THEME_COLOR_DEFAULT, 0};
	for (size_t i = 0; i < ELEM_COUNT; i++)
		t->elem[i] = none;
	for (size_t i = 0; i < TAG_COUNT; i++)
		t->tag[i] = none;
	t->other_tag = none;
	t->colors = 256;
}

int theme_load_file(struct theme *t, const char *path, const char *label, struct kerr *e)
{
	theme_init(t);
	if (!label)
		label = path;
	yaml_document_t doc;
	int rc = yamldoc_load(&doc, path, label, e);
	if (rc == 0) {
		struct tparse tp = {&doc, label, e};
		rc = parse_root(&tp, t, yaml_document_get_root_node(&doc));
		yaml_document_delete(&doc);
	}
	if (rc) {
		theme_free(t);
		return -1;
	}
	if (!t->name)
		t->name = xstrdup(label);
	return 0;
}

/* themes/x.yaml rather than /abs/path/themes/x.yaml when under the cwd. */
static const char *short_label(const char *path, char *cwd, size_t cap)
{
	if (!getcwd(cwd, cap))
		return path;
	size_t n = strlen(cwd);
	return !strncmp(path, cwd, n) && path[n] == '/' ? path + n + 1 : path;
}

int theme_load(struct theme *t, const char *name, struct kerr *e)
{
	if (strchr(name, '/') || str_endswith(name, ".yaml"))
		return theme_load_file(t, name, NULL, e);
	char *rel = xasprintf("themes/%s.yaml", name);
	char *path = data_path(rel);
	int rc;
	if (!path) {
		rc = kerr_set(e, "unknown theme '%s': %s not found", name, rel);
	} else {
		char cwd[4096];
		rc = theme_load_file(t, path, short_label(path, cwd, sizeof(cwd)), e);
	}
	free(path);
	free(rel);
	return rc;
}

void theme_builtin(struct theme *t)
{
	theme_init(t);
	t->name = xstrdup("builtin");
	t->colors = 0;
	static const struct {
		enum theme_elem el;
		unsigned attrs;
	} set[] = {
	    {ELEM_CURSOR, THEME_REVERSE},     {ELEM_TITLE_FOCUS, THEME_REVERSE | THEME_BOLD},
	    {ELEM_TITLE_BLUR, THEME_REVERSE}, {ELEM_HEADER, THEME_BOLD},
	    {ELEM_ERROR, THEME_BOLD},	      {ELEM_SEARCH, THEME_UNDERLINE},
	    {ELEM_DROPPED, THEME_DIM},	      {ELEM_COMMIT, THEME_BOLD},
	    {ELEM_DIFF_FILE, THEME_BOLD},     {ELEM_DIFF_CHUNK, THEME_BOLD},
	    {ELEM_DIFF_ADD, THEME_BOLD},      {ELEM_HELP_GROUP, THEME_BOLD},
	    {ELEM_HELP_KEY, THEME_BOLD},      {ELEM_FAILED, THEME_BOLD},
	    {ELEM_DROP, THEME_DIM},	      {ELEM_CAPTION, THEME_REVERSE | THEME_BOLD},
	};
	for (size_t i = 0; i < ARRAY_SIZE(set); i++)
		t->elem[set[i].el].attrs = set[i].attrs;
	for (size_t i = 0; i < TAG_COUNT; i++)
		t->tag[i].attrs = THEME_BOLD;
	t->other_tag.attrs = THEME_BOLD;
}

void theme_free(struct theme *t)
{
	free(t->name);
	free(t->description);
	for (size_t i = 0; i < t->nextra; i++)
		free(t->extra[i].name);
	free(t->extra);
	memset(t, 0, sizeof(*t));
}

const char *theme_choose(const char *requested, bool no_color, int term_colors)
{
	if (requested && *requested)
		return requested;
	return no_color || term_colors < 8 ? "mono" : "default";
}

void theme_strip_colors(struct theme *t)
{
	struct theme_style *all[] = {t->elem, t->tag, &t->other_tag};
	size_t counts[] = {ELEM_COUNT, TAG_COUNT, 1};
	for (size_t a = 0; a < ARRAY_SIZE(all); a++)
		for (size_t i = 0; i < counts[a]; i++)
			all[a][i].fg = all[a][i].bg = THEME_COLOR_DEFAULT;
	for (size_t i = 0; i < t->nextra; i++)
		t->extra[i].style.fg = t->extra[i].style.bg = THEME_COLOR_DEFAULT;
	t->colors = 0;
}

short theme_color_fit(short c, int ncolors)
{
	if (c < 0 || c < ncolors)
		return c;
	int r, g, b, bright;
	if (c < 16) {
		return (short)(c - 8);
	} else if (c < 232) { /* 6x6x6 cube */
		int v = c - 16;
		r = v / 36, g = (v / 6) % 6, b = v % 6;
		int max = r > g ? (r > b ? r : b) : (g > b ? g : b);
		bright = max >= 4;
		/* a channel counts when it is near the strongest one */
		int lim = max > 1 ? max - 1 : 1;
		r = r >= lim, g = g >= lim, b = b >= lim;
		if (max == 0)
			r = g = b = 0;
	} else { /* grey ramp */
		int level = c - 232;
		bright = level >= 21;
		r = g = b = level >= 8;
	}
	short base = (short)(r | g << 1 | b << 2);
	return ncolors >= 16 && bright ? (short)(base + 8) : base;
}

const struct theme_style *theme_tag_style(const struct theme *t, const char *name)
{
	int tag = tag_from_name(name);
	if (tag >= 0)
		return &t->tag[tag];
	for (size_t i = 0; i < t->nextra; i++)
		if (!strcmp(t->extra[i].name, name))
			return &t->extra[i].style;
	return &t->other_tag;
}
