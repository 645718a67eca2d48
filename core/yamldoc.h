/* Reading a whole YAML file into a libyaml document, with the syntax error
 * (if any) as "FILE:LINE:COL: problem context". */
#ifndef KLANG_CORE_YAMLDOC_H
#define KLANG_CORE_YAMLDOC_H

#include <yaml.h>

#include "core/util.h"

/* Load the first document of `path`; `label` names the file in messages
 * (NULL = path). The caller yaml_document_delete()s it. -1 with a message. */
int yamldoc_load(yaml_document_t *doc, const char *path, const char *label, struct kerr *e);
/* The same on text in memory (compiled-in defaults); `label` names it. */
int yamldoc_load_text(yaml_document_t *doc, const char *text, size_t len, const char *label,
		      struct kerr *e);
/* s as a YAML double-quoted scalar ("\"", "\\", control characters and
 * breaks escaped): valid UTF-8 reads back as it was, a byte that is not
 * UTF-8 as the code point of that number. */
void yamldoc_add_quoted(struct strbuf *sb, const char *s);
/* A scalar node's text, or NULL when n is not a scalar. */
const char *yamldoc_scalar(const yaml_node_t *n);
/* "LABEL:LINE:COL: message" at node n; returns -1. */
int yamldoc_error(struct kerr *e, const char *label, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The parser's error as "LABEL:LINE:COL: problem context"; bad bytes (NUL,
 * invalid UTF-8) are placed by their offset in `text`. Returns -1. */
int yamldoc_parse_error(struct kerr *e, const char *label, const yaml_parser_t *p, const char *text,
			size_t len);

#endif
