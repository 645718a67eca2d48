/* Line-level lexing for the diagnostics parser. Everything here works on
 * (pointer, length) pairs: log lines may hold NUL bytes and are not
 * NUL-terminated. Nothing allocates except the strbuf outputs. */
#include "core/diaglex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool has_prefix(const char *s, size_t n, const char *p)
{
	size_t m = strlen(p);
	return n >= m && !memcmp(s, p, m);
}

static size_t parse_uint(const char *s, size_t n, size_t i, unsigned *out)
{
	unsigned long v = 0;
	while (i < n && is_digit(s[i])) {
		if (v < 100000000ul)
			v = v * 10 + (unsigned)(s[i] - '0');
		i++;
	}
	*out = (unsigned)v;
	return i;
}

/* " warning: " and friends at s; sets *len to what to skip. */
static enum lex_kind kind_at(const char *s, size_t n, size_t *len)
{
#define K(text, kind)                                                                              \
	if (n >= sizeof(text) - 1 && !memcmp(s, text, sizeof(text) - 1)) {                         \
		*len = sizeof(text) - 1;                                                           \
		return kind;                                                                       \
	}
	if (n < 7 || s[0] != ' ')
		return LEX_NONE;
	switch (s[1]) {
	case 'w':
		K(" warning: ", LEX_WARNING);
		if (n == 9 && !memcmp(s, " warning:", 9)) { /* an empty message */
			*len = 9;
			return LEX_WARNING;
		}
		break;
	case 'e':
		K(" error: ", LEX_ERROR);
		break;
	case 'n':
		K(" note: ", LEX_NOTE);
		break;
	case 'f':
		K(" fatal error: ", LEX_ERROR);
		break;
	case 'W':
		K(" Warning: ", LEX_AS_WARNING);
		break;
	case 'E':
		K(" Error: ", LEX_AS_ERROR);
		break;
	case 'F':
		K(" Fatal error: ", LEX_AS_ERROR);
		break;
	}
	return LEX_NONE;
#undef K
}

static bool is_quote(const char *s, size_t n, size_t i, bool open, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	if (s[i] == '\'') {
		*len = 1;
		return true;
	}
	*len = 3;
	return i + 2 < n && u[i] == 0xe2 && u[i + 1] == 0x80 && u[i + 2] == (open ? 0x98 : 0x99);
}

/* "file: In function 'f':", "file: At top level:" */
static bool context_at(const char *s, size_t n, struct lex_diag *d)
{
	if (n < 6 || s[n - 1] != ':' || (!has_prefix(s, n, " In ") && !has_prefix(s, n, " At ")))
		return false;
	d->kind = LEX_CONTEXT;
	if (s[1] == 'A')
		return true;
	size_t a, b, ql;
	for (a = 4; a < n && !is_quote(s, n, a, true, &ql); a++)
		;
	if (a == n)
		return true;
	a += ql;
	for (b = n - 1; b > a; b--) {
		if (s[b - 1] == '\'') {
			b--;
			break;
		}
		if (b >= a + 3 && is_quote(s, n, b - 3, false, &ql)) {
			b -= 3;
			break;
		}
	}
	if (b > a) {
		d->func = s + a;
		d->funclen = b - a;
	}
	return true;
}

