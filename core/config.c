/* Reading, merging and printing klang's configuration files. A file is parsed
 * whole into a fresh `struct config` and merged only when it has no error,
 * so a broken file never leaves half its settings behind. */
#include "core/config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <yaml.h>

#include "core/yamldoc.h"

static char **strv_dup(char *const *v, size_t n)
{
	char **out = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		out[i] = xstrdup(v[i]);
	return out;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void set_str(char **slot, const char *v)
{
	free(*slot);
	*slot = v ? xstrdup(v) : NULL;
}

static void set_list(char ***slot, size_t *n, char *const *v, size_t nv)
{
	strv_free(*slot, *n);
	*slot = strv_dup(v, nv);
	*n = nv;
}

void config_defaults(struct config *c)
{
	static char *const arches[] = {"arm64", "x86_64"}, *const tcs[] = {"llvm", "gcc"};
	const char *ed = getenv("VISUAL");
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	set_str(&c->theme, NULL); /* automatic: theme_choose() */
	set_str(&c->editor, ed && *ed ? ed : "vi");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	c->jobs = cpus > 0 ? (unsigned)cpus : 1;
	set_list(&c->arches, &c->narches, arches, ARRAY_SIZE(arches));
	set_list(&c->toolchains, &c->ntoolchains, tcs, ARRAY_SIZE(tcs));
	set_str(&c->config_target, "defconfig");
	set_str(&c->wrapper, "none");
}

/* ---- parsing ---- */

struct parse {
	yaml_document_t *doc;
	const char *label;
	const struct config_checks *chk;
	struct kerr *e;
};

#define fail_at(p, n, ...) yamldoc_error((p)->e, (p)->label, (n), __VA_ARGS__)
#define scalar yamldoc_scalar

static void add_words(char ***v, size_t *count, size_t *cap, const char *s, const char *seps)
{
	char *copy = xstrdup(s);
	for (char *t = seps ? strtok(copy, seps) : copy; t; t = seps ? strtok(NULL, seps) : NULL) {
		ALLOC_GROW(*v, *count + 2, *cap);
		(*v)[(*count)++] = xstrdup(t);
	}
	free(copy);
}

/* A sequence of scalars, or one scalar cut at `seps` (NULL: kept whole).
 * -1 with *bad set to the node that is not a scalar. */
static int scalar_list(struct parse *p, const yaml_node_t *n, const char *seps, char ***out,
		       size_t *nout, const yaml_node_t **bad)
{
	char **v = NULL;
	size_t cap = 0, count = 0;
	*bad = n;
	if (scalar(n)) {
		add_words(&v, &count, &cap, scalar(n), seps);
	} else if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++) {
			*bad = yaml_document_get_node(p->doc, *it);
			if (!scalar(*bad)) {
				strv_free(v, count);
				return -1;
			}
			add_words(&v, &count, &cap, scalar(*bad), NULL);
		}
	} else {
		return -1;
	}
	*out = v ? v : xcalloc(1, sizeof(char *));
	*nout = count;
	return 0;
}

/* A list of words: a sequence, or "a, b" / "a b" in one scalar. */
static int read_words(struct parse *p, const yaml_node_t *n, const char *key, char ***out,
		      size_t *nout, bool (*valid)(const char *), const char *what)
{
	char **v;
	size_t count;
	const yaml_node_t *bad;
	if (scalar_list(p, n, ", \t", &v, &count, &bad) < 0)
		return bad == n ? fail_at(p, n, "'%s' takes a list of %s names", key, what)
				: fail_at(p, bad, "'%s' takes %s names", key, what);
	if (!count) { /* the builds view's matrix needs one of each */
		strv_free(v, count);
		return fail_at(p, n, "'%s' takes at least one %s name", key, what);
	}
	for (size_t i = 0; i < count; i++)
		if (!*v[i] || (valid && !valid(v[i]))) {
			int rc = fail_at(p, n, "unknown %s '%s' in '%s'", what, v[i], key);
			strv_free(v, count);
			return rc;
		}
	strv_free(*out, *nout);
	*out = v;
	*nout = count;
	return 0;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+/-", *s))
			return false;
	return true;
}

static bool valid_wrapper(const char *s)
{
	return !strcmp(s, "ccache") || !strcmp(s, "distcc") || !strcmp(s, "icecc") ||
	       !strcmp(s, "none");
}

