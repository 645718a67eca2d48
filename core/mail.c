/* Mail headers, dates, addresses and body encodings, as git mailinfo reads
 * them for git am. */
#include "core/mail.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/util.h"

bool mail_is_header_line(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && line[i] > ' ' && line[i] < 127 && line[i] != ':')
		i++;
	return i > 0 && i < len && line[i] == ':';
}

static size_t line_end(const char *s, size_t len)
{
	const char *nl = memchr(s, '\n', len);
	return nl ? (size_t)(nl - s) : len;
}

size_t mail_read_headers(const char *text, size_t len, struct mail_headers *h, size_t *lines)
{
	size_t off = 0, nlines = 0;
	struct strbuf val = STRBUF_INIT, raw = STRBUF_INIT;
	struct mail_header *cur = NULL;

	memset(h, 0, sizeof(*h));
	while (off < len) {
		size_t n = line_end(text + off, len - off), next = off + n + (off + n < len);
		const char *s = text + off;
		size_t t = n;
		while (t && s[t - 1] == '\r')
			t--;
		bool cont = t && (s[0] == ' ' || s[0] == '\t');
		if (t == 0 || cont || mail_is_header_line(s, t)) {
			if (cur) {
				if (cont) {
					size_t k = 0;
					while (k < t && (s[k] == ' ' || s[k] == '\t'))
						k++;
					sb_addc(&val, ' ');
					sb_add(&val, s + k, t - k);
					sb_addc(&raw, '\n');
					sb_add(&raw, s + 1, t - 1);
					nlines++, off = next;
					continue;
				}
				cur->value = mail_decode_words(sb_str(&val));
				cur->lines = sb_detach(&raw);
				sb_reset(&val);
				cur = NULL;
			}
			if (cont) /* a continuation with nothing to continue */
				break;
			nlines++, off = next;
			if (t == 0)
				break;
			const char *colon = memchr(s, ':', t);
			ALLOC_GROW(h->v, h->n + 1, h->cap);
			cur = &h->v[h->n++];
			*cur = (struct mail_header){xstrndup(s, (size_t)(colon - s)), NULL, NULL,
						    nlines - 1};
			const char *v = colon + 1;
			while (v < s + t && (*v == ' ' || *v == '\t'))
				v++;
			sb_add(&val, v, (size_t)(s + t - v));
			sb_add(&raw, v, (size_t)(s + t - v));
			continue;
		}
		break;
	}
	if (cur) {
		cur->value = mail_decode_words(sb_str(&val));
		cur->lines = sb_detach(&raw);
	}
	sb_free(&val);
	sb_free(&raw);
	*lines = nlines;
	return off;
}

const char *mail_header(const struct mail_headers *h, const char *key)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcasecmp(h->v[i].key, key))
			return h->v[i].value;
	return NULL;
}

void mail_headers_free(struct mail_headers *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i].key);
		free(h->v[i].value);
		free(h->v[i].lines);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* Convert text in `charset` to UTF-8 (appended to out); bytes iconv cannot
 * convert are kept as they are. */
static void add_converted(struct strbuf *out, const char *s, size_t n, const char *charset)
{
	if (!charset || !strcasecmp(charset, "utf-8") || !strcasecmp(charset, "us-ascii") ||
	    !strcasecmp(charset, "utf8")) {
		sb_add(out, s, n);
		return;
	}
	iconv_t cd = iconv_open("UTF-8", charset);
	if (cd == (iconv_t)-1) {
		sb_add(out, s, n);
		return;
	}
	char *in = (char *)s;
	size_t inleft = n;
	while (inleft) {
		char buf[1024], *o = buf;
		size_t oleft = sizeof(buf);
		size_t rc = iconv(cd, &in, &inleft, &o, &oleft);
		sb_add(out, buf, (size_t)(o - buf));
		if (rc == (size_t)-1 && errno != E2BIG) {
			sb_addc(out, *in++); /* an invalid byte: keep it */
			inleft--;
		}
	}
	iconv_close(cd);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void qp_decode(struct strbuf *out, const char *s, size_t n, bool underscore_space)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '=' && i + 1 < n) {
			if (s[i + 1] == '\n') { /* soft line break */
				i++;
				continue;
			}
			if (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n') {
				i += 2;
				continue;
			}
			int hi = i + 2 < n ? hexval(s[i + 1]) : -1,
			    lo = i + 2 < n ? hexval(s[i + 2]) : -1;
			if (hi >= 0 && lo >= 0) {
				sb_addc(out, (char)(hi * 16 + lo));
				i += 2;
				continue;
			}
		}
		sb_addc(out, underscore_space && s[i] == '_' ? ' ' : s[i]);
	}
}

