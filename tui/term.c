/* Curses on the real terminal or on /dev/null (headless), and the way back
 * to a sane terminal: endwin() on quit, on signals, on crashes, at exit. */
#include "tui/term.h"

#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

static SCREEN *screen;
static FILE *null_out, *null_in;
static bool headless;
static volatile sig_atomic_t active;

int term_init(bool is_headless, struct kerr *e)
{
	headless = is_headless;
	if (headless) {
		/* A fixed size: curses reads $LINES/$COLUMNS before terminfo. */
		setenv("LINES", getenv("LINES") ? getenv("LINES") : "24", 0);
		setenv("COLUMNS", getenv("COLUMNS") ? getenv("COLUMNS") : "80", 0);
		null_out = fopen("/dev/null", "w");
		null_in = fopen("/dev/null", "r");
		if (!null_out || !null_in)
			return kerr_set(e, "cannot open /dev/null");
		const char *term = getenv("TERM");
		screen = newterm(term && *term ? term : "xterm-256color", null_out, null_in);
		if (!screen)
			screen = newterm("dumb", null_out, null_in);
	} else {
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
			return kerr_set(
			    e, "the workbench needs a terminal (the batch commands do not: "
			       "klang --help)");
		screen = newterm(NULL, stdout, stdin);
	}
	if (!screen)
		return kerr_set(e, "cannot start curses on terminal '%s'",
				getenv("TERM") ? getenv("TERM") : "(unset)");
	active = 1;
	if (has_colors())
		start_color(); /* sets COLORS, which picks the theme */
	cbreak();	       /* ^C, ^Z, ^\ still raise signals: they are handled in the loop */
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	curs_set(0);
	set_escdelay(25);
	if (!headless)
		mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
	mouseinterval(0);
	return 0;
}

bool term_headless(void)
{
	return headless;
}

void term_restore(void)
{
	if (!active)
		return;
	active = 0;
	if (!headless)
		mousemask(0, NULL);
	endwin();
}

void term_suspend(void)
{
	if (!active || headless)
		return;
	endwin();
	struct sigaction sa = {.sa_handler = SIG_DFL}, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, &old);
	kill(getpid(), SIGTSTP);
	/* stopped here until SIGCONT */
	sigaction(SIGTSTP, &old, NULL);
	reset_prog_mode();
	clearok(curscr, TRUE);
	doupdate();
}

bool term_resize(int rows, int cols)
{
	if (!active)
		return false;
	if (!headless) {
		struct winsize ws;
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_row || !ws.ws_col)
			return false;
		rows = ws.ws_row;
		cols = ws.ws_col;
	}
	if (rows < 2 || cols < 10 || (rows == LINES && cols == COLS))
		return false;
	resizeterm(rows, cols);
	return true;
}
