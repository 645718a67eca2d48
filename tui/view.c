/* The view layer: which views are on screen (one, or two split), their
 * windows, scrolling and the cursor, search, mouse, and the dispatch of keys
 * and actions. Views themselves only load and draw lines. */
#include "tui/view.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/loop.h"
#include "tui/prompt.h"
#include "tui/term.h"

static struct view *display[2]; /* top, bottom (split) */
static int focus;		/* index into display */
static bool layout_dirty = true;
static WINDOW *status_win;

struct view_key {
	int action;
	struct view *view;
};
static struct view_key view_keys[8];
static size_t nview_keys;

struct handler {
	int action;
	action_fn fn;
	void *data;
};
static struct handler handlers[32];
static size_t nhandlers;

static regex_t search_re;
static bool have_search;
static char *search_text;

void view_bind_key(int action, struct view *v)
{
	for (size_t i = 0; i < nview_keys; i++)
		if (view_keys[i].action == action) {
			view_keys[i].view = v;
			return;
		}
	if (nview_keys < ARRAY_SIZE(view_keys))
		view_keys[nview_keys++] = (struct view_key){action, v};
}

void action_set_handler(int action, action_fn fn, void *data)
{
	for (size_t i = 0; i < nhandlers; i++)
		if (handlers[i].action == action) {
			handlers[i].fn = fn;
			handlers[i].data = data;
			return;
		}
	if (nhandlers < ARRAY_SIZE(handlers))
		handlers[nhandlers++] = (struct handler){action, fn, data};
}

struct view *view_focused(void)
{
	return display[focus];
}

bool view_displayed(const struct view *v)
{
	return v && (display[0] == v || display[1] == v);
}

int view_page(const struct view *v)
{
	int n = v->height - v->nheader;
	return n > 1 ? n : 1;
}

static bool is_ancestor(const struct view *anc, const struct view *v)
{
	for (int depth = 0; v && depth < 16; v = v->parent, depth++)
		if (v == anc)
			return true;
	return false;
}

/* A view opened to split below another but shown alone, the terminal being
 * too short: split again once it is tall enough (ui_resize). */
static struct view *squeezed;

void view_open(struct view *v, enum open_how how)
{
	struct view *prev = display[focus];
	if (prev != v && !is_ancestor(v, prev))
		v->parent = prev;
	v->need_open = true;
	int avail = LINES - 1;
	squeezed = how == OPEN_SPLIT && prev && prev != v && avail < 12 ? v : NULL;
	if (how == OPEN_SPLIT && prev && prev != v && avail >= 12) {
		display[0] = prev;
		display[1] = v;
		focus = 1;
	} else if (view_displayed(v) && display[1]) {
		focus = display[0] == v ? 0 : 1;
	} else {
		display[0] = v;
		display[1] = NULL;
		focus = 0;
	}
	layout_dirty = true;
}

void view_reload(struct view *v)
{
	v->need_open = true;
}

static bool (*quit_guard)(void);

void ui_set_quit_guard(bool (*guard)(void))
{
	quit_guard = guard;
}

static void quit_klang(void)
{
	if (!quit_guard || !quit_guard())
		loop_quit();
}

static void view_close_focused(void)
{
	struct view *v = display[focus];
	if (display[1]) {
		/* in a split, quit dismisses the lower (child) view */
		display[1] = NULL;
		focus = 0;
		layout_dirty = true;
	} else if (v->parent) {
		display[0] = v->parent;
		layout_dirty = true;
	} else {
		quit_klang();
	}
}

void view_fix_position(struct view *v)
{
	size_t page = (size_t)view_page(v);
	if (v->lines == 0) {
		v->lineno = v->offset = 0;
		return;
	}
	if (!(v->ops->flags & VIEW_CURSOR)) {
		size_t max = v->lines > page ? v->lines - page : 0;
		if (v->offset > max)
			v->offset = max;
		v->lineno = v->offset;
		return;
	}
	if (v->lineno >= v->lines)
		v->lineno = v->lines - 1;
	if (v->offset > v->lineno)
		v->offset = v->lineno;
	if (v->lineno >= v->offset + page)
		v->offset = v->lineno - page + 1;
	/* no empty rows below the last line when there is more above */
	if (v->offset + page > v->lines)
		v->offset = v->lines > page ? v->lines - page : 0;
}