static void b64_decode(struct strbuf *out, const char *s, size_t n)
{
	static const char alphabet[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned acc = 0;
	int bits = 0;
	for (size_t i = 0; i < n && s[i] != '='; i++) {
		const char *k = s[i] ? strchr(alphabet, s[i]) : NULL;
		if (!k)
			continue;
		acc = (acc << 6) | (unsigned)(k - alphabet);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			sb_addc(out, (char)((acc >> bits) & 0xff));
		}
	}
}

/* One encoded word at s ("=?cs?Q?...?="); its length, or 0 if it is not one. */
static size_t decode_word(const char *s, struct strbuf *out)
{
	if (strncmp(s, "=?", 2))
		return 0;
	const char *q1 = strchr(s + 2, '?');
	if (!q1 || !q1[1] || q1[2] != '?')
		return 0;
	char enc = (char)toupper((unsigned char)q1[1]);
	const char *text = q1 + 3, *end = strstr(text, "?=");
	if (!end || (enc != 'Q' && enc != 'B') || memchr(text, ' ', (size_t)(end - text)))
		return 0;
	char *cs = xstrndup(s + 2, (size_t)(q1 - s - 2));
	char *star = strchr(cs, '*'); /* RFC 2231 language: =?UTF-8*en?Q?...?= */
	if (star)
		*star = '\0';
	struct strbuf raw = STRBUF_INIT;
	if (enc == 'Q')
		qp_decode(&raw, text, (size_t)(end - text), true);
	else
		b64_decode(&raw, text, (size_t)(end - text));
	add_converted(out, sb_str(&raw), raw.len, cs);
	sb_free(&raw);
	free(cs);
	return (size_t)(end + 2 - s);
}

char *mail_decode_words(const char *s)
{
	struct strbuf out = STRBUF_INIT;
	while (*s) {
		size_t n = decode_word(s, &out);
		if (n) {
			s += n;
			/* blanks between two encoded words are dropped */
			size_t sp = strspn(s, " \t");
			struct strbuf probe = STRBUF_INIT;
			if (sp && decode_word(s + sp, &probe))
				s += sp;
			sb_free(&probe);
			continue;
		}
		sb_addc(&out, *s++);
	}
	return sb_detach(&out);
}

static const char *const months[] = {"jan", "feb", "mar", "apr", "may", "jun",
				     "jul", "aug", "sep", "oct", "nov", "dec"};

static const struct {
	const char *name;
	int minutes;
} zones[] = {{"UT", 0},	       {"GMT", 0},	 {"UTC", 0},	   {"Z", 0},
	     {"EST", -5 * 60}, {"EDT", -4 * 60}, {"CST", -6 * 60}, {"CDT", -5 * 60},
	     {"MST", -7 * 60}, {"MDT", -6 * 60}, {"PST", -8 * 60}, {"PDT", -7 * 60}};

static bool parse_zone(const char *s, int *tz)
{
	while (*s == ' ')
		s++;
	if ((*s == '+' || *s == '-') && isdigit((unsigned char)s[1])) {
		/* hhmm: four digits at most, a real hour and minute, or none */
		int v = 0;
		for (int k = 1; k <= 4 && isdigit((unsigned char)s[k]); k++)
			v = v * 10 + (s[k] - '0');
		bool ok = v / 100 <= 23 && v % 100 <= 59;
		*tz = ok ? (v / 100 * 60 + v % 100) * (*s == '-' ? -1 : 1) : 0;
		return ok;
	}
	for (size_t i = 0; i < ARRAY_SIZE(zones); i++)
		if (!strncasecmp(s, zones[i].name, strlen(zones[i].name))) {
			*tz = zones[i].minutes;
			return true;
		}
	*tz = 0;
	return *s == '\0';
}

