/* The terminal: curses set up on the real terminal or, for headless runs,
 * on /dev/null with a fixed size; restored on every exit path. */
#ifndef KLANG_TUI_TERM_H
#define KLANG_TUI_TERM_H

#include <stdbool.h>

#include "core/util.h"

/* Start curses. headless: output to /dev/null, size from $LINES/$COLUMNS
 * (default 24x80), no terminal needed. Returns -1 with a message. */
int term_init(bool headless, struct kerr *e);
bool term_headless(void);
/* Restore the terminal (idempotent; safe from atexit and crash handlers). */
void term_restore(void);
/* Stop the process (SIGTSTP) with the terminal restored; returns after
 * SIGCONT with curses back in program mode. */
void term_suspend(void);
/* Read the terminal size (or take rows x cols in headless runs) and tell
 * curses. Returns true if it changed. */
bool term_resize(int rows, int cols);

#endif
