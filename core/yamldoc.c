/* A whole YAML file as a libyaml document, errors naming line and column. */
#include "core/yamldoc.h"

#include <stdio.h>
#include <stdlib.h>

int yamldoc_load(yaml_document_t *doc, const char *path, const char *label, struct kerr *e)
{
	size_t len;
	char *text = read_file(path, &len, e);
	if (!text)
		return -1;
	int rc = yamldoc_load_text(doc, text, len, label ? label : path, e);
	free(text);
	return rc;
}

int yamldoc_load_text(yaml_document_t *doc, const char *text, size_t len, const char *label,
		      struct kerr *e)
{
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	int rc = 0;
	if (!yaml_parser_load(&parser, doc))
		rc = kerr_set(e, "%s:%zu:%zu: %s%s%s", label,
			      parser.problem_mark.line + 1, parser.problem_mark.column + 1,
			      parser.problem ? parser.problem : "bad YAML", parser.context ? " " : "",
			      parser.context ? parser.context : "");
	yaml_parser_delete(&parser);
	return rc;
}

const char *yamldoc_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

int yamldoc_error(struct kerr *e, const char *label, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return kerr_set(e, "%s:%zu:%zu: %s", label, n->start_mark.line + 1,
			n->start_mark.column + 1, msg);
}