void view_select_line(struct view *v, size_t lineno)
{
	size_t old = v->lineno;
	if (!(v->ops->flags & VIEW_CURSOR))
		v->offset = lineno;
	v->lineno = lineno;
	view_fix_position(v);
	if (v->lineno != old && v->ops->select)
		v->ops->select(v);
}

/* Move by `delta` lines; pages move the cursor and the view together. */
static void view_move(struct view *v, int action)
{
	long page = view_page(v), delta = 0;
	long last = v->lines ? (long)v->lines - 1 : 0;
	long cur = (long)v->lineno;
	switch (action) {
	case ACT_MOVE_UP:
		delta = -1;
		break;
	case ACT_MOVE_DOWN:
		delta = 1;
		break;
	case ACT_MOVE_PAGE_UP:
		delta = -page;
		break;
	case ACT_MOVE_PAGE_DOWN:
		delta = page;
		break;
	case ACT_MOVE_HALF_UP:
		delta = -(page + 1) / 2;
		break;
	case ACT_MOVE_HALF_DOWN:
		delta = (page + 1) / 2;
		break;
	case ACT_MOVE_FIRST:
		delta = -cur;
		break;
	case ACT_MOVE_LAST:
		delta = last - cur;
		break;
	}
	if (!(v->ops->flags & VIEW_CURSOR)) {
		long off = (long)v->offset + delta;
		view_select_line(v, (size_t)(off < 0 ? 0 : off));
		return;
	}
	if (delta == page || delta == -page) {
		long off = (long)v->offset + delta;
		v->offset = (size_t)(off < 0 ? 0 : off);
	}
	long to = cur + delta;
	view_select_line(v, (size_t)(to < 0 ? 0 : to > last ? last : to));
}

/* Scroll the lines without moving the cursor unless it leaves the page
 * (mouse wheel). */
static void view_scroll(struct view *v, long delta)
{
	if (!(v->ops->flags & VIEW_CURSOR)) {
		long off = (long)v->offset + delta;
		view_select_line(v, (size_t)(off < 0 ? 0 : off));
		return;
	}
	long page = view_page(v), off = (long)v->offset + delta;
	long max = (long)v->lines > page ? (long)v->lines - page : 0;
	v->offset = (size_t)(off < 0 ? 0 : off > max ? max : off);
	size_t lineno = v->lineno;
	if (lineno < v->offset)
		lineno = v->offset;
	if (lineno >= v->offset + (size_t)page)
		lineno = v->offset + (size_t)page - 1;
	view_select_line(v, lineno);
}

const regex_t *view_search_regex(void)
{
	return have_search ? &search_re : NULL;
}

/* "/TEXT: match 2 of 5, line 7 of 23": where the cursor's match is (the
 * matches counted where that stays quick: a pass over 100,000 warnings
 * takes a tenth of a second) */
#define SEARCH_COUNT_MAX 20000
static void report_match(struct view *v, size_t line, bool wrapped)
{
	size_t nth = 0, total = 0;
	for (size_t i = 0; v->lines <= SEARCH_COUNT_MAX && i < v->lines; i++)
		if (v->ops->grep(v, i, &search_re)) {
			total++;
			nth += i <= line;
		}
	struct strbuf sb = STRBUF_INIT;
	if (total)
		sb_addf(&sb, "match %zu of %zu, ", nth, total);
	report("/%s: %sline %zu of %zu%s", search_text, sb_str(&sb), line + 1, v->lines,
	       wrapped ? " (wrapped)" : "");
	sb_free(&sb);
}

static void find(struct view *v, int dir)
{
	if (!have_search) {
		report_error("no search yet: / to search");
		return;
	}
	if (!v->ops->grep) {
		report_error("the %s view cannot be searched", v->ops->name);
		return;
	}
	for (size_t i = 1; i <= v->lines; i++) {
		size_t n = (v->lineno + v->lines + (size_t)dir * i) % v->lines;
		if (v->ops->grep(v, n, &search_re)) {
			bool wrapped = (dir > 0) == (n <= v->lineno);
			view_select_line(v, n);
			report_match(v, n, wrapped);
			return;
		}
	}
	report_error("no match for '%s'", search_text);
}