static void add_binding(struct config *c, const char *action, char **keys, size_t nkeys,
			const char *origin)
{
	struct config_binding *b = (struct config_binding *)config_binding(c, action);
	if (!b) {
		ALLOC_GROW(c->bindings, c->nbindings + 1, c->bindings_cap);
		b = &c->bindings[c->nbindings++];
		memset(b, 0, sizeof(*b));
		b->action = xstrdup(action);
	}
	strv_free(b->keys, b->nkeys);
	b->keys = strv_dup(keys, nkeys);
	b->nkeys = nkeys;
	set_str(&b->origin, origin);
}

static int read_bindings(struct parse *p, const yaml_node_t *n, struct config *c)
{
	if (n->type != YAML_MAPPING_NODE)
		return fail_at(p, n, "'bindings' takes a mapping of action: key");
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top;
	     pr++) {
		const yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
		const yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);
		const char *action = scalar(k);
		if (!action || !*action)
			return fail_at(p, k, "an action name must be a word");
		if (p->chk && p->chk->action && !p->chk->action(action))
			return fail_at(p, k, "unknown action '%s'", action);
		char **keys;
		size_t nkeys;
		const yaml_node_t *bad;
		if (scalar_list(p, v, NULL, &keys, &nkeys, &bad) < 0)
			return fail_at(p, bad, "'%s' takes a key or a list of keys", action);
		if (v->type == YAML_SCALAR_NODE && !strcmp(scalar(v), "none")) {
			strv_free(keys, nkeys);
			keys = NULL;
			nkeys = 0;
		}
		for (size_t i = 0; i < nkeys; i++) {
			bool ok = *keys[i] && (!p->chk || !p->chk->key || p->chk->key(keys[i]));
			if (!ok) {
				int rc = fail_at(p, v, "'%s': unknown key '%s'", action, keys[i]);
				strv_free(keys, nkeys);
				return rc;
			}
		}
		char *origin = xasprintf("%s:%zu:%zu", p->label, k->start_mark.line + 1,
					 k->start_mark.column + 1);
		add_binding(c, action, keys, nkeys, origin);
		free(origin);
		strv_free(keys, nkeys);
	}
	return 0;
}

static int read_setting(struct parse *p, const yaml_node_t *k, const yaml_node_t *v,
			struct config *c)
{
	const char *key = scalar(k), *s = scalar(v);
	if (!key)
		return fail_at(p, k, "a setting name must be a word");
	if (!strcmp(key, "bindings"))
		return read_bindings(p, v, c);
	if (!strcmp(key, "arches"))
		return read_words(p, v, key, &c->arches, &c->narches, valid_name, "arch");
	if (!strcmp(key, "toolchains"))
		return read_words(p, v, key, &c->toolchains, &c->ntoolchains, valid_name,
				  "toolchain");
	if (!strcmp(key, "make")) {
		char **vars;
		size_t n;
		const yaml_node_t *bad;
		if (scalar_list(p, v, NULL, &vars, &n, &bad) < 0)
			return fail_at(p, bad, "'make' takes a list of NAME=VALUE");
		for (size_t i = 0; i < n; i++)
			if (!is_make_assignment(vars[i])) {
				int rc = fail_at(p, v, "'make': '%s' is not NAME=VALUE", vars[i]);
				strv_free(vars, n);
				return rc;
			}
		strv_free(c->makevars, c->nmakevars);
		c->makevars = vars;
		c->nmakevars = n;
		return 0;
	}
	char **slot = !strcmp(key, "theme")	? &c->theme
		      : !strcmp(key, "editor")	? &c->editor
		      : !strcmp(key, "config")	? &c->config_target
		      : !strcmp(key, "wrapper") ? &c->wrapper
						: NULL;
	if (slot) {
		if (!s || !*s)
			return fail_at(p, v, "'%s' takes a word", key);
		if (slot == &c->wrapper && !valid_wrapper(s))
			return fail_at(p, v, "wrapper '%s': use ccache, distcc, icecc or none", s);
		set_str(slot, s);
		return 0;
	}
	if (!strcmp(key, "jobs")) {
		char *end;
		long n = s ? strtol(s, &end, 10) : 0;
		if (!s || *end || n < 1 || n > 4096)
			return fail_at(p, v, "'jobs' takes a number from 1 to 4096");
		c->jobs = (unsigned)n;
		return 0;
	}
	return fail_at(p, k, "unknown key '%s'", key);
}

