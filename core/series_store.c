/* The manual overrides store, REPO/.klang/overrides.yaml:
 *
 *   overrides:
 *     - commit: 3f2a...            # full id when set
 *       change_id: I8d1c...        # when the patch has one: survives rebases
 *       subject: "HACK: arm64: ..."
 *       decision: drop             # keep | drop, or: until_clang: 5
 *
 * A patch matches an entry by Change-Id first, else by commit id (an entry
 * with a Change-Id only by that). Each change is merged into the file as it
 * is now, under .klang/overrides.lock, and written atomically
 * (core/lockfile.h): two klang instances keep each other's decisions. A
 * corrupt file is moved aside as overrides.yaml.corrupt. */
#include "core/series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/lockfile.h"
#include "core/yamldoc.h"

static int load_entry(yaml_document_t *doc, yaml_node_t *n, const char *path, struct override *o,
		      struct kerr *e)
{
	memset(o, 0, sizeof(*o));
	if (n->type != YAML_MAPPING_NODE)
		return yamldoc_error(e, path, n,
				     "an override must be a mapping (commit:, decision:)");
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		yaml_node_t *v = yaml_document_get_node(doc, p->value);
		if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE)
			return yamldoc_error(e, path, k,
					     "override keys and values must be strings");
		const char *key = (const char *)k->data.scalar.value;
		const char *val = (const char *)v->data.scalar.value;
		char **dst = !strcmp(key, "commit")	 ? &o->commit
			     : !strcmp(key, "change_id") ? &o->change_id
			     : !strcmp(key, "subject")	 ? &o->subject
							 : NULL;
		if (dst) {
			free(*dst);
			*dst = xstrdup(val);
		} else if (!strcmp(key, "decision")) {
			if (strcmp(val, "keep") && strcmp(val, "drop"))
				return yamldoc_error(e, path, v, "decision must be keep or drop");
			o->kind = !strcmp(val, "keep") ? OV_KEEP : OV_DROP;
		} else if (!strcmp(key, "until_clang")) {
			if (clangver_parse(val, &o->until) < 0)
				return yamldoc_error(e, path, v,
						     "until_clang must be a Clang version");
			o->kind = OV_UNTIL;
		} else {
			return yamldoc_error(e, path, k, "unknown override key '%.60s'", key);
		}
	}
	if (!o->commit && !o->change_id)
		return yamldoc_error(e, path, n, "override needs 'commit' or 'change_id'");
	if (o->kind == OV_NONE)
		return yamldoc_error(e, path, n, "override needs 'decision' or 'until_clang'");
	return 0;
}

static void free_entry(struct override *o)
{
	free(o->commit);
	free(o->change_id);
	free(o->subject);
}

/* A list of overrides: the store as read from the file. */
struct ov_list {
	struct override *v;
	size_t n;
};