bool lex_diag_line(const char *s, size_t n, struct lex_diag *d)
{
	memset(d, 0, sizeof(*d));
	if (!n)
		return false;
	/* The path ends at a colon before the first blank, except in
	 * "<scratch space>" and "{standard input}". */
	size_t lim = n, from = 0;
	if (s[0] == '<' || s[0] == '{') {
		const char *close = memchr(s, s[0] == '<' ? '>' : '}', n);
		if (close)
			from = (size_t)(close - s);
	}
	const char *sp = memchr(s + from, ' ', n - from);
	if (sp)
		lim = (size_t)(sp - s);
	size_t i = from;
	for (;;) {
		const char *c = memchr(s + i, ':', lim - i);
		if (!c)
			return false;
		i = (size_t)(c - s);
		if (i == 0)
			return false;
		size_t j = i + 1, klen = 0;
		if (j < n && is_digit(s[j])) {
			unsigned line, col = 0;
			j = parse_uint(s, n, j, &line);
			if (j < n && s[j] == ':') {
				if (j + 1 < n && is_digit(s[j + 1])) {
					size_t k = parse_uint(s, n, j + 1, &col);
					if (k < n && s[k] == ':')
						j = k;
					else
						col = 0;
				}
				enum lex_kind kind = kind_at(s + j + 1, n - j - 1, &klen);
				if (kind == LEX_NONE) {
					const char *u = "undefined reference to", *t = s + j + 1;
					size_t tn = n - j - 1;
					if (j + 2 + strlen(u) <= n &&
					    !memcmp(s + j + 2, u, strlen(u)))
						kind = LEX_LD_ERROR, klen = 1;
					else if (tn >= 9 && !memcmp(t, "warning: ", 9))
						kind = LEX_KCONFIG_WARNING, klen = 9;
					else if (tn >= 7 && !memcmp(t, "error: ", 7))
						kind = LEX_KCONFIG_ERROR, klen = 7;
					else
						return false;
				}
				d->kind = kind;
				d->path = s;
				d->pathlen = i;
				d->line = line;
				d->col = col;
				d->msg = s + j + 1 + klen;
				d->msglen = n - (j + 1 + klen);
				return true;
			}
		} else if (j == lim) {
			enum lex_kind kind = kind_at(s + j, n - j, &klen);
			if (kind == LEX_NONE && !context_at(s + j, n - j, d))
				return false;
			if (kind != LEX_NONE) {
				d->kind = kind;
				d->msg = s + j + klen;
				d->msglen = n - j - klen;
			}
			d->path = s;
			d->pathlen = i;
			return true;
		}
		i++;
	}
}

void lex_split_flag(struct lex_diag *d)
{
	const char *m = d->msg;
	size_t n = d->msglen;
	if (n < 4 || m[n - 1] != ']')
		return;
	size_t open = n - 1;
	while (open > 0 && m[open] != '[')
		open--;
	if (m[open] != '[' || open == 0 || m[open - 1] != ' ')
		return;
	bool found = false;
	size_t i = open + 1;
	while (i < n - 1) {
		size_t e = i;
		while (e < n - 1 && m[e] != ',')
			e++;
		const char *it = m + i;
		size_t il = e - i;
		if (il == 7 && !memcmp(it, "-Werror", 7)) {
			d->werror = found = true;
		} else if (il > 8 && !memcmp(it, "-Werror=", 8)) {
			/* point at "=flag" and let the caller see it as -Wflag */
			d->werror = found = true;
			d->flag = it + 7;
			d->flaglen = il - 7;
		} else if (il > 2 && it[0] == '-' && it[1] == 'W' && !d->flag) {
			d->flag = it;
			d->flaglen = il;
			found = true;
		}
		i = e + 1;
	}
	if (found)
		d->msglen = open - 1;
}

enum diag_note_kind lex_note_kind(const char *m, size_t n, const char **macro, size_t *macrolen)
{
	static const struct {
		const char *text;
		enum diag_note_kind kind;
	} forms[] = {
	    {"in expansion of macro ", DIAG_NOTE_IN_EXPANSION},
	    {"in definition of macro ", DIAG_NOTE_IN_DEFINITION},
	    {"expanded from macro ", DIAG_NOTE_EXPANDED_FROM},
	    {"expanded from here", DIAG_NOTE_EXPANDED_HERE},
	    {"(skipping ", DIAG_NOTE_EXPANDED_FROM},
	};
	*macro = NULL;
	*macrolen = 0;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t fl = strlen(forms[i].text);
		if (n < fl || memcmp(m, forms[i].text, fl))
			continue;
		if (m[0] != '(' && forms[i].kind != DIAG_NOTE_EXPANDED_HERE) {
			/* the name between ASCII or gcc's UTF-8 quotes */
			const char *a = m + fl;
			size_t al = n - fl;
			if (al >= 2 && *a == '\'')
				*macro = a + 1, *macrolen = al - 2;
			else if (al >= 6 && (unsigned char)*a == 0xe2)
				*macro = a + 3, *macrolen = al - 6;
		}
		return forms[i].kind;
	}
	return DIAG_NOTE_PLAIN;
}