static void search_done(const char *text, void *data)
{
	struct view *v = data;
	if (!text || !*text)
		return;
	regex_t re;
	/* smart case: lower-case text searches without case */
	int flags = REG_EXTENDED;
	bool upper = false;
	for (const char *s = text; *s; s++)
		upper |= isupper((unsigned char)*s);
	if (!upper)
		flags |= REG_ICASE;
	int rc = regcomp(&re, text, flags);
	if (rc) {
		char buf[128];
		regerror(rc, &re, buf, sizeof(buf));
		report_error("bad search '%s': %s", text, buf);
		return;
	}
	if (have_search)
		regfree(&search_re);
	search_re = re;
	have_search = true;
	free(search_text);
	search_text = xstrdup(text);
	/* a match on the current line counts when starting a search */
	if (v->lines && v->ops->grep && v->ops->grep(v, v->lineno, &search_re) &&
	    (v->ops->flags & VIEW_CURSOR)) {
		report_match(v, v->lineno, false);
		return;
	}
	find(v, 1);
}

static bool open_view_key(int action)
{
	for (size_t i = 0; i < nview_keys; i++)
		if (view_keys[i].action == action) {
			if (!view_keys[i].view)
				break;
			if (view_displayed(view_keys[i].view) && display[1])
				focus = display[0] == view_keys[i].view ? 0 : 1;
			else
				view_open(view_keys[i].view, OPEN_FULL);
			return true;
		}
	return false;
}

static void open_pending(struct view *v);

void ui_action(int action)
{
	struct view *v = display[focus];
	if (!v)
		return;
	open_pending(v);
	if (v->ops->request && v->ops->request(v, action))
		return;
	switch (action) {
	case ACT_QUIT:
		view_close_focused();
		return;
	case ACT_QUIT_ALL:
		quit_klang();
		return;
	case ACT_MOVE_UP:
	case ACT_MOVE_DOWN:
	case ACT_MOVE_PAGE_UP:
	case ACT_MOVE_PAGE_DOWN:
	case ACT_MOVE_HALF_UP:
	case ACT_MOVE_HALF_DOWN:
	case ACT_MOVE_FIRST:
	case ACT_MOVE_LAST:
		view_move(v, action);
		return;
	case ACT_SCROLL_LEFT:
		v->col = v->col > 8 ? v->col - 8 : 0;
		return;
	case ACT_SCROLL_RIGHT:
		v->col += 8;
		return;
	case ACT_VIEW_NEXT:
		if (display[1])
			focus = !focus;
		return;
	case ACT_MAXIMIZE:
		squeezed = NULL;
		display[0] = v;
		display[1] = NULL;
		focus = 0;
		layout_dirty = true;
		return;
	case ACT_SEARCH:
		prompt_open("/", search_done, v);
		return;
	case ACT_FIND_NEXT:
	case ACT_FIND_PREV:
		find(v, action == ACT_FIND_NEXT ? 1 : -1);
		return;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		layout_dirty = true;
		return;
	}
	if (open_view_key(action))
		return;
	for (size_t i = 0; i < nhandlers; i++)
		if (handlers[i].action == action && handlers[i].fn(v, action, handlers[i].data))
			return;
	const struct action_info *ai = action_info(action);
	if (ai && ai->scope != SCOPE_GENERIC && ai->scope != v->ops->scope)
		report_error("%s: not in the %s view", ai->name, v->ops->name);
	else if (ai)
		report_error("%s: not available yet", ai->name);
}

static ui_key_filter_fn key_filter;
static void (*overlay_fn)(void);

void ui_set_key_filter(ui_key_filter_fn fn)
{
	key_filter = fn;
}

void ui_set_overlay(void (*draw)(void))
{
	overlay_fn = draw;
}

