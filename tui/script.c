/* Headless runs driven by a script of keys and commands; the screen is read
 * back from curses' virtual screen (curscr) and saved as text, so screen
 * tests need no terminal. */
#include "tui/script.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/display.h"
#include "tui/keys.h"
#include "tui/term.h"
#include "tui/tour.h"
#include "tui/view.h"

static void trim_row(struct strbuf *sb, size_t row_start)
{
	while (sb->len > row_start && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
}

char *screen_text(void)
{
	struct strbuf sb = STRBUF_INIT;
	for (int y = 0; y < LINES; y++) {
		size_t start = sb.len;
		for (int x = 0; x < COLS; x++) {
			cchar_t cc;
			wchar_t wch[CCHARW_MAX + 1] = {0};
			attr_t a;
			short pair;
			if (mvwin_wch(curscr, y, x, &cc) == ERR ||
			    getcchar(&cc, wch, &a, &pair, NULL) == ERR || !wch[0]) {
				sb_addc(&sb, ' ');
				continue;
			}
			char mb[MB_LEN_MAX * (CCHARW_MAX + 1)];
			size_t n = 0;
			mbstate_t st;
			memset(&st, 0, sizeof(st));
			for (int i = 0; wch[i] && i < CCHARW_MAX; i++) {
				size_t k = wcrtomb(mb + n, wch[i], &st);
				if (k != (size_t)-1)
					n += k;
			}
			sb_add(&sb, mb, n);
			int w = wcwidth(wch[0]);
			x += w > 1 ? w - 1 : 0; /* the next cell continues this one */
		}
		trim_row(&sb, start);
		sb_addc(&sb, '\n');
	}
	return sb_detach(&sb);
}

static const char *cell_class(int y, int x, char *buf, size_t cap)
{
	cchar_t cc;
	wchar_t wch[CCHARW_MAX + 1];
	attr_t a = 0;
	short pair = 0;
	if (mvwin_wch(curscr, y, x, &cc) == ERR || getcchar(&cc, wch, &a, &pair, NULL) == ERR)
		return "";
	int e = display_pair_elem(pair);
	const char *name = e < ELEM_COUNT ? theme_elem_names[e] : e == ELEM_COUNT ? "" : "tag";
	if (!strcmp(name, "default"))
		name = "";
	snprintf(buf, cap, "%s%s%s", name, a & A_DIM ? "+dim" : "",
		 a & A_REVERSE ? "+reverse" : "");
	return buf;
}

char *screen_attrs(void)
{
	struct strbuf sb = STRBUF_INIT;
	for (int y = 0; y < LINES; y++) {
		sb_addf(&sb, "%d:", y);
		char run[64] = "", cur[64];
		int start = 0;
		for (int x = 0; x <= COLS; x++) {
			const char *c = x < COLS ? cell_class(y, x, cur, sizeof(cur)) : "\n";
			if (!strcmp(c, run))
				continue;
			if (*run)
				sb_addf(&sb, " %s@%d-%d", run, start, x - 1);
			snprintf(run, sizeof(run), "%s", c);
			start = x;
		}
		sb_addc(&sb, '\n');
	}
	return sb_detach(&sb);
}

static int save(const char *path, char *text, struct kerr *e)
{
	int rc = write_file_atomic(path, text, strlen(text), e);
	free(text);
	return rc;
}

/* Keys one by one with a redraw before each, as typed; a burst (typed
 * ahead, pasted, or sent by tmux send-keys) has no redraw between keys. */
static void feed_keys(const char *s, const struct loop_ui *ui, bool burst)
{
	size_t len = strlen(s);
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	while (*s && !loop_quitting()) {
		int key, n;
		if (*s == '<') {
			n = key_parse(s, &key);
		} else {
			wchar_t wc;
			size_t k = mbrtowc(&wc, s, len, &st);
			if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
				k = 1;
				wc = (unsigned char)*s;
				memset(&st, 0, sizeof(st));
			}
			n = (int)k;
			key = (int)wc;
		}
		if (!burst) {
			loop_iterate(ui, 0);
			ui->redraw();
		}
		ui_key(key, *s == '<' && key >= KEY_MIN);
		if (!burst)
			loop_iterate(ui, 0);
		s += n;
		len -= (size_t)n;
	}
}

static int command(char *cmd, const struct loop_ui *ui, const char *where, struct kerr *e)
{
	char *arg = cmd + strcspn(cmd, " \t");
	if (*arg)
		*arg++ = '\0';
	arg = str_trim(arg);
	loop_iterate(ui, 0); /* what is due runs first, as between two keys */
	ui->redraw();
	if (!strcmp(cmd, ":save-display") && *arg)
		return save(arg, screen_text(), e);
	if (!strcmp(cmd, ":save-attrs") && *arg)
		return save(arg, screen_attrs(), e);
	if (!strcmp(cmd, ":resize")) {
		int cols, rows;
		if (sscanf(arg, "%dx%d", &cols, &rows) != 2 || cols < 10 || rows < 2)
			return kerr_set(e, "%s: expected :resize COLSxROWS", where);
		term_resize(rows, cols);
		ui->resize();
		return 0;
	}
	if (!strcmp(cmd, ":wait") || !strcmp(cmd, ":wait-tour")) {
		bool tour = cmd[5] == '-';
		int ms = atoi(arg);
		for (int i = 0; i < ms / 10 && !loop_quitting() && (!tour || tour_playing()); i++)
			loop_iterate(ui, 10);
		return 0;
	}
	if (!strcmp(cmd, ":type") && *arg) {
		feed_keys(arg, ui, true);
		return 0;
	}
	if (!strcmp(cmd, ":mouse")) {
		char what[16];
		MEVENT ev = {0};
		if (sscanf(arg, "%15s %d %d", what, &ev.y, &ev.x) != 3)
			return kerr_set(
			    e, "%s: expected :mouse click|double|wheel-up|wheel-down ROW COL",
			    where);
		if (!strcmp(what, "click") || !strcmp(what, "double"))
			ev.bstate =
			    strcmp(what, "click") ? BUTTON1_DOUBLE_CLICKED : BUTTON1_PRESSED;
		else if (!strcmp(what, "wheel-up"))
			ev.bstate = BUTTON4_PRESSED;
		else if (!strcmp(what, "wheel-down"))
			ev.bstate = BUTTON5_PRESSED;
		else
			return kerr_set(e, "%s: unknown mouse event '%s'", where, what);
		ui_mouse(&ev);
		return 0;
	}
	return kerr_set(e, "%s: unknown command '%s'", where, cmd);
}

int script_run(const char *path, const struct loop_ui *ui, struct kerr *e)
{
	char *text = read_file(path, NULL, e);
	if (!text)
		return -1;
	int rc = 0, lineno = 0;
	char *save_ptr = NULL;
	for (char *line = text; line && !rc && !loop_quitting(); line = save_ptr) {
		save_ptr = strchr(line, '\n');
		if (save_ptr)
			*save_ptr++ = '\0';
		lineno++;
		char *s = line;
		size_t n = strlen(s);
		if (n && s[n - 1] == '\r')
			s[n - 1] = '\0';
		if (!*s || *s == '#')
			continue;
		if (*s == ':') {
			char *where = xasprintf("%s:%d", path, lineno);
			rc = command(s, ui, where, e);
			free(where);
		} else {
			feed_keys(s, ui, false);
		}
	}
	free(text);
	return rc;
}