bool lex_is_progress(const char *s, size_t n)
{
	if (n < 5 || s[0] != ' ' || s[1] != ' ' || !is_upper(s[2]))
		return false;
	size_t i = 3;
	while (i < n && (is_upper(s[i]) || is_digit(s[i]) || s[i] == '_' || s[i] == '-'))
		i++;
	if (i + 4 <= n && s[i] == ' ' && s[i + 1] == '[' && s[i + 3] == ']')
		i += 4;
	if (i >= n || s[i] != ' ')
		return false;
	while (i < n && s[i] == ' ')
		i++;
	return i <= 12 && i < n;
}

bool lex_gcc_box(const char *s, size_t n, const char **text, size_t *textlen)
{
	size_t i = 0;
	*text = NULL;
	*textlen = 0;
	while (i < n && s[i] == ' ')
		i++;
	size_t d0 = i;
	while (i < n && is_digit(s[i]))
		i++;
	bool num = i > d0;
	if (!num && i + 3 <= n && !memcmp(s + i, "+++", 3))
		i += 3;
	if (i > d0) { /* "  12 |" or "  +++ |": one space, then the bar */
		if (i + 1 >= n || s[i] != ' ')
			return false;
		i++;
	} else if (i == 0) {
		return false;
	}
	if (i >= n || s[i] != '|' || (i + 1 < n && s[i + 1] != ' ' && s[i + 1] != '+'))
		return false;
	if (num) {
		size_t t = i + 2 <= n ? i + 2 : n;
		*text = s + t;
		*textlen = n - t;
	}
	return true;
}

bool lex_is_caret(const char *s, size_t n)
{
	/* blanks, then marks: looking at both ends is enough and costs nothing */
	return n && (s[0] == ' ' || s[0] == '\t' || s[0] == '^' || s[0] == '~') &&
	       (s[n - 1] == '^' || s[n - 1] == '~');
}

bool lex_is_generated(const char *s, size_t n)
{
	return n > 12 && is_digit(s[0]) && !memcmp(s + n - 11, " generated.", 11) &&
	       (memchr(s, 'w', n) || memchr(s, 'e', n));
}

bool lex_path_line(const char *s, size_t n, const char **path, size_t *pathlen, unsigned *line)
{
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] != ':' || !is_digit(s[i + 1]))
			continue;
		size_t j = parse_uint(s, n, i + 1, line);
		if (j == n || s[j] == ',' || s[j] == ':') {
			*path = s;
			*pathlen = i;
			return true;
		}
	}
	return false;
}

bool lex_needs_clean(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		/* any byte < 0x20 */
		if ((w - 0x2020202020202020ull) & ~w & 0x8080808080808080ull)
			break;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
			return true;
	return false;
}

void lex_clean(const char *s, size_t n, struct strbuf *out)
{
	sb_reset(out);
	size_t start = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\r' && i + 1 < n)
			start = i + 1;
	sb_grow(out, n - start);
	for (size_t i = start; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 0x1b && i + 1 < n) {
			i++;
			if (s[i] == '[') { /* CSI: parameters, intermediates, a final byte */
				while (i + 1 < n && ((unsigned char)s[i + 1] < 0x40 ||
						     (unsigned char)s[i + 1] > 0x7e))
					i++;
				i++;
			} else if (s[i] == ']') { /* OSC (gcc's URLs): up to BEL or ESC \ */
				while (i + 1 < n && s[i + 1] != '\a' && s[i + 1] != 0x1b)
					i++;
				i++;
				if (i < n && s[i] == 0x1b)
					i++;
			}
			continue;
		}
		if (c == 0x1b)
			continue;
		out->buf[out->len++] = (c < 0x20 && c != '\t') ? ' ' : (char)c;
	}
	out->buf[out->len] = '\0';
}

size_t lex_prefix_len(const char *s, size_t n)
{
	size_t i = 0, last;
	do {
		last = i;
		const char *p = s + i;
		size_t m = n - i;
		size_t b = m > 0 && p[0] == '[' ? 1 : 0;
		if (m >= b + 9 && is_digit(p[b]) && is_digit(p[b + 1]) && p[b + 2] == ':' &&
		    is_digit(p[b + 3]) && p[b + 5] == ':' && is_digit(p[b + 7])) {
			size_t k = b + 8;
			if (k < m && (p[k] == '.' || p[k] == ','))
				for (k++; k < m && is_digit(p[k]); k++)
					;
			if (b && k < m && p[k] == ']')
				k++;
			if (k < m && p[k] == ' ')
				i += k + 1;
		} else if (m >= 20 && is_digit(p[0]) && p[4] == '-' && p[7] == '-' &&
			   p[10] == 'T' && p[13] == ':') {
			size_t k = 19;
			while (k < m && p[k] != ' ')
				k++;
			if (k < m)
				i += k + 1;
		} else if (has_prefix(p, m, "BUILDSTDERR: ")) {
			i += 13;
		}
	} while (i != last && i < n);
	return i;
}

