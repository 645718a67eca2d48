/* Tracker URLs for warning flags and the links a patch carries. */
#include "core/links.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *url_encode(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (isalnum(c) || strchr("-._~", c))
			sb_addc(&sb, (char)c);
		else
			sb_addf(&sb, "%%%02X", c);
	}
	return sb_detach(&sb);
}

char *links_flag_label(const char *flag)
{
	const char *s = flag;
	while (*s == ' ' || *s == '[')
		s++;
	size_t n = strcspn(s, "], \t");
	char *f = xstrndup(s, n);
	const char *w = NULL;
	if (!strncmp(f, "-W", 2))
		w = f + 2;
	else if (f[0] == 'W' && islower((unsigned char)f[1]))
		w = f + 1;
	if (!w) {
		char *out = xstrdup(f); /* objtool, modpost, ld, kernel-doc */
		free(f);
		return out;
	}
	if (str_startswith(w, "error="))
		w += 6;
	else if (str_startswith(w, "no-"))
		w += 3;
	char *out = xasprintf("-W%s", w);
	free(f);
	return out;
}

char *links_cbl_issue_url(const char *flag)
{
	char *label = links_flag_label(flag);
	char *q = str_startswith(label, "-W") ? xasprintf("label:\"%s\"", label)
					      : xasprintf("\"%s\"", label);
	char *enc = url_encode(q);
	char *url = xasprintf(CBL_ISSUES "?q=%s", enc);
	free(enc);
	free(q);
	free(label);
	return url;
}

size_t links_patch(const struct patch *p, struct patch_link **out)
{
	static const char *const keys[] = {"Link", "Closes", "BugLink"};
	size_t n = 0;
	*out = xcalloc(p->ntrailers + 1, sizeof(**out));
	for (size_t i = 0; i < p->ntrailers; i++) {
		const struct trailer *t = &p->trailers[i];
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcasecmp(t->key, keys[k]) && (str_startswith(t->value, "https://") ||
							     str_startswith(t->value, "http://")))
				(*out)[n++] = (struct patch_link){keys[k], t->value};
	}
	return n;
}
