/* The manual overrides store, REPO/.klang/overrides.yaml:
 *
 *   overrides:
 *     - commit: 3f2a...            # full id when set
 *       change_id: I8d1c...        # when the patch has one: survives rebases
 *       subject: "HACK: arm64: ..."
 *       decision: drop             # keep | drop, or: until_clang: 5
 *
 * A patch matches an entry by Change-Id first, else by commit id. Written
 * atomically (temporary file + rename). */
#include "core/series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static int node_err(const char *path, const yaml_node_t *n, const char *what, struct kerr *e)
{
	return kerr_set(e, "%s:%zu:%zu: %s", path, n->start_mark.line + 1,
			n->start_mark.column + 1, what);
}

static int load_entry(yaml_document_t *doc, yaml_node_t *n, const char *path,
		      struct override *o, struct kerr *e)
{
	memset(o, 0, sizeof(*o));
	if (n->type != YAML_MAPPING_NODE)
		return node_err(path, n, "an override must be a mapping (commit:, decision:)", e);
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		yaml_node_t *v = yaml_document_get_node(doc, p->value);
		if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE)
			return node_err(path, k, "override keys and values must be strings", e);
		const char *key = (const char *)k->data.scalar.value;
		const char *val = (const char *)v->data.scalar.value;
		char **dst = !strcmp(key, "commit")      ? &o->commit
			     : !strcmp(key, "change_id") ? &o->change_id
			     : !strcmp(key, "subject")   ? &o->subject
							 : NULL;
		if (dst) {
			free(*dst);
			*dst = xstrdup(val);
		} else if (!strcmp(key, "decision")) {
			if (strcmp(val, "keep") && strcmp(val, "drop"))
				return node_err(path, v, "decision must be keep or drop", e);
			o->kind = !strcmp(val, "keep") ? OV_KEEP : OV_DROP;
		} else if (!strcmp(key, "until_clang")) {
			if (clangver_parse(val, &o->until) < 0)
				return node_err(path, v, "until_clang must be a Clang version", e);
			o->kind = OV_UNTIL;
		} else {
			char msg[160];
			snprintf(msg, sizeof(msg), "unknown override key '%.60s'", key);
			return node_err(path, k, msg, e);
		}
	}
	if (!o->commit && !o->change_id)
		return node_err(path, n, "override needs 'commit' or 'change_id'", e);
	if (o->kind == OV_NONE)
		return node_err(path, n, "override needs 'decision' or 'until_clang'", e);
	return 0;
}

static void free_entry(struct override *o)
{
	free(o->commit);
	free(o->change_id);
	free(o->subject);
}

int overrides_load(struct series *s, struct kerr *e)
{
	if (!s->ov_path || !file_exists(s->ov_path))
		return 0;
	size_t len;
	char *text = read_file(s->ov_path, &len, e);
	if (!text)
		return -1;
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	int rc = 0;
	if (!yaml_parser_load(&parser, &doc)) {
		rc = kerr_set(e, "%s:%zu:%zu: %s", s->ov_path, parser.problem_mark.line + 1,
			      parser.problem_mark.column + 1,
			      parser.problem ? parser.problem : "malformed YAML");
		yaml_parser_delete(&parser);
		free(text);
		return rc;
	}
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
		rc = node_err(s->ov_path, list ? list : root, "expected 'overrides:' with a list", e);
	for (yaml_node_item_t *i = list && list->type == YAML_SEQUENCE_NODE
					   ? list->data.sequence.items.start
					   : NULL;
	     rc == 0 && i && i < list->data.sequence.items.top; i++) {
		struct override o;
		rc = load_entry(&doc, yaml_document_get_node(&doc, *i), s->ov_path, &o, e);
		if (rc < 0) {
			free_entry(&o);
			break;
		}
		s->ovs = xrealloc(s->ovs, (s->novs + 1) * sizeof(*s->ovs));
		s->ovs[s->novs++] = o;
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(text);
	return rc;
}

/* A YAML double-quoted scalar. */
static void add_quoted(struct strbuf *sb, const char *s)
{
	sb_addc(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sb_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			sb_addf(sb, "\\x%02x", c);
		else
			sb_addc(sb, (char)c);
	}
	sb_addc(sb, '"');
}

int overrides_save(const struct series *s, struct kerr *e)
{
	if (!s->ov_path)
		return 0;
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "# klang manual overrides: keep/drop per patch, matched by Change-Id,\n"
		     "# else by commit id. Written by klang; safe to edit.\n"
		     "overrides:\n");
	for (size_t i = 0; i < s->novs; i++) {
		const struct override *o = &s->ovs[i];
		char b[32];
		sb_adds(&sb, "  - ");
		if (o->commit)
			sb_addf(&sb, "commit: %s\n    ", o->commit);
		if (o->change_id) {
			sb_adds(&sb, "change_id: ");
			add_quoted(&sb, o->change_id);
			sb_adds(&sb, "\n    ");
		}
		if (o->subject) {
			sb_adds(&sb, "subject: ");
			add_quoted(&sb, o->subject);
			sb_adds(&sb, "\n    ");
		}
		if (o->kind == OV_UNTIL)
			sb_addf(&sb, "until_clang: \"%s\"\n", clangver_str_short(&o->until, b, sizeof(b)));
		else
			sb_addf(&sb, "decision: %s\n", o->kind == OV_KEEP ? "keep" : "drop");
	}
	char *dir = xstrndup(s->ov_path, (size_t)(strrchr(s->ov_path, '/') - s->ov_path));
	int rc = mkdir_p(dir, e);
	if (rc == 0)
		rc = write_file_atomic(s->ov_path, sb.buf, sb.len, e);
	free(dir);
	sb_free(&sb);
	return rc;
}

const struct override *overrides_lookup(const struct series *s, const struct patch *p)
{
	const char *cid = patch_trailer(p, "Change-Id");
	for (size_t i = 0; cid && i < s->novs; i++)
		if (s->ovs[i].change_id && !strcmp(s->ovs[i].change_id, cid))
			return &s->ovs[i];
	for (size_t i = 0; i < s->novs; i++)
		if (s->ovs[i].commit && !strcasecmp(s->ovs[i].commit, p->id))
			return &s->ovs[i];
	return NULL;
}