static void merge(struct config *c, const struct config *f)
{
	const char *src[] = {f->theme, f->editor, f->config_target, f->wrapper};
	char **dst[] = {&c->theme, &c->editor, &c->config_target, &c->wrapper};
	for (size_t i = 0; i < ARRAY_SIZE(dst); i++)
		if (src[i])
			set_str(dst[i], src[i]);
	if (f->jobs)
		c->jobs = f->jobs;
	if (f->arches)
		set_list(&c->arches, &c->narches, f->arches, f->narches);
	if (f->toolchains)
		set_list(&c->toolchains, &c->ntoolchains, f->toolchains, f->ntoolchains);
	c->file_arches |= f->arches != NULL;
	c->file_toolchains |= f->toolchains != NULL;
	if (f->makevars)
		set_list(&c->makevars, &c->nmakevars, f->makevars, f->nmakevars);
	for (size_t i = 0; i < f->nbindings; i++)
		add_binding(c, f->bindings[i].action, f->bindings[i].keys, f->bindings[i].nkeys,
			    f->bindings[i].origin);
}

int config_load_text(struct config *c, const char *text, size_t len, const char *label,
		     const struct config_checks *chk, struct kerr *e)
{
	yaml_document_t doc;
	struct config f = {0};
	int rc = 0;

	if (yamldoc_load_text(&doc, text, len, label, e) < 0)
		return -1;
	struct parse p = {&doc, label, chk, e};
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_SCALAR_NODE && !*scalar(root))
		root = NULL; /* a file of comments only */
	if (root && root->type != YAML_MAPPING_NODE)
		rc = fail_at(&p, root, "expected settings (key: value)");
	for (yaml_node_pair_t *pr = root && !rc ? root->data.mapping.pairs.start : NULL;
	     pr && pr < root->data.mapping.pairs.top && !rc; pr++)
		rc = read_setting(&p, yaml_document_get_node(&doc, pr->key),
				  yaml_document_get_node(&doc, pr->value), &f);
	if (!rc) {
		merge(c, &f);
		c->files = xrealloc(c->files, (c->nfiles + 1) * sizeof(char *));
		c->files[c->nfiles++] = xstrdup(label);
	}
	config_free(&f);
	yaml_document_delete(&doc);
	return rc;
}

int config_load_file(struct config *c, const char *path, const struct config_checks *chk,
		     struct kerr *e)
{
	if (!file_exists(path))
		return 0;
	size_t len;
	char *text = read_file(path, &len, e);
	if (!text)
		return -1;
	int rc = config_load_text(c, text, len, path, chk, e);
	free(text);
	return rc;
}

char *config_user_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		return xasprintf("%s/klang/config.yaml", xdg);
	return xasprintf("%s/.config/klang/config.yaml", home && *home ? home : ".");
}

int config_load(struct config *c, const char *repo, const struct config_checks *chk, struct kerr *e)
{
	char *user = config_user_path();
	int rc = config_load_file(c, user, chk, e);
	free(user);
	if (rc < 0)
		return -1;
	/* the work tree's top; a tree that is not a git repository (a kernel
	 * tarball given to klang build) is its own top */
	char *wd = repo_workdir(repo ? repo : ".");
	if (!wd && repo)
		wd = xstrdup(repo);
	if (!wd)
		return 0;
	size_t n = strlen(wd);
	char *path = xasprintf("%s%s.klang/config.yaml", wd, n && wd[n - 1] == '/' ? "" : "/");
	rc = config_load_file(c, path, chk, e);
	free(path);
	free(wd);
	return rc;
}

const struct config_binding *config_binding(const struct config *c, const char *action)
{
	for (size_t i = 0; i < c->nbindings; i++)
		if (!strcmp(c->bindings[i].action, action))
			return &c->bindings[i];
	return NULL;
}

char *config_keyfile(const struct config *c, const char *(*scope_of)(const char *action))
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < c->nbindings; i++) {
		const struct config_binding *b = &c->bindings[i];
		const char *scope = scope_of ? scope_of(b->action) : NULL;
		for (size_t k = 0; k < b->nkeys; k++)
			sb_addf(&sb, "bind %s %s %s\n", scope ? scope : "generic", b->keys[k],
				b->action);
	}
	return sb_detach(&sb);
}

