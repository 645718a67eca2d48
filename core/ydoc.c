/* YAML to a node tree with positions, over the shared document loader
 * (core/yamldoc). */
#include "core/ydoc.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/yamldoc.h"

void ydoc_free(struct ynode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		ydoc_free(n->items[i]);
	free(n->items);
	free(n->str);
	free(n);
}

/* The libyaml document (core/yamldoc) as a tree of ynodes. Aliases are
 * followed by libyaml; depth is bounded so a hostile file cannot recurse. */
static struct ynode *convert(yaml_document_t *doc, yaml_node_t *y, int depth)
{
	struct ynode *n = xcalloc(1, sizeof(*n));
	n->line = (unsigned)y->start_mark.line + 1;
	n->col = (unsigned)y->start_mark.column + 1;
	if (y->type == YAML_SCALAR_NODE || depth > 64) {
		n->type = Y_SCALAR;
		n->str = y->type == YAML_SCALAR_NODE
			     ? xstrndup((const char *)y->data.scalar.value, y->data.scalar.length)
			     : xstrdup("");
		return n;
	}
	if (y->type == YAML_SEQUENCE_NODE) {
		n->type = Y_SEQ;
		size_t k = (size_t)(y->data.sequence.items.top - y->data.sequence.items.start);
		n->items = xcalloc(k + 1, sizeof(*n->items));
		for (yaml_node_item_t *it = y->data.sequence.items.start;
		     it < y->data.sequence.items.top; it++)
			n->items[n->n++] =
			    convert(doc, yaml_document_get_node(doc, *it), depth + 1);
	} else {
		n->type = Y_MAP;
		size_t k = (size_t)(y->data.mapping.pairs.top - y->data.mapping.pairs.start);
		n->items = xcalloc(2 * k + 1, sizeof(*n->items));
		for (yaml_node_pair_t *pr = y->data.mapping.pairs.start;
		     pr < y->data.mapping.pairs.top; pr++) {
			n->items[n->n++] =
			    convert(doc, yaml_document_get_node(doc, pr->key), depth + 1);
			n->items[n->n++] =
			    convert(doc, yaml_document_get_node(doc, pr->value), depth + 1);
		}
	}
	return n;
}

struct ynode *ydoc_load(const char *path, struct kerr *e)
{
	yaml_document_t doc;
	if (yamldoc_load(&doc, path, NULL, e))
		return NULL;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	struct ynode *n;
	if (root) {
		n = convert(&doc, root, 0);
	} else {
		n = xcalloc(1, sizeof(*n)); /* an empty file: an empty list */
		n->type = Y_SEQ;
		n->line = n->col = 1;
	}
	yaml_document_delete(&doc);
	return n;
}

int ydoc_each(const char *path, const char *what,
	      int (*each)(void *ctx, const char *path, const struct ynode *item, struct kerr *e),
	      void *ctx, struct kerr *e)
{
	struct ynode *doc = ydoc_load(path, e);
	if (!doc)
		return -1;
	int rc = 0;
	if (doc->type != Y_SEQ)
		rc =
		    kerr_set(e, "%s:%u:%u: expected a list of %s", path, doc->line, doc->col, what);
	for (size_t i = 0; !rc && i < doc->n; i++)
		rc = each(ctx, path, doc->items[i], e);
	ydoc_free(doc);
	return rc;
}

const struct ynode *ydoc_get(const struct ynode *map, const char *key)
{
	if (!map || map->type != Y_MAP)
		return NULL;
	for (size_t i = 0; i + 1 < map->n; i += 2)
		if (map->items[i]->type == Y_SCALAR && !strcmp(map->items[i]->str, key))
			return map->items[i + 1];
	return NULL;
}

const char *ydoc_type_name(enum ynode_type t)
{
	return t == Y_SCALAR ? "a scalar" : t == Y_SEQ ? "a list" : "a mapping";
}