static void list_free(struct ov_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free_entry(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Parse the file's text into `l` (empty for NULL text). Any error makes the
 * file corrupt: state_load/state_update move it aside. */
static int parse_list(void *data, const char *path, const char *text, size_t len, struct kerr *e)
{
	struct ov_list *l = data;
	l->v = NULL;
	l->n = 0;
	if (!text)
		return 0;
	yaml_document_t doc;
	if (yamldoc_load_text(&doc, text, len, path, e) < 0)
		return STATE_CORRUPT;
	int rc = 0;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	yaml_node_t *list = NULL;
	if (root && root->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		     p < root->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(&doc, p->key);
			if (k->type == YAML_SCALAR_NODE &&
			    !strcmp((const char *)k->data.scalar.value, "overrides"))
				list = yaml_document_get_node(&doc, p->value);
		}
	}
	if (root && (!list || (list->type != YAML_SEQUENCE_NODE &&
			       !(list->type == YAML_SCALAR_NODE && !list->data.scalar.length))))
		rc =
		    yamldoc_error(e, path, list ? list : root, "expected 'overrides:' with a list");
	for (yaml_node_item_t *i =
		 list && list->type == YAML_SEQUENCE_NODE ? list->data.sequence.items.start : NULL;
	     rc == 0 && i && i < list->data.sequence.items.top; i++) {
		struct override o;
		rc = load_entry(&doc, yaml_document_get_node(&doc, *i), path, &o, e);
		if (rc < 0) {
			free_entry(&o);
			break;
		}
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = o;
	}
	yaml_document_delete(&doc);
	if (rc < 0) {
		list_free(l);
		return STATE_CORRUPT;
	}
	return 0;
}

int overrides_load(struct series *s, struct kerr *e)
{
	if (!s->ov_path)
		return 0;
	struct ov_list l = {NULL, 0};
	int rc = state_load(s->ov_path, parse_list, &l, e);
	s->ovs = l.v;
	s->novs = l.n;
	return rc;
}

static void serialise(const struct ov_list *l, struct strbuf *sb)
{
	sb_adds(sb, "# klang manual overrides: keep/drop per patch, matched by Change-Id,\n"
		    "# else by commit id. Written by klang; safe to edit.\n"
		    "overrides:\n");
	for (size_t i = 0; i < l->n; i++) {
		const struct override *o = &l->v[i];
		char b[32];
		sb_adds(sb, "  - ");
		if (o->commit) { /* quoted: a hand-written entry may hold anything */
			sb_adds(sb, "commit: ");
			yamldoc_add_quoted(sb, o->commit);
			sb_adds(sb, "\n    ");
		}
		if (o->change_id) {
			sb_adds(sb, "change_id: ");
			yamldoc_add_quoted(sb, o->change_id);
			sb_adds(sb, "\n    ");
		}
		if (o->subject) {
			sb_adds(sb, "subject: ");
			yamldoc_add_quoted(sb, o->subject);
			sb_adds(sb, "\n    ");
		}
		if (o->kind == OV_UNTIL)
			sb_addf(sb, "until_clang: \"%s\"\n",
				clangver_str_short(&o->until, b, sizeof(b)));
		else
			sb_addf(sb, "decision: %s\n", o->kind == OV_KEEP ? "keep" : "drop");
	}
}

/* The entry of `l` that names patch p: by Change-Id first, else by commit.
 * An entry with a Change-Id names only the patch carrying it (its commit is
 * where that patch was last seen): were it also taken by commit, a
 * hand-edited entry could name two patches, and setting one would lose the
 * other's decision. */
static struct override *list_find(const struct ov_list *l, const struct patch *p)
{
	const char *cid = patch_trailer(p, "Change-Id");
	for (size_t i = 0; cid && i < l->n; i++)
		if (l->v[i].change_id && !strcmp(l->v[i].change_id, cid))
			return &l->v[i];
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].commit && !l->v[i].change_id && !strcasecmp(l->v[i].commit, p->id))
			return &l->v[i];
	return NULL;
}

/* One manual decision, applied to whatever list is current. */
struct ov_change {
	const struct patch *p;
	enum override_kind kind;
	struct clang_version until;
	struct ov_list merged;
};

static void apply_change(struct ov_list *l, const struct ov_change *c)
{
	const struct patch *p = c->p;
	struct override *o = list_find(l, p);
	if (c->kind == OV_NONE) {
		while (o) { /* drop every entry that names this patch */
			size_t k = (size_t)(o - l->v);
			free_entry(o);
			memmove(o, o + 1, (l->n - k - 1) * sizeof(*o));
			l->n--;
			o = list_find(l, p);
		}
		return;
	}
	if (!o) {
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		o = &l->v[l->n++];
		memset(o, 0, sizeof(*o));
	}
	free(o->commit);
	free(o->subject);
	o->commit = xstrdup(p->id);
	o->subject = xstrdup(p->subject ? p->subject : "");
	const char *cid = patch_trailer(p, "Change-Id");
	if (cid && !o->change_id)
		o->change_id = xstrdup(cid);
	o->kind = c->kind;
	if (c->kind == OV_UNTIL)
		o->until = c->until;
}

/* Under the lock: the file as another klang may have left it, plus ours. */
static int merge_change(void *data, const char *path, const char *text, size_t len,
			struct strbuf *out, struct kerr *e)
{
	struct ov_change *c = data;
	list_free(&c->merged);
	int rc = parse_list(&c->merged, path, text, len, e);
	if (rc)
		return rc;
	apply_change(&c->merged, c);
	serialise(&c->merged, out);
	return 0;
}

int overrides_set(struct series *s, const struct patch *p, enum override_kind kind,
		  const struct clang_version *until, struct kerr *e)
{
	struct ov_change c = {p, kind, {0}, {NULL, 0}};
	if (kind == OV_UNTIL)
		c.until = *until;
	struct ov_list mine = {s->ovs, s->novs};
	if (!s->ov_path) {
		apply_change(&mine, &c);
		s->ovs = mine.v;
		s->novs = mine.n;
		return 0;
	}
	int rc = state_update(s->ov_path, merge_change, &c, e);
	if (rc < 0) {
		list_free(&c.merged);
		return rc;
	}
	list_free(&mine);
	s->ovs = c.merged.v;
	s->novs = c.merged.n;
	return rc;
}

const struct override *overrides_lookup(const struct series *s, const struct patch *p)
{
	const struct ov_list l = {s->ovs, s->novs};
	return list_find(&l, p);
}
