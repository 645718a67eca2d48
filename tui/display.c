/* Colour pairs made from the theme, and the line drawing helpers every view
 * uses: UTF-8 text cut to the columns left, tabs expanded, the cursor bar. */
#include "tui/display.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/util.h"

static struct theme theme;
static bool have_theme;
static attr_t elem_attrs[ELEM_COUNT];
static attr_t tag_attrs[TAG_COUNT];
static attr_t other_tag_attr;
static attr_t *extra_attrs;

/* Pair numbers: 1..ELEM_COUNT elements, then tags, other, extra tags. */
#define PAIR_TAGS (ELEM_COUNT + 1)
#define PAIR_OTHER (PAIR_TAGS + TAG_COUNT)
#define PAIR_EXTRA (PAIR_OTHER + 1)

static attr_t curses_attrs(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & THEME_BOLD)
		r |= A_BOLD;
	if (a & THEME_DIM)
		r |= A_DIM;
	if (a & THEME_REVERSE)
		r |= A_REVERSE;
	if (a & THEME_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THEME_ITALIC)
		r |= A_ITALIC;
	if (a & THEME_STANDOUT)
		r |= A_STANDOUT;
	if (a & THEME_BLINK)
		r |= A_BLINK;
	return r;
}

static bool use_colors, default_colors;

static attr_t make_pair(int pair, const struct theme_style *s)
{
	attr_t a = curses_attrs(s->attrs);
	if (!use_colors || pair >= COLOR_PAIRS)
		return a;
	const struct theme_style *def = &theme.elem[ELEM_DEFAULT];
	short fg = s->fg >= 0 ? s->fg : def->fg;
	short bg = s->bg >= 0 ? s->bg : def->bg;
	if (!default_colors) {
		fg = fg >= 0 ? fg : COLOR_WHITE;
		bg = bg >= 0 ? bg : COLOR_BLACK;
	}
	fg = theme_color_fit(fg, COLORS);
	bg = theme_color_fit(bg, COLORS);
	init_pair((short)pair, fg, bg);
	return a | COLOR_PAIR(pair);
}

void display_set_theme(const struct theme *t)
{
	display_free();
	theme = *t;
	theme.name = xstrdup(t->name ? t->name : "");
	theme.description = t->description ? xstrdup(t->description) : NULL;
	theme.extra = xcalloc(t->nextra + 1, sizeof(*t->extra));
	for (size_t i = 0; i < t->nextra; i++) {
		theme.extra[i] = t->extra[i];
		theme.extra[i].name = xstrdup(t->extra[i].name);
	}
	have_theme = true;
	use_colors = has_colors() && theme.colors > 0;
	if (use_colors) {
		default_colors = use_default_colors() == OK;
	}
	for (int i = 0; i < ELEM_COUNT; i++)
		elem_attrs[i] = make_pair(1 + i, &theme.elem[i]);
	for (int i = 0; i < TAG_COUNT; i++)
		tag_attrs[i] = make_pair(PAIR_TAGS + i, &theme.tag[i]);
	other_tag_attr = make_pair(PAIR_OTHER, &theme.other_tag);
	extra_attrs = xcalloc(theme.nextra + 1, sizeof(*extra_attrs));
	for (size_t i = 0; i < theme.nextra; i++)
		extra_attrs[i] = make_pair(PAIR_EXTRA + (int)i, &theme.extra[i].style);
}

const struct theme *display_theme(void)
{
	return have_theme ? &theme : NULL;
}

void display_free(void)
{
	if (have_theme)
		theme_free(&theme);
	have_theme = false;
	free(extra_attrs);
	extra_attrs = NULL;
}

attr_t display_attr(enum theme_elem e)
{
	return elem_attrs[e];
}

attr_t display_tag_attr(const char *name)
{
	int t = tag_from_name(name);
	if (t >= 0)
		return tag_attrs[t];
	for (size_t i = 0; have_theme && i < theme.nextra; i++)
		if (!strcmp(theme.extra[i].name, name))
			return extra_attrs[i];
	return other_tag_attr;
}

int display_pair_elem(short pair)
{
	if (pair >= 1 && pair <= ELEM_COUNT)
		return pair - 1;
	return pair > ELEM_COUNT ? ELEM_COUNT + 1 : ELEM_COUNT;
}

/* One character of UTF-8 text: its length in bytes, the wide char and its
 * width. Invalid bytes and control characters come back as '?'. */
static int next_char(const char *s, int len, wchar_t *wc, int *width)
{
	unsigned char c = (unsigned char)*s;
	if (c < 0x80) { /* ASCII (in every locale klang meets): no mbrtowc */
		*wc = c >= 0x20 && c < 0x7f ? (wchar_t)c : L'?';
		*width = 1;
		return 1;
	}
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	size_t n = mbrtowc(wc, s, (size_t)len, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*wc = L'?';
		*width = 1;
		return 1;
	}
	int w = wcwidth(*wc);
	if (w < 0) {
		*wc = L'?';
		w = 1;
	}
	*width = w;
	return (int)n;
}

int text_width(const char *s, int len)
{
	if (len < 0)
		len = (int)strlen(s);
	int cols = 0;
	while (len > 0) {
		wchar_t wc;
		int w, n = s[0] == '\t' ? 1 : next_char(s, len, &wc, &w);
		cols += s[0] == '\t' ? 8 - cols % 8 : w;
		s += n;
		len -= n;
	}
	return cols;
}

