/* A whole YAML file as a libyaml document, errors naming line and column. */
#include "core/yamldoc.h"

#include <stdlib.h>

int yamldoc_load(yaml_document_t *doc, const char *path, const char *label, struct kerr *e)
{
	size_t len;
	char *text = read_file(path, &len, e);
	if (!text)
		return -1;
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	int rc = 0;
	if (!yaml_parser_load(&parser, doc))
		rc = kerr_set(e, "%s:%zu:%zu: %s%s%s", label ? label : path,
			      parser.problem_mark.line + 1, parser.problem_mark.column + 1,
			      parser.problem ? parser.problem : "bad YAML", parser.context ? " " : "",
			      parser.context ? parser.context : "");
	yaml_parser_delete(&parser);
	free(text);
	return rc;
}
