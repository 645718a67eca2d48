/* Loading patchset YAML files (libyaml document API) and matching their
 * rules against patches (PCRE2 for subjects). */
#include "core/patchset.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <limits.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "core/yamldoc.h"

struct loader {
	yaml_document_t doc;
	const char *path;
	struct kerr *e;
};

/* "PATH:LINE:COL: message" at n (core/yamldoc). */
#define err_at(l, n, ...) yamldoc_error((l)->e, (l)->path, (n), __VA_ARGS__)

static int want_scalar(struct loader *l, const yaml_node_t *n, const char *key, char **out)
{
	const char *s = yamldoc_scalar(n);
	if (!s)
		return err_at(l, n, "'%s' must be a string", key);
	free(*out);
	*out = xstrdup(s);
	return 0;
}

static int want_bool(struct loader *l, const yaml_node_t *n, const char *key, bool *out)
{
	const char *s = yamldoc_scalar(n);
	static const char *const yes[] = {"true", "yes", "on", "y"};
	static const char *const no[] = {"false", "no", "off", "n"};
	for (size_t i = 0; s && i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(s, no[i]))
			return *out = false, 0;
	}
	return err_at(l, n, "'%s' must be true or false", key);
}

/* "action: keep" / "decision: drop", the same as "keep: true" / "drop: true". */
static int want_action(struct loader *l, const yaml_node_t *n, const char *key, bool *keep,
		       bool *drop)
{
	const char *s = yamldoc_scalar(n);
	if (s && !strcmp(s, "keep"))
		return *keep = true, 0;
	if (s && !strcmp(s, "drop"))
		return *drop = true, 0;
	return err_at(l, n, "'%s' must be keep or drop", key);
}

static int want_version(struct loader *l, const yaml_node_t *n, const char *key,
			struct clang_version *v)
{
	const char *s = yamldoc_scalar(n);
	if (!s || clangver_parse(s, v) < 0)
		return err_at(l, n, "'%s' must be a Clang version such as 5, 5.0 or 14.0.6", key);
	return 0;
}

static char *expand_repo(const char *repo, const char *file)
{
	if (repo[0] == '~' && (repo[1] == '/' || !repo[1])) {
		const char *home = getenv("HOME");
		return xasprintf("%s%s", home ? home : "", repo + 1);
	}
	if (repo[0] == '/')
		return xstrdup(repo);
	const char *slash = strrchr(file, '/');
	if (!slash)
		return xstrdup(repo);
	return xasprintf("%.*s/%s", (int)(slash - file), file, repo);
}

static bool is_hex(const char *s)
{
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

static int load_rule(struct loader *l, yaml_node_t *n, struct ps_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->line = (int)n->start_mark.line + 1;
	r->col = (int)n->start_mark.column + 1;
	if (n->type != YAML_MAPPING_NODE)
		return err_at(l, n,
			      "a rule must be a mapping (subject:, commit:, until_clang: ...)");
	bool keep = false, drop = false;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&l->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&l->doc, p->value);
		const char *key = yamldoc_scalar(k);
		int rc;
		if (!key)
			return err_at(l, k, "rule keys must be strings");
		if (!strcmp(key, "commit") || !strcmp(key, "commit_id"))
			rc = want_scalar(l, v, key, &r->commit);
		else if (!strcasecmp(key, "change_id") || !strcasecmp(key, "change-id"))
			rc = want_scalar(l, v, key, &r->change_id);
		else if (!strcmp(key, "subject"))
			rc = want_scalar(l, v, key, &r->subject);
		else if (!strcmp(key, "until_clang"))
			rc = want_version(l, v, key, &r->until), r->has_until = true;
		else if (!strcmp(key, "since_clang"))
			rc = want_version(l, v, key, &r->since), r->has_since = true;
		else if (!strcmp(key, "keep"))
			rc = want_bool(l, v, key, &keep);
		else if (!strcmp(key, "drop"))
			rc = want_bool(l, v, key, &drop);
		else if (!strcmp(key, "action") || !strcmp(key, "decision"))
			rc = want_action(l, v, key, &keep, &drop);
		else if (!strcmp(key, "why") || !strcmp(key, "note"))
			rc = want_scalar(l, v, key, &r->why);
		else
			rc = err_at(l, k,
				    "unknown rule key '%s' (commit, change_id, subject, "
				    "until_clang, since_clang, keep, drop, action, why)",
				    key);
		if (rc < 0)
			return rc;
	}
	if (!r->commit && !r->change_id && !r->subject)
		return err_at(l, n, "rule needs 'subject' or 'commit' (or 'change_id')");
	if (r->commit && (strlen(r->commit) < 4 || strlen(r->commit) > 40 || !is_hex(r->commit)))
		return err_at(l, n, "commit '%s' is not a commit id (4 to 40 hex digits)",
			      r->commit);
	if (keep && drop)
		return err_at(l, n, "rule says both 'keep' and 'drop'");
	if ((keep || drop) && (r->has_until || r->has_since))
		return err_at(l, n, "rule says '%s' and a Clang bound: use one",
			      keep ? "keep" : "drop");
	if (!keep && !drop && !r->has_until && !r->has_since)
		return err_at(l, n, "rule needs 'until_clang', 'since_clang', 'keep' or 'drop'");
	if (r->has_until && r->has_since && clangver_cmp(&r->since, &r->until) >= 0)
		return err_at(l, n, "since_clang must be below until_clang");
	r->fixed = keep ? RULE_KEEP : drop ? RULE_DROP : RULE_BOUNDED;
	if (r->subject) {
		int errcode;
		PCRE2_SIZE off;
		r->re = pcre2_compile((PCRE2_SPTR)r->subject, PCRE2_ZERO_TERMINATED, 0, &errcode,
				      &off, NULL);
		if (!r->re) {
			PCRE2_UCHAR buf[256];
			pcre2_get_error_message(errcode, buf, sizeof(buf));
			return err_at(l, n, "subject '%s': %s at offset %zu", r->subject,
				      (char *)buf, (size_t)off);
		}
	}
	return 0;
}