static bool text_byte_ok(unsigned char c)
{
	return (c >= 0x20 && c < 0x80) || c == '\t';
}

bool lex_text_clean(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		/* a byte < 0x20 or >= 0x80 in this word: a tab (code is indented
		 * with them) is fine, and the scan goes on */
		if (((w - 0x2020202020202020ull) | w) & 0x8080808080808080ull)
			for (size_t k = 0; k < 8; k++)
				if (!text_byte_ok((unsigned char)s[i + k]))
					return false;
	}
	for (; i < n; i++)
		if (!text_byte_ok((unsigned char)s[i]))
			return false;
	return true;
}

void lex_text(const char *s, size_t n, struct strbuf *out)
{
	const unsigned char *u = (const unsigned char *)s;
	sb_grow(out, 3 * n); /* at most U+FFFD (3 bytes) per input byte */
	char *o = out->buf + out->len;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		for (; j + 8 <= n; j += 8) {
			uint64_t w;
			memcpy(&w, u + j, 8);
			/* any byte < 0x20 or >= 0x80 */
			if (((w - 0x2020202020202020ull) | w) & 0x8080808080808080ull)
				break;
		}
		while (j < n && u[j] >= 0x20 && u[j] < 0x80)
			j++;
		if (j > i) { /* printable ASCII, the common case, in one copy */
			memcpy(o, s + i, j - i);
			o += j - i;
			i = j;
			continue;
		}
		if (u[i] < 0x80) {
			*o++ = u[i] == '\t' ? '\t' : ' ';
			i++;
			continue;
		}
		uint32_t cp;
		size_t l = utf8_decode(u + i, n - i, &cp);
		if (!l) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		} else if (l == 3 && u[i] == 0xe2 && u[i + 1] == 0x80 && u[i + 2] >= 0x98 &&
			   u[i + 2] <= 0x9d) {
			/* ‘ ’ ‚ ‛ “ ” */
			*o++ = u[i + 2] <= 0x9b ? '\'' : '"';
			i += 3;
		} else {
			memcpy(o, s + i, l);
			o += l;
			i += l;
		}
	}
	out->len = (size_t)(o - out->buf);
	out->buf[out->len] = '\0';
}

char *diag_normalize_path(const char *path, const char *root, const char *build)
{
	const char *p = path;
	const char *pre[2] = {build, root};
	size_t best = 0;
	for (int k = 0; k < 2; k++) {
		const char *r = pre[k];
		if (!r || !*r)
			continue;
		size_t rl = strlen(r);
		while (rl > 1 && r[rl - 1] == '/')
			rl--;
		if (rl > best && !strncmp(path, r, rl) && path[rl] == '/') {
			best = rl;
			p = path + rl + 1;
		}
	}
	bool abs = *p == '/';
	struct strbuf out = STRBUF_INIT;
	size_t *stack = NULL, depth = 0, cap = 0;
	if (abs)
		sb_addc(&out, '/');
	size_t base = out.len;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == 0 || (l == 1 && p[0] == '.')) {
			/* skip */
		} else if (l == 2 && p[0] == '.' && p[1] == '.') {
			if (depth) {
				out.len = stack[--depth];
				out.buf[out.len] = '\0';
			} else if (abs) {
				/* /.. is / */
			}
			/* a leading ../ of a relative path is dropped */
		} else {
			ALLOC_GROW(stack, depth + 1, cap);
			stack[depth++] = out.len;
			if (out.len > base)
				sb_addc(&out, '/');
			sb_add(&out, p, l);
		}
		p += l;
		if (*p == '/')
			p++;
	}
	free(stack);
	if (!out.len)
		sb_addc(&out, '.');
	return sb_detach(&out);
}
