/* Status bar messages and the line prompt. The prompt is not a nested loop:
 * the event loop keeps running (builds keep streaming) while it is open. */
#include "tui/prompt.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/util.h"
#include "tui/display.h"

static struct strbuf message = STRBUF_INIT;
static bool message_error;

static struct {
	bool active, one_key; /* one_key: prompt_confirm() */
	char *label;
	struct strbuf text; /* UTF-8 */
	prompt_fn fn;
	void *data;
} prompt;

static void vreport(bool error, const char *fmt, va_list ap)
{
	sb_reset(&message);
	sb_vaddf(&message, fmt, ap);
	str_flatten(message.buf);
	message_error = error;
}

void report(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(false, fmt, ap);
	va_end(ap);
}

void report_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(true, fmt, ap);
	va_end(ap);
}

void report_clear(void)
{
	sb_reset(&message);
}

const char *report_message(void)
{
	return sb_str(&message);
}

void prompt_open(const char *label, prompt_fn fn, void *data)
{
	free(prompt.label);
	prompt.label = xstrdup(label);
	sb_reset(&prompt.text);
	prompt.fn = fn;
	prompt.data = data;
	prompt.active = true;
	prompt.one_key = false;
	report_clear();
}

void prompt_confirm(const char *question, prompt_fn fn, void *data)
{
	prompt_open(question, fn, data);
	prompt.one_key = true;
}

bool prompt_active(void)
{
	return prompt.active;
}

static void prompt_done(bool ok)
{
	prompt.active = false;
	char *text = sb_detach(&prompt.text);
	prompt.fn(ok ? text : NULL, prompt.data);
	free(text);
}

/* Remove the last UTF-8 character. */
static void backspace(struct strbuf *sb)
{
	while (sb->len > 0) {
		unsigned char c = (unsigned char)sb->buf[--sb->len];
		if ((c & 0xc0) != 0x80)
			break;
	}
	if (sb->buf)
		sb->buf[sb->len] = '\0';
}

void prompt_key(int key, bool fn)
{
	if (prompt.one_key) {
		if (fn && (key == KEY_RESIZE || key == KEY_MOUSE))
			return; /* not an answer */
		bool yes = !fn && (key == 'y' || key == 'Y');
		if (yes)
			sb_adds(&prompt.text, "y");
		prompt_done(yes);
		return;
	}
	if (fn) {
		if (key == KEY_BACKSPACE || key == KEY_DC) {
			if (!prompt.text.len)
				prompt_done(false);
			else
				backspace(&prompt.text);
		}
		return;
	}
	switch (key) {
	case '\r':
		prompt_done(true);
		return;
	case 27: /* Esc */
	case 7:	 /* ^G */
	case 3:	 /* ^C in a script; the terminal sends SIGINT */
		prompt_done(false);
		return;
	case 21: /* ^U */
		sb_reset(&prompt.text);
		return;
	case 23: /* ^W: the last word */
		while (prompt.text.len && prompt.text.buf[prompt.text.len - 1] == ' ')
			backspace(&prompt.text);
		while (prompt.text.len && prompt.text.buf[prompt.text.len - 1] != ' ')
			backspace(&prompt.text);
		return;
	}
	if (key < 32 || key == 127)
		return;
	char mb[MB_LEN_MAX];
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	size_t n = wcrtomb(mb, (wchar_t)key, &st);
	if (n != (size_t)-1)
		sb_add(&prompt.text, mb, n);
}

void status_draw(WINDOW *w, const char *idle)
{
	struct line_draw d;
	werase(w);
	draw_begin(&d, w, 0, getmaxx(w), 0);
	if (prompt.active) {
		draw_text(&d, ELEM_PROMPT, prompt.label, -1);
		/* keep the end of a long input in sight */
		const char *s = sb_str(&prompt.text);
		int room = d.width - d.col - 1, w_all = text_width(s, -1);
		while (w_all > room && *s) {
			int n = 1;
			while ((s[n] & 0xc0) == 0x80)
				n++;
			w_all -= text_width(s, n);
			s += n;
		}
		draw_text(&d, ELEM_STATUS, s, -1);
		int cursor_col = d.col;
		draw_fill(&d, ELEM_STATUS);
		wmove(w, 0, cursor_col < d.width ? cursor_col : d.width - 1);
		curs_set(1);
		return;
	}
	curs_set(0);
	if (message.len)
		draw_text(&d, message_error ? ELEM_ERROR : ELEM_STATUS, message.buf, -1);
	else if (idle)
		draw_text(&d, ELEM_STATUS, idle, -1);
	draw_fill(&d, ELEM_STATUS);
}