int text_fit(const char *s, int len, int cols)
{
	if (len < 0)
		len = (int)strlen(s);
	int used = 0, bytes = 0;
	while (bytes < len) {
		wchar_t wc;
		int w, n = next_char(s + bytes, len - bytes, &wc, &w);
		if (used + w > cols)
			break;
		used += w;
		bytes += n;
	}
	return bytes;
}

void draw_begin(struct line_draw *d, WINDOW *win, int row, int width, int skip)
{
	*d = (struct line_draw){.win = win, .row = row, .width = width, .skip = skip};
	wmove(win, row, 0);
}

static void put_cell(struct line_draw *d, attr_t a, wchar_t wc, int w)
{
	if (d->skip > 0) {
		d->skip -= w;
		d->vcol += w;
		/* a wide character cut by the left edge: show its visible half blank */
		for (; d->skip < 0 && d->col < d->width; d->skip++)
			put_cell(d, a, L' ', 1);
		return;
	}
	if (d->col + w > d->width) {
		d->col = d->width;
		return;
	}
	wattrset(d->win, a);
	if (w > 0)
		d->last = d->col, d->last_w = w;
	if (w == 0) {
		wchar_t pair[2] = {wc, 0};
		cchar_t cc;
		setcchar(&cc, pair, a, PAIR_NUMBER(a), NULL);
		wadd_wch(d->win, &cc);
	} else {
		waddnwstr(d->win, &wc, 1);
	}
	d->col += w;
	d->vcol += w;
}

/* Text went on past the right edge: its last cell becomes the mark (over
 * the whole of a wide character), unless all that is left is blank. */
static void mark_cut(struct line_draw *d, attr_t a, const char *rest, int len)
{
	while (len > 0 && (*rest == ' ' || *rest == '\t'))
		rest++, len--;
	int at = d->last_w == 2 && d->last == d->width - 2 ? d->width - 2 : d->width - 1;
	if (len <= 0 || at < 0 || d->col < d->width)
		return;
	wchar_t mark[3] = {wcwidth(0x2026) == 1 ? (wchar_t)0x2026 : L'~', L' ', 0};
	wattrset(d->win, a);
	mvwaddnwstr(d->win, d->row, at, mark, d->width - at);
}

int draw_attr_text(struct line_draw *d, attr_t a, const char *s, int len)
{
	if (len < 0)
		len = (int)strlen(s);
	int start = d->col;
	while (len > 0 && d->col < d->width) {
		wchar_t wc;
		int w, n;
		if (*s == '\t') {
			n = 1;
			for (int sp = 8 - d->vcol % 8; sp > 0 && d->col < d->width; sp--)
				put_cell(d, a, L' ', 1);
		} else {
			n = next_char(s, len, &wc, &w);
			if (wc < 32 || wc == 127)
				wc = L'?';
			if (d->skip <= 0 && d->col + w > d->width) {
				d->col = d->width;
				break;
			}
			if (w > 0 || d->col > 0)
				put_cell(d, a, wc, w);
		}
		s += n;
		len -= n;
	}
	mark_cut(d, a, s, len);
	return d->col - start;
}

static attr_t line_attr(struct line_draw *d, enum theme_elem e)
{
	if (e == ELEM_SEARCH)
		return display_attr(e);
	if (d->selected)
		return display_attr(ELEM_CURSOR);
	if (d->dim)
		return display_attr(ELEM_DROPPED);
	return display_attr(e);
}

int draw_text(struct line_draw *d, enum theme_elem e, const char *s, int len)
{
	return draw_attr_text(d, line_attr(d, e), s, len);
}

int draw_textf(struct line_draw *d, enum theme_elem e, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	int n = draw_text(d, e, sb_str(&sb), -1);
	sb_free(&sb);
	return n;
}

int draw_tag(struct line_draw *d, const char *name)
{
	attr_t a = display_tag_attr(name);
	if (d->dim) /* as the theme dims dropped lines (projector: not at all) */
		a |= display_attr(ELEM_DROPPED) & A_DIM;
	int n = draw_attr_text(d, a, " ", 1);
	n += draw_attr_text(d, a, name, -1);
	return n + draw_attr_text(d, a, " ", 1);
}

void draw_pad_to(struct line_draw *d, enum theme_elem e, int col)
{
	attr_t a = line_attr(d, e);
	while (d->col < col && d->col < d->width)
		put_cell(d, a, L' ', 1);
}

void draw_fill(struct line_draw *d, enum theme_elem e)
{
	attr_t a = line_attr(d, e);
	if (d->skip > 0)
		d->skip = 0;
	while (d->col < d->width)
		put_cell(d, a, L' ', 1);
}

int draw_matches(struct line_draw *d, enum theme_elem e, const char *s, const regex_t *re)
{
	regmatch_t m;
	int eflags = 0, start = d->col;
	while (re && *s && regexec(re, s, 1, &m, eflags) == 0 && m.rm_eo > m.rm_so) {
		draw_text(d, e, s, (int)m.rm_so);
		draw_text(d, ELEM_SEARCH, s + m.rm_so, (int)(m.rm_eo - m.rm_so));
		s += m.rm_eo;
		eflags = REG_NOTBOL;
	}
	draw_text(d, e, s, -1);
	return d->col - start;
}

int text_wrap(const char *s, int cols, const char **row, int *len, int max)
{
	int n = 0;
	while (*s && n < max) {
		int rest = (int)strlen(s), fit = text_fit(s, rest, cols);
		if (fit < rest) {
			int cut = fit;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			fit = cut > 0 ? cut : fit > 0 ? fit : 1;
		}
		row[n] = s;
		len[n++] = fit;
		s += fit;
		s += strspn(s, " ");
	}
	return n;
}
