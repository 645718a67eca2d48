/* A whole YAML file as a libyaml document, errors naming line and column. */
#include "core/yamldoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

int yamldoc_parse_error(struct kerr *e, const char *label, const yaml_parser_t *p, const char *text,
			size_t len)
{
	size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
	char value[16] = "";
	if (p->error == YAML_READER_ERROR) {
		/* bad bytes: libyaml gives an offset, not a mark (which stays 1:1) */
		line = col = 1;
		for (size_t i = 0; i < p->problem_offset && i < len; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
				col++;
			}
		}
		if (p->problem_value != -1)
			snprintf(value, sizeof(value), " (0x%02x)", (unsigned)p->problem_value);
	}
	return kerr_set(e, "%s:%zu:%zu: %s%s%s%s", label, line, col,
			p->problem ? p->problem : "malformed YAML", value, p->context ? " " : "",
			p->context ? p->context : "");
}

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

/* A key given twice in one mapping: libyaml keeps both and every reader
 * would take one of them silently, so no file may have one. */
static int duplicate_key(yaml_document_t *doc, const char *label, struct kerr *e)
{
	int rc = 0;
	for (yaml_node_t *m = doc->nodes.start; m < doc->nodes.top && !rc; m++) {
		if (m->type != YAML_MAPPING_NODE)
			continue;
		struct strmap seen = STRMAP_INIT;
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
		     p < m->data.mapping.pairs.top && !rc; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key);
			const char *key = yamldoc_scalar(k);
			if (key && strmap_put(&seen, key, k))
				rc = yamldoc_error(e, label, k, "duplicate key '%s'", key);
		}
		strmap_free(&seen);
	}
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
		rc = yamldoc_parse_error(e, label, &parser, text, len);
	else if ((rc = duplicate_key(doc, label, e)))
		yaml_document_delete(doc);
	yaml_parser_delete(&parser);
	return rc;
}

/* Escaped, what a YAML reader would not give back as it is: control
 * characters (C0, DEL, C1), line breaks other than \n (NEL, U+2028, U+2029:
 * folded to a space inside quotes), U+FFFE and U+FFFF, and bytes that are
 * not UTF-8 (a commit subject in Latin-1), which read back as the code
 * point of the same number. */
void yamldoc_add_quoted(struct strbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s);
	sb_addc(sb, '"');
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t l = utf8_decode(u + i, n - i, &cp);
		if (u[i] == '"' || u[i] == '\\')
			sb_addf(sb, "\\%c", u[i]);
		else if (!l)
			sb_addf(sb, "\\x%02x", u[i]);
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			sb_addf(sb, "\\x%02x", (unsigned)cp);
		else if (cp == 0x2028 || cp == 0x2029 || cp == 0xfffe || cp == 0xffff)
			sb_addf(sb, "\\u%04x", (unsigned)cp);
		else
			sb_add(sb, s + i, l);
		i += l ? l : 1;
	}
	sb_addc(sb, '"');
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