static int load_tags(struct loader *l, yaml_node_t *n, struct patchset *ps)
{
	if (n->type != YAML_SEQUENCE_NODE)
		return err_at(l, n, "'tags' must be a list such as [FOO, BAR]");
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top;
	     i++) {
		yaml_node_t *t = yaml_document_get_node(&l->doc, *i);
		const char *s = yamldoc_scalar(t);
		if (!s || !*s || strchr(s, ':') || strchr(s, ' '))
			return err_at(l, t, "a tag is one word without ':' (FOO, not 'FOO:')");
		ps->tags = xrealloc(ps->tags, (ps->ntags + 1) * sizeof(*ps->tags));
		ps->tags[ps->ntags++] = xstrdup(s);
	}
	return 0;
}

static int load_fetch(struct loader *l, yaml_node_t *n, struct patchset *ps)
{
	if (n->type != YAML_MAPPING_NODE)
		return err_at(l, n, "'fetch' must be a mapping with 'url' and 'ref'");
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&l->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&l->doc, p->value);
		const char *key = yamldoc_scalar(k);
		int rc;
		if (key && !strcmp(key, "url"))
			rc = want_scalar(l, v, key, &ps->fetch_url);
		else if (key && !strcmp(key, "ref"))
			rc = want_scalar(l, v, key, &ps->fetch_ref);
		else
			rc = err_at(l, k, "unknown fetch key '%s' (url, ref)", key ? key : "?");
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int load_top(struct loader *l, yaml_node_t *root, struct patchset *ps)
{
	if (!root)
		return kerr_set(l->e, "%s:1:1: empty patchset", l->path);
	if (root->type != YAML_MAPPING_NODE)
		return err_at(l, root,
			      "a patchset must be a mapping (name:, repo:, base:, head:, rules:)");
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&l->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&l->doc, p->value);
		const char *key = yamldoc_scalar(k);
		int rc = 0;
		if (!key)
			rc = err_at(l, k, "keys must be strings");
		else if (!strcmp(key, "name"))
			rc = want_scalar(l, v, key, &ps->name);
		else if (!strcmp(key, "description"))
			rc = want_scalar(l, v, key, &ps->description);
		else if (!strcmp(key, "repo"))
			rc = want_scalar(l, v, key, &ps->repo);
		else if (!strcmp(key, "base"))
			rc = want_scalar(l, v, key, &ps->base);
		else if (!strcmp(key, "head"))
			rc = want_scalar(l, v, key, &ps->head);
		else if (!strcmp(key, "tags"))
			rc = load_tags(l, v, ps);
		else if (!strcmp(key, "fetch"))
			rc = load_fetch(l, v, ps);
		else if (!strcmp(key, "rules")) {
			if (v->type == YAML_SCALAR_NODE && !*yamldoc_scalar(v))
				continue; /* "rules:" with nothing */
			if (v->type != YAML_SEQUENCE_NODE)
				return err_at(l, v, "'rules' must be a list");
			size_t n =
			    (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
			ps->rules = xcalloc(n, sizeof(*ps->rules));
			for (size_t i = 0; i < n && rc == 0; i++) {
				yaml_node_t *rn = yaml_document_get_node(
				    &l->doc, v->data.sequence.items.start[i]);
				rc = load_rule(l, rn, &ps->rules[i]);
				ps->nrules = i + 1;
			}
		} else
			rc = err_at(l, k,
				    "unknown key '%s' (name, description, repo, base, head, "
				    "fetch, tags, rules)",
				    key);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int patchset_load(struct patchset *ps, const char *path, struct kerr *e)
{
	memset(ps, 0, sizeof(*ps));
	struct loader l = {.path = path, .e = e};
	if (yamldoc_load(&l.doc, path, NULL, e) < 0)
		return -1;
	ps->path = xstrdup(path);
	int rc = load_top(&l, yaml_document_get_root_node(&l.doc), ps);
	yaml_document_delete(&l.doc);
	if (rc < 0) {
		patchset_free(ps);
		return -1;
	}
	if (ps->repo) {
		char *r = expand_repo(ps->repo, path);
		free(ps->repo);
		ps->repo = r;
	}
	if (!ps->name) {
		const char *b = strrchr(path, '/');
		b = b ? b + 1 : path;
		size_t n = strlen(b);
		if (str_endswith(b, ".yaml"))
			n -= 5;
		ps->name = xstrndup(b, n);
	}
	return 0;
}

char *patchset_find(const char *name)
{
	if (file_exists(name))
		return xstrdup(name);
	if (strchr(name, '/'))
		return NULL;
	char *rel = str_endswith(name, ".yaml") ? xasprintf("patchsets/%s", name)
						: xasprintf("patchsets/%s.yaml", name);
	char *p = data_path(rel);
	free(rel);
	return p;
}

void patchset_free(struct patchset *ps)
{
	for (size_t i = 0; i < ps->nrules; i++) {
		struct ps_rule *r = &ps->rules[i];
		free(r->commit);
		free(r->change_id);
		free(r->subject);
		free(r->why);
		pcre2_code_free(r->re);
	}
	free(ps->rules);
	for (size_t i = 0; i < ps->ntags; i++)
		free(ps->tags[i]);
	free(ps->tags);
	free(ps->path);
	free(ps->name);
	free(ps->description);
	free(ps->repo);
	free(ps->base);
	free(ps->head);
	free(ps->fetch_url);
	free(ps->fetch_ref);
	memset(ps, 0, sizeof(*ps));
}

static bool rule_matches(const struct ps_rule *r, const struct patch *p)
{
	if (r->commit && strncasecmp(p->id, r->commit, strlen(r->commit)))
		return false;
	if (r->change_id) {
		const char *cid = patch_trailer(p, "Change-Id");
		if (!cid || strcmp(cid, r->change_id))
			return false;
	}
	if (r->re) {
		/* the full subject ("^HACK: arm64:"), or the title ("^arm64:") */
		const char *texts[] = {p->subject, p->title};
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
		int rc = -1;
		for (size_t i = 0; i < ARRAY_SIZE(texts) && rc < 0; i++)
			if (texts[i])
				rc = pcre2_match(r->re, (PCRE2_SPTR)texts[i], strlen(texts[i]), 0,
						 0, md, NULL);
		pcre2_match_data_free(md);
		if (rc < 0)
			return false;
	}
	return true;
}

const struct ps_rule *patchset_match(const struct patchset *ps, const struct patch *p)
{
	for (size_t i = 0; ps && i < ps->nrules; i++)
		if (rule_matches(&ps->rules[i], p))
			return &ps->rules[i];
	return NULL;
}

bool ps_rule_keeps(const struct ps_rule *r, const struct clang_version *clang)
{
	if (r->fixed != RULE_BOUNDED)
		return r->fixed == RULE_KEEP;
	if (r->has_until && clangver_cmp(clang, &r->until) >= 0)
		return false;
	if (r->has_since && clangver_cmp(clang, &r->since) < 0)
		return false;
	return true;
}

void ps_rule_describe(const struct ps_rule *r, struct strbuf *out)
{
	char b[32];
	if (r->fixed != RULE_BOUNDED) {
		sb_adds(out, r->fixed == RULE_KEEP ? "keep" : "drop");
		return;
	}
	if (r->has_since)
		sb_addf(out, "since_clang %s", clangver_str_short(&r->since, b, sizeof(b)));
	if (r->has_until)
		sb_addf(out, "%suntil_clang %s", r->has_since ? ", " : "",
			clangver_str_short(&r->until, b, sizeof(b)));
}