bool mail_parse_date(const char *s, int64_t *time, int *tz_minutes)
{
	struct tm tm = {0};
	int tz = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (isdigit((unsigned char)s[0]) && strlen(s) >= 10 && s[4] == '-' && s[7] == '-') {
		tm.tm_year = atoi(s) - 1900;
		tm.tm_mon = atoi(s + 5) - 1;
		tm.tm_mday = atoi(s + 8);
	} else {
		const char *comma = strchr(s, ',');
		if (comma)
			s = comma + 1;
		char mon[4] = "";
		int day, year, hh, mm, ss = 0, used = 0;
		if (sscanf(s, " %d %3s %d %d:%d%n", &day, mon, &year, &hh, &mm, &used) != 5)
			return false;
		s += used;
		if (*s == ':') {
			int u2 = 0;
			if (sscanf(s, ":%d%n", &ss, &u2) == 1)
				s += u2;
		}
		int m = -1;
		for (size_t i = 0; i < ARRAY_SIZE(months); i++)
			if (!strcasecmp(mon, months[i]))
				m = (int)i;
		if (m < 0)
			return false;
		if (year < 100)
			year += year < 50 ? 2000 : 1900;
		tm = (struct tm){.tm_sec = ss,
				 .tm_min = mm,
				 .tm_hour = hh,
				 .tm_mday = day,
				 .tm_mon = m,
				 .tm_year = year - 1900};
		parse_zone(s, &tz);
	}
	/* out of range (a digit run too long for its field, say): no date, as
	 * the writer could not give the same one back */
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_year < 0 || tm.tm_year > 9999 - 1900 || tm.tm_hour < 0 || tm.tm_hour > 23 ||
	    tm.tm_min < 0 || tm.tm_min > 59 || tm.tm_sec < 0 || tm.tm_sec > 60)
		return false;
	*time = (int64_t)timegm(&tm) - (int64_t)tz * 60;
	*tz_minutes = tz;
	return true;
}

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 1; i + 1 < n; i++) {
			if (s[i] == '\\' && i + 2 < n)
				i++;
			sb_addc(&sb, s[i]);
		}
		return sb_detach(&sb);
	}
	return xstrndup(s, n);
}

void mail_parse_address(const char *s, char **name, char **email)
{
	const char *lt = strrchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	if (lt) { /* "Name <email>", also cut short ("Name <email"): never an email with '<' */
		*email = trim_dup(lt + 1, gt ? (size_t)(gt - lt - 1) : strlen(lt + 1));
		*name = trim_dup(s, (size_t)(lt - s));
	} else {
		const char *paren = strchr(s, '(');
		const char *close = paren ? strrchr(paren, ')') : NULL;
		if (paren && close && !memchr(s, '>', (size_t)(paren - s))) {
			*email = trim_dup(s, (size_t)(paren - s));
			*name = trim_dup(paren + 1, (size_t)(close - paren - 1));
		} else {
			*email = trim_dup(s, strlen(s));
			*name = xstrdup("");
		}
	}
	if (!**name) {
		free(*name);
		*name = xstrdup(*email);
	}
}

char *mail_content_param(const char *content_type, const char *param)
{
	if (!content_type)
		return NULL;
	size_t pn = strlen(param);
	for (const char *s = strchr(content_type, ';'); s; s = strchr(s + 1, ';')) {
		const char *p = s + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncasecmp(p, param, pn) || p[pn] != '=')
			continue;
		p += pn + 1;
		if (*p == '"') {
			const char *end = strchr(p + 1, '"');
			return xstrndup(p + 1, end ? (size_t)(end - p - 1) : strlen(p + 1));
		}
		return xstrndup(p, strcspn(p, "; \t"));
	}
	return NULL;
}

char *mail_decode_body(const char *s, size_t len, const char *cte, const char *charset)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	if (cte && !strncasecmp(cte, "quoted-printable", 16))
		qp_decode(&raw, s, len, false);
	else if (cte && !strncasecmp(cte, "base64", 6))
		b64_decode(&raw, s, len);
	else
		sb_add(&raw, s, len);
	add_converted(&out, sb_str(&raw), raw.len, charset);
	sb_free(&raw);
	/* CRLF -> LF, as git mailsplit does without --keep-cr */
	size_t j = 0;
	for (size_t i = 0; i < out.len; i++)
		if (!(out.buf[i] == '\r' && i + 1 < out.len && out.buf[i + 1] == '\n'))
			out.buf[j++] = out.buf[i];
	if (out.buf)
		out.buf[j] = '\0';
	out.len = j;
	return sb_detach(&out);
}

/* Does the bracket group s[0..n) mark a patch ("PATCH", "RFC")? */
static bool patch_bracket(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((i + 5 <= n && !strncasecmp(s + i, "PATCH", 5)) ||
		    (i + 3 <= n && !strncasecmp(s + i, "RFC", 3)))
			return true;
	return false;
}

const char *mail_subject_strip(const char *s, unsigned *n, unsigned *total)
{
	unsigned a = 0, b = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncasecmp(s, "re:", 3)) {
			s += 3;
			continue;
		}
		if (*s != '[')
			break;
		const char *close = strchr(s, ']');
		if (!close || !patch_bracket(s + 1, (size_t)(close - s - 1)))
			break;
		/* "n/total" somewhere in the bracket */
		for (const char *p = s + 1; p < close; p++) {
			unsigned x, y;
			int used = 0;
			if (isdigit((unsigned char)*p) && (p == s + 1 || p[-1] == ' ') &&
			    sscanf(p, "%u/%u%n", &x, &y, &used) == 2 && p + used <= close) {
				a = x, b = y;
				break;
			}
		}
		s = close + 1;
	}
	if (n)
		*n = a;
	if (total)
		*total = b;
	return s;
}
