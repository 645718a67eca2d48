/* YAML to a node tree with positions, via libyaml's event parser. Aliases
 * and tags are not needed by klang's files and are refused. */
#include "core/ydoc.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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

static struct ynode *node_new(enum ynode_type t, const yaml_mark_t *m)
{
	struct ynode *n = xcalloc(1, sizeof(*n));
	n->type = t;
	n->line = (unsigned)m->line + 1;
	n->col = (unsigned)m->column + 1;
	return n;
}

static void push(struct ynode *parent, struct ynode *child)
{
	parent->items = xrealloc(parent->items, (parent->n + 1) * sizeof(*parent->items));
	parent->items[parent->n++] = child;
}

struct ynode *ydoc_parse(const char *text, size_t len, const char *name, struct kerr *e)
{
	yaml_parser_t y;
	yaml_parser_initialize(&y);
	yaml_parser_set_input_string(&y, (const unsigned char *)text, len);
	struct ynode *stack[64], *root = NULL;
	int depth = 0;
	bool done = false;
	while (!done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&y, &ev)) {
			kerr_set(e, "%s:%zu:%zu: %s", name, y.problem_mark.line + 1,
				 y.problem_mark.column + 1, y.problem ? y.problem : "YAML syntax error");
			goto fail;
		}
		struct ynode *n = NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_SCALAR_EVENT:
			n = node_new(Y_SCALAR, &ev.start_mark);
			n->str = xstrndup((const char *)ev.data.scalar.value, ev.data.scalar.length);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth == (int)ARRAY_SIZE(stack)) {
				kerr_set(e, "%s:%zu:%zu: nested too deeply", name, ev.start_mark.line + 1,
					 ev.start_mark.column + 1);
				yaml_event_delete(&ev);
				goto fail;
			}
			n = node_new(ev.type == YAML_SEQUENCE_START_EVENT ? Y_SEQ : Y_MAP, &ev.start_mark);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			n = stack[--depth];
			if (depth) {
				push(stack[depth - 1], n);
			} else if (!root) {
				root = n;
			} else {
				ydoc_free(n);
			}
			n = NULL;
			break;
		case YAML_ALIAS_EVENT:
			kerr_set(e, "%s:%zu:%zu: aliases are not supported", name, ev.start_mark.line + 1,
				 ev.start_mark.column + 1);
			yaml_event_delete(&ev);
			goto fail;
		default:
			break;
		}
		if (n && n->type == Y_SCALAR) {
			if (depth)
				push(stack[depth - 1], n);
			else if (!root)
				root = n;
			else
				ydoc_free(n);
		} else if (n) {
			stack[depth++] = n;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&y);
	if (!root) {
		yaml_mark_t m = { 0, 0, 0 };
		root = node_new(Y_SEQ, &m);
	}
	return root;
fail:
	while (depth > 0)
		ydoc_free(stack[--depth]);
	ydoc_free(root);
	yaml_parser_delete(&y);
	return NULL;
}

struct ynode *ydoc_load(const char *path, struct kerr *e)
{
	size_t len;
	char *text = read_file(path, &len, e);
	if (!text)
		return NULL;
	struct ynode *n = ydoc_parse(text, len, path, e);
	free(text);
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
		rc = kerr_set(e, "%s:%u:%u: expected a list of %s", path, doc->line, doc->col, what);
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