void ui_key(int key, bool fn)
{
	if (key_filter && key_filter(key, fn))
		return;
	/* one name per key whatever the terminal sends */
	if ((!fn && key == '\n') || (fn && key == KEY_ENTER))
		key = '\r', fn = false;
	if (!fn && (key == 127 || key == 8))
		key = KEY_BACKSPACE, fn = true;
	if (prompt_active()) {
		prompt_key(key, fn);
		return;
	}
	report_clear();
	if (fn && key == KEY_RESIZE) {
		ui_resize();
		return;
	}
	if (fn && key == KEY_MOUSE) {
		MEVENT ev;
		if (getmouse(&ev) == OK)
			ui_mouse(&ev);
		return;
	}
	if (!fn && key >= 128)
		return;
	struct view *v = display[focus];
	int action = v ? keys_lookup(v->ops->scope, key) : ACT_NONE;
	/* a pane opened from a view takes that view's keys it has not bound
	 * itself: A, c, E, u, f on the patch below the stack */
	if (action == ACT_NONE && v && v->parent && v->parent->ops->scope != v->ops->scope) {
		struct view *p = v->parent;
		action = keys_lookup(p->ops->scope, key);
		if (action != ACT_NONE && p->ops->request && p->ops->request(p, action))
			return; /* H, T, t: the stack's own */
	}
	if (action == ACT_NONE && !fn && key == 27) {
		/* Esc (unless bound) closes as q does, but never quits klang */
		if (v && (display[1] || v->parent))
			ui_action(ACT_QUIT);
		return;
	}
	if (action == ACT_NONE)
		report_error("%s: no action for this key (? for help)", key_name(key));
	else
		ui_action(action);
}

static long long click_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void ui_mouse(const MEVENT *ev)
{
	static long long last_click;
	static size_t last_line = (size_t)-1;
	for (int i = 0; i < 2; i++) {
		struct view *v = display[i];
		if (!v || !v->win)
			continue;
		bool in_title = wenclose(v->title_win, ev->y, ev->x);
		if (!wenclose(v->win, ev->y, ev->x) && !in_title)
			continue;
		if (ev->bstate & BUTTON4_PRESSED) {
			view_scroll(v, -3);
		} else if (ev->bstate & BUTTON5_PRESSED) {
			view_scroll(v, 3);
		} else if (ev->bstate &
			   (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED)) {
			focus = i;
			int row = ev->y - getbegy(v->win) - v->nheader;
			if (in_title || row < 0 || v->offset + (size_t)row >= v->lines)
				return;
			size_t line = v->offset + (size_t)row;
			long long now = click_ms();
			bool twice = line == last_line && now - last_click < 400;
			last_click = now;
			last_line = line;
			if (v->ops->flags & VIEW_CURSOR)
				view_select_line(v, line);
			if (twice || (ev->bstate & BUTTON1_DOUBLE_CLICKED))
				ui_action(ACT_ENTER);
		}
		return;
	}
}

static void layout(void)
{
	int avail = LINES - 1, n = display[1] ? 2 : 1;
	int heights[2] = {avail, 0};
	if (n == 2) {
		heights[1] = avail * 2 / 3;
		heights[0] = avail - heights[1];
	}
	int y = 0;
	for (int i = 0; i < n; i++) {
		struct view *v = display[i];
		if (v->win)
			delwin(v->win);
		if (v->title_win)
			delwin(v->title_win);
		v->height = heights[i] - 1 > 1 ? heights[i] - 1 : 1;
		v->width = COLS;
		v->win = newwin(v->height, COLS, y, 0);
		v->title_win = newwin(1, COLS, y + v->height, 0);
		y += v->height + 1;
		if (v->ops->layout)
			v->ops->layout(v);
		view_fix_position(v);
	}
	if (status_win)
		delwin(status_win);
	status_win = newwin(1, COLS, LINES - 1, 0);
	keypad(status_win, TRUE);
	nodelay(status_win, TRUE);
	layout_dirty = false;
}

