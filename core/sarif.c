/* JSON in and out (stub while the parser is brought up). */
#include "core/sarif.h"

void diag_gcc_json_line(struct diag_parser *p, const char *s, size_t n)
{
	(void)p, (void)s, (void)n;
}

int diag_read_json(struct diag_parser *p, const char *text, size_t len, const char *name,
		   struct kerr *e)
{
	(void)p, (void)text, (void)len;
	return kerr_set(e, "%s: JSON input not supported yet", name);
}
