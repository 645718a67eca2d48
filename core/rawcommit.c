/* Commit objects parsed in place, in the plain form git writes: "tree",
 * "parent" lines, "author", "committer", other headers (continuation lines
 * start with a space), a blank line, the message. Names and emails are
 * trimmed and time zones read as libgit2's signature parser does; anything
 * it would read differently or reject is left to it (-1). */
#include "core/rawcommit.h"

#include <stdlib.h>
#include <string.h>

#include "core/objread.h"
#include "core/util.h"

static bool git_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || (c >= '\v' && c <= '\r');
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* 40 lowercase hex digits (as git writes them; libgit2 reads the others) */
static bool hex_oid(const char *s, git_oid *id)
{
	for (size_t i = 0; i < GIT_OID_RAWSZ; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		id->id[i] = (unsigned char)(hi << 4 | lo);
	}
	return true;
}

/* "PREFIX <40 hex>\n" at *s: the id, *s moved past the line. */
static bool oid_line(const char **s, const char *end, const char *prefix, size_t plen, git_oid *id)
{
	const char *p = *s;
	if ((size_t)(end - p) < plen + GIT_OID_HEXSZ + 1 || memcmp(p, prefix, plen) ||
	    p[plen + GIT_OID_HEXSZ] != '\n' || !hex_oid(p + plen, id))
		return false;
	*s = p + plen + GIT_OID_HEXSZ + 1;
	return true;
}

static bool digits(const char *s, const char *end, size_t min, size_t max, int64_t *v)
{
	size_t n = (size_t)(end - s);
	if (n < min || n > max)
		return false;
	*v = 0;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return false;
		*v = *v * 10 + (*s - '0');
	}
	return true;
}

/* "PREFIX Name <email> 1600000000 +0100\n": the name and email trimmed as
 * libgit2 trims them. Only that form (one '<', a time, a four-digit zone)
 * is read here. */
static bool signature(const char **s, const char *end, const char *prefix, size_t plen,
		      const char **name, size_t *name_len, const char **email, size_t *email_len,
		      int64_t *when, int *offset)
{
	const char *p = *s, *eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol || (size_t)(eol - p) <= plen || memcmp(p, prefix, plen))
		return false;
	p += plen;
	const char *lt = memrchr(p, '<', (size_t)(eol - p));
	const char *gt = memrchr(p, '>', (size_t)(eol - p));
	/* a name with angle brackets of its own is libgit2's to read */
	if (!lt || !gt || gt <= lt || memchr(p, '>', (size_t)(lt - p)) ||
	    memchr(p, '<', (size_t)(lt - p)))
		return false;
	const char *a = p, *b = lt;
	while (a < b && git_space(*a))
		a++;
	while (b > a && git_space(b[-1]))
		b--;
	*name = a;
	*name_len = (size_t)(b - a);
	a = lt + 1;
	b = gt;
	while (a < b && git_space(*a))
		a++;
	while (b > a && git_space(b[-1]))
		b--;
	*email = a;
	*email_len = (size_t)(b - a);
	/* "> TIME +HHMM" */
	const char *t = gt + 1, *sp;
	if (t >= eol || *t++ != ' ' || !(sp = memchr(t, ' ', (size_t)(eol - t))) ||
	    !digits(t, sp, 1, 18, when))
		return false;
	int64_t zone;
	if (eol - sp != 6 || (sp[1] != '+' && sp[1] != '-') || !digits(sp + 2, eol, 4, 4, &zone))
		return false;
	int hours = (int)(zone / 100), mins = (int)(zone % 100);
	*offset = hours <= 14 && mins <= 59 ? (hours * 60 + mins) * (sp[1] == '-' ? -1 : 1) : 0;
	*s = eol + 1;
	return true;
}

int rawcommit_parse(struct rawcommit *c, const char *data, size_t len)
{
	const char *s = data, *end = data + len, *name, *email;
	size_t nlen, elen, cap = RAWCOMMIT_INLINE_PARENTS;
	int off;
	c->parents = c->parents_inline;
	c->nparents = 0;
	c->data = NULL; /* set by rawcommit_read */
	c->encoding = NULL;
	c->encoding_len = 0;
	if (strlen(data) != len || !oid_line(&s, end, "tree ", 5, &c->tree))
		return -1;
	git_oid id;
	while (oid_line(&s, end, "parent ", 7, &id)) {
		if (c->nparents == cap) {
			git_oid *more = xmalloc(2 * cap * sizeof(*more));
			memcpy(more, c->parents, cap * sizeof(*more));
			if (c->parents != c->parents_inline)
				free(c->parents);
			c->parents = more;
			cap *= 2;
		}
		c->parents[c->nparents++] = id;
	}
	if (!signature(&s, end, "author ", 7, &c->name, &c->name_len, &c->email, &c->email_len,
		       &c->author_time, &c->author_offset))
		goto fail;
	while ((size_t)(end - s) > 7 && !memcmp(s, "author ", 7)) { /* extra ones are skipped */
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			goto fail;
		s = eol + 1;
	}
	if (!signature(&s, end, "committer ", 10, &name, &nlen, &email, &elen, &c->commit_time,
		       &off))
		goto fail;
	while (s < end && *s != '\n') {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			goto fail; /* no blank line before the message */
		if ((size_t)(eol - s) >= 9 && !memcmp(s, "encoding ", 9)) {
			c->encoding = s + 9;
			c->encoding_len = (size_t)(eol - s - 9);
		}
		s = eol + 1;
	}
	if (s >= end)
		goto fail;
	while (*s == '\n')
		s++;
	c->message = s;
	return 0;
fail:
	if (c->parents != c->parents_inline)
		free(c->parents);
	c->parents = c->parents_inline;
	return -1;
}

int rawcommit_read(struct objread *o, const git_oid *id, struct rawcommit *c)
{
	git_object_t type;
	const char *data;
	size_t len;
	memset(c, 0, sizeof(*c));
	c->parents = c->parents_inline;
	if (objread_read_once(o, id, &type, &data, &len) < 0)
		return -1;
	if (type != GIT_OBJECT_COMMIT || rawcommit_parse(c, data, len) < 0) {
		objread_release(o, data);
		return -1;
	}
	c->id = *id;
	c->data = data;
	return 0;
}

void rawcommit_release(struct objread *o, struct rawcommit *c)
{
	if (c->parents != c->parents_inline)
		free(c->parents);
	c->parents = c->parents_inline;
	c->nparents = 0;
	objread_release(o, c->data);
	c->data = NULL;
}