static void draw_title(struct view *v, bool focused)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "[%s] ", v->ops->name);
	if (v->ops->title)
		v->ops->title(v, &sb);
	struct line_draw d;
	enum theme_elem e = focused ? ELEM_TITLE_FOCUS : ELEM_TITLE_BLUR;
	werase(v->title_win);
	draw_begin(&d, v->title_win, 0, v->width, 0);
	char pos[48] = "";
	if (v->lines) {
		size_t page = (size_t)view_page(v), end = v->offset + page;
		unsigned pct = (unsigned)((end > v->lines ? v->lines : end) * 100 / v->lines);
		snprintf(pos, sizeof(pos), "  %u%%", pct);
	}
	int room = v->width - (int)strlen(pos);
	d.width = room > 0 ? room : v->width;
	draw_text(&d, e, sb_str(&sb), -1);
	draw_fill(&d, e);
	d.width = v->width;
	draw_text(&d, e, pos, -1);
	wnoutrefresh(v->title_win);
	sb_free(&sb);
}

/* A view opens (loads) when first drawn, or earlier when a key reaches it
 * before the redraw: keys typed ahead act on what they will see. */
static void open_pending(struct view *v)
{
	if (layout_dirty)
		layout();
	if (v->need_open) {
		v->need_open = false;
		if (v->ops->open)
			v->ops->open(v);
		view_fix_position(v);
	}
}

static void draw_view(struct view *v, bool focused)
{
	open_pending(v);
	wbkgdset(v->win, ' ' | display_attr(ELEM_DEFAULT));
	werase(v->win);
	struct line_draw d;
	for (int row = 0; row < v->nheader && row < v->height; row++) {
		draw_begin(&d, v->win, row, v->width, 0);
		v->ops->draw_header(v, &d, row);
	}
	for (int row = v->nheader; row < v->height; row++) {
		size_t lineno = v->offset + (size_t)(row - v->nheader);
		if (lineno >= v->lines)
			break;
		draw_begin(&d, v->win, row, v->width, v->col);
		d.selected = (v->ops->flags & VIEW_CURSOR) && lineno == v->lineno;
		v->ops->draw(v, &d, lineno);
		if (d.selected)
			draw_fill(&d, ELEM_CURSOR);
	}
	if (!v->lines && v->ops->empty && v->nheader < v->height) {
		struct strbuf sb = STRBUF_INIT;
		v->ops->empty(v, &sb);
		draw_begin(&d, v->win, v->nheader, v->width, 0);
		draw_text(&d, ELEM_NOTE, sb_str(&sb), -1);
		sb_free(&sb);
	}
	wnoutrefresh(v->win);
	draw_title(v, focused);
}

void ui_redraw(void)
{
	if (!display[0])
		return;
	if (layout_dirty)
		layout();
	for (int i = 0; i < 2; i++)
		if (display[i])
			draw_view(display[i], i == focus);
	struct view *v = display[focus];
	struct strbuf idle = STRBUF_INIT;
	if (v->ops->status)
		v->ops->status(v, &idle);
	wbkgdset(status_win, ' ' | display_attr(ELEM_STATUS));
	status_draw(status_win, idle.len ? idle.buf : NULL);
	sb_free(&idle);
	wnoutrefresh(status_win);
	if (overlay_fn)
		overlay_fn();
	doupdate();
}

void ui_read_input(void)
{
	wint_t ch;
	int rc;
	while (status_win && !loop_quitting() && (rc = wget_wch(status_win, &ch)) != ERR)
		ui_key((int)ch, rc == KEY_CODE_YES);
}

void ui_resize(void)
{
	term_resize(0, 0);
	if (squeezed && (display[0] != squeezed || display[1] || !squeezed->parent)) {
		squeezed = NULL; /* the screen moved on since */
	} else if (squeezed && LINES - 1 >= 12) {
		display[0] = squeezed->parent;
		display[1] = squeezed;
		focus = 1;
		squeezed = NULL;
	}
	layout_dirty = true;
	clearok(curscr, TRUE);
}

void ui_resume(void)
{
	layout_dirty = true;
	clearok(curscr, TRUE);
}

void ui_free(void)
{
	for (int i = 0; i < 2; i++)
		if (display[i]) {
			delwin(display[i]->win);
			delwin(display[i]->title_win);
			display[i]->win = display[i]->title_win = NULL;
		}
	if (status_win)
		delwin(status_win);
	status_win = NULL;
	if (have_search)
		regfree(&search_re);
	have_search = false;
	free(search_text);
}