/* ---- printing ---- */

/* A scalar as YAML: plain when it reads back as the same string, else
 * single-quoted. */
static void add_scalar(struct strbuf *sb, const char *s)
{
	static const char *const special[] = {"",   "~",  "null", "true", "false", "yes",
					      "no", "on", "off",  "y",	  "n"};
	bool quote = strpbrk(s, ",[]{}#&*!|>'\"%@`:") || strchr("-? \t", s[0]) ||
		     isdigit((unsigned char)s[0]) || s[strlen(s) ? strlen(s) - 1 : 0] == ' ';
	for (size_t i = 0; i < ARRAY_SIZE(special) && !quote; i++)
		quote = !strcasecmp(s, special[i]);
	bool ctl = false; /* a newline or tab folds in plain and single quotes */
	for (const char *p = s; *p && !ctl; p++)
		ctl = (unsigned char)*p < 0x20 || *p == 0x7f;
	if (ctl) {
		yamldoc_add_quoted(sb, s);
		return;
	}
	if (!quote) {
		sb_adds(sb, s);
		return;
	}
	sb_addc(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			sb_addc(sb, '\'');
		sb_addc(sb, *s);
	}
	sb_addc(sb, '\'');
}

static void add_list(struct strbuf *sb, char *const *v, size_t n)
{
	sb_addc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_adds(sb, ", ");
		add_scalar(sb, v[i]);
	}
	sb_adds(sb, "]\n");
}

static void add_setting(struct strbuf *sb, const char *key, const char *v)
{
	if (!v)
		return;
	sb_addf(sb, "%s: ", key);
	add_scalar(sb, v);
	sb_addc(sb, '\n');
}

const char *config_wrapper(const char *w)
{
	return w && strcmp(w, "none") ? w : NULL;
}

char *config_dump(const struct config *c)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "# klang configuration in effect\n");
	for (size_t i = 0; i < c->nfiles; i++)
		sb_addf(&sb, "# read: %s\n", c->files[i]);
	if (c->theme)
		add_setting(&sb, "theme", c->theme);
	else
		sb_adds(
		    &sb,
		    "# theme: automatic (mono with NO_COLOR or without colours, else default)\n");
	add_setting(&sb, "editor", c->editor);
	if (c->jobs)
		sb_addf(&sb, "jobs: %u\n", c->jobs);
	if (c->arches) {
		sb_adds(&sb, "arches: ");
		add_list(&sb, c->arches, c->narches);
	}
	if (c->toolchains) {
		sb_adds(&sb, "toolchains: ");
		add_list(&sb, c->toolchains, c->ntoolchains);
	}
	add_setting(&sb, "config", c->config_target);
	add_setting(&sb, "wrapper", c->wrapper);
	if (c->makevars) {
		sb_adds(&sb, "make: ");
		add_list(&sb, c->makevars, c->nmakevars);
	}
	if (c->nbindings)
		sb_adds(&sb, "bindings:\n");
	for (size_t i = 0; i < c->nbindings; i++) {
		/* YAML's simple keys stop at 1024 characters; longer ones need "? " */
		struct strbuf key = STRBUF_INIT;
		add_scalar(&key, c->bindings[i].action);
		bool long_key = key.len > 1000;
		sb_addf(&sb, long_key ? "  ? %s\n  : " : "  %s: ", key.buf);
		sb_free(&key);
		add_list(&sb, c->bindings[i].keys, c->bindings[i].nkeys);
	}
	return sb_detach(&sb);
}

void config_free(struct config *c)
{
	free(c->theme);
	free(c->editor);
	free(c->config_target);
	free(c->wrapper);
	strv_free(c->arches, c->narches);
	strv_free(c->toolchains, c->ntoolchains);
	strv_free(c->makevars, c->nmakevars);
	for (size_t i = 0; i < c->nbindings; i++) {
		free(c->bindings[i].action);
		strv_free(c->bindings[i].keys, c->bindings[i].nkeys);
		free(c->bindings[i].origin);
	}
	free(c->bindings);
	strv_free(c->files, c->nfiles);
	memset(c, 0, sizeof(*c));
}
