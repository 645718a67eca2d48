/* The event loop: one poll() over the terminal, the file descriptors other
 * modules register (build pipes), a self-pipe fed by signal handlers, and
 * timers. Signals are turned into events here: nothing is drawn from a
 * handler. The terminal is restored on every exit path. */
#ifndef KLANG_TUI_LOOP_H
#define KLANG_TUI_LOOP_H

#include <stdbool.h>

/* Called when fd is ready; revents as from poll() (POLLIN, POLLHUP ...). */
typedef void (*loop_fd_fn)(int fd, short revents, void *data);
typedef void (*loop_timer_fn)(void *data);
/* Called once when klang leaves: sig is 0 on a normal quit, else SIGINT,
 * SIGTERM or SIGHUP (cancel builds, save state). Never from a handler. */
typedef void (*loop_exit_fn)(int sig, void *data);

/* Watch a (non-blocking) fd for `events` (POLLIN ...). One watch per fd;
 * watching again replaces it. */
void loop_watch_fd(int fd, short events, loop_fd_fn fn, void *data);
void loop_unwatch_fd(int fd);
/* A timer firing after `ms`, again every `ms` if repeat. Returns its id. */
int loop_add_timer(unsigned ms, bool repeat, loop_timer_fn fn, void *data);
void loop_remove_timer(int id);
/* Called after SIGCHLD (reap with waitpid(..., WNOHANG)). */
void loop_on_child(void (*fn)(void *data), void *data);
void loop_on_exit(loop_exit_fn fn, void *data);
/* Leave the loop after this iteration. */
void loop_quit(void);
bool loop_quitting(void);

/* What the loop asks of the screen (tui/view.c fills it). */
struct loop_ui {
	void (*redraw)(void); /* draw what changed, then doupdate() */
	void (*input)(void);  /* the terminal is readable: read every key */
	void (*resize)(void); /* the terminal changed size */
	void (*resume)(void); /* back from a stop: repaint everything */
};

/* Install the signal handlers: before curses starts, so that curses keeps
 * its hands off them (it only installs its own over default handlers). */
void loop_signals_init(void);
/* Run until loop_quit() or a terminating signal; returns that signal or 0.
 * input_fd is the terminal (-1 for none). */
int loop_run(const struct loop_ui *ui, int input_fd);
/* One iteration without a terminal (headless scripts): poll the registered
 * fds, timers and signals for up to `ms` (0: only what is ready). */
void loop_iterate(const struct loop_ui *ui, int ms);
/* The terminating signal received (0 if none). */
int loop_signal(void);
/* Run the exit hooks once (sig as for loop_exit_fn). */
void loop_run_exit_hooks(int sig);

#endif
