/* Views: a table of operations per view (tig's view_ops), the layout (one
 * view, or two split one above the other), scrolling, search, mouse, and the
 * dispatch of actions. A new view is a new file that fills a view_ops and
 * defines a `struct view`; see tui/views.h for the list. */
#ifndef KLANG_TUI_VIEW_H
#define KLANG_TUI_VIEW_H

#include <curses.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"
#include "tui/display.h"
#include "tui/keys.h"

struct view;

enum view_flags {
	VIEW_CURSOR = 1 << 0, /* a selected line moves; without it the view pages like less */
};

struct view_ops {
	const char *name;     /* "stack": the title "[stack]" */
	enum key_scope scope; /* where its keys are looked up (then generic) */
	unsigned flags;
	/* Load or reload the content and set v->lines; called before the view
	 * is next drawn after view_open() or view_reload(). May be NULL. */
	void (*open)(struct view *v);
	/* Draw line `lineno` (< v->lines); d is at the start of its row. */
	void (*draw)(struct view *v, struct line_draw *d, size_t lineno);
	/* Draw fixed row `row` (< v->nheader) above the lines. May be NULL. */
	void (*draw_header)(struct view *v, struct line_draw *d, int row);
	/* The window changed size (v->width, v->height): set v->nheader.
	 * May be NULL. */
	void (*layout)(struct view *v);
	/* Text of the title bar after "[name] ". May be NULL. */
	void (*title)(struct view *v, struct strbuf *sb);
	/* Handle an action; false leaves it to the generic handling. May be NULL. */
	bool (*request)(struct view *v, int action);
	/* The cursor moved to v->lineno (a split child follows). May be NULL. */
	void (*select)(struct view *v);
	/* Does line `lineno` match the search? May be NULL (no search). */
	bool (*grep)(struct view *v, size_t lineno, const regex_t *re);
	/* Status bar text while nothing is reported (e.g. why a patch is
	 * dropped). May be NULL. */
	void (*status)(struct view *v, struct strbuf *sb);
	/* What to say in place of lines when there are none (filters hiding
	 * everything, and how to undo them). May be NULL. */
	void (*empty)(struct view *v, struct strbuf *sb);
};

struct view {
	const struct view_ops *ops;
	void *data;	     /* the view's own state */
	WINDOW *win;	     /* the lines (and header rows) */
	WINDOW *title_win;   /* one row below win */
	int height, width;   /* of win */
	int nheader;	     /* fixed rows at the top of win */
	size_t lines;	     /* number of lines */
	size_t offset;	     /* first line shown */
	size_t lineno;	     /* the selected line (VIEW_CURSOR), else = offset */
	int col;	     /* horizontal scroll in columns */
	struct view *parent; /* where quit goes back to */
	bool need_open;
};

/* How view_open() shows a view. */
enum open_how {
	OPEN_FULL,  /* alone on the screen */
	OPEN_SPLIT, /* below the focused view (alone if the screen is too small) */
};

void view_open(struct view *v, enum open_how how);
/* Load again before the next draw (content changed). */
void view_reload(struct view *v);
bool view_displayed(const struct view *v);
struct view *view_focused(void);
/* Lines shown at once (height without header rows). */
int view_page(const struct view *v);
/* Move the cursor (or the top line of a pager) to lineno, keep it visible,
 * call ops->select when it moved. */
void view_select_line(struct view *v, size_t lineno);
/* Clamp cursor and offset after v->lines changed. */
void view_fix_position(struct view *v);
/* The search in effect (for highlighting matches), or NULL. */
const regex_t *view_search_regex(void);

/* A handler for an action no view handles (builds, series ...): return
 * true when done. */
typedef bool (*action_fn)(struct view *focused, int action, void *data);
void action_set_handler(int action, action_fn fn, void *data);
/* The view a view key (view-stack, view-builds ...) shows. */
void view_bind_key(int action, struct view *v);

/* Asked before a key quits klang (q in the last view, Q): true when it
 * takes over (asks first, then calls loop_quit() itself). NULL: none. */
void ui_set_quit_guard(bool (*guard)(void));

/* Run an action on the focused view: its request(), the generic actions,
 * then a handler from action_set_handler(). */
void ui_action(int action);
/* One key from the terminal or a script: a character (fn false) or a curses
 * KEY_ code (fn true). Goes to the prompt when one is open. */
void ui_key(int key, bool fn);
void ui_mouse(const MEVENT *ev);
/* Keys go to `fn` first (the autoplay tour): true when it took the key.
 * NULL removes it. */
typedef bool (*ui_key_filter_fn)(int key, bool fn);
void ui_set_key_filter(ui_key_filter_fn fn);
/* Drawn over the views on every redraw, before doupdate() (the tour's
 * caption). NULL removes it. */
void ui_set_overlay(void (*draw)(void));

/* The loop's side (struct loop_ui). */
void ui_redraw(void);
void ui_read_input(void);
void ui_resize(void);
void ui_resume(void);
void ui_free(void);

#endif
