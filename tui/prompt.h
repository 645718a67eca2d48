/* The status bar at the bottom: messages (tig's report()) and a one-line
 * prompt for searches and names, fed by the loop like any other key. */
#ifndef KLANG_TUI_PROMPT_H
#define KLANG_TUI_PROMPT_H

#include <curses.h>
#include <stdbool.h>

/* A message shown until the next key. */
void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report_clear(void);
/* The message shown ("" if none). */
const char *report_message(void);

/* Called with the text on Enter, with NULL on Esc. */
typedef void (*prompt_fn)(const char *text, void *data);
/* Ask for a line of text after `label` ("/", "Branch: "). */
void prompt_open(const char *label, prompt_fn fn, void *data);
/* Ask a yes/no question ("... y/N "): the next key answers, fn gets "y"
 * for y or Y, NULL for any other key. */
void prompt_confirm(const char *question, prompt_fn fn, void *data);
bool prompt_active(void);
/* A key while the prompt is open (as ui_key()). */
void prompt_key(int key, bool fn);

/* Draw the status bar; `idle` is shown when no message is up. */
void status_draw(WINDOW *w, const char *idle);

#endif
