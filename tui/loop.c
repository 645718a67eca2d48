/* The event loop: poll() over the terminal, registered fds, a self-pipe
 * written by signal handlers, and timers. Handlers only set flags and write
 * a byte; everything else (quitting, suspending, resizing) happens here.
 * Crashes restore the terminal and chain to the previous handler. */
#include "tui/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "tui/term.h"

struct watch {
	int fd;
	short events;
	loop_fd_fn fn;
	void *data;
};

struct timer {
	int id;
	unsigned ms;
	bool repeat;
	long long due; /* monotonic ms */
	loop_timer_fn fn;
	void *data;
};

struct hook {
	void (*fn)(void);
	loop_exit_fn exit_fn;
	void (*child_fn)(void *data);
	void *data;
};

static struct watch *watches;
static size_t nwatches, cap_watches;
static struct timer *timers;
static size_t ntimers, cap_timers;
static int next_timer_id = 1;
static struct hook *exit_hooks, *child_hooks;
static size_t nexit_hooks, cap_exit_hooks, nchild_hooks, cap_child_hooks;
static bool quitting, exit_hooks_done;

static int sig_pipe[2] = {-1, -1};
static volatile sig_atomic_t sig_term, sig_winch, sig_tstp, sig_cont, sig_chld;

void loop_watch_fd(int fd, short events, loop_fd_fn fn, void *data)
{
	for (size_t i = 0; i < nwatches; i++)
		if (watches[i].fd == fd) {
			watches[i] = (struct watch){fd, events, fn, data};
			return;
		}
	ALLOC_GROW(watches, nwatches + 1, cap_watches);
	watches[nwatches++] = (struct watch){fd, events, fn, data};
}

void loop_unwatch_fd(int fd)
{
	for (size_t i = 0; i < nwatches; i++)
		if (watches[i].fd == fd) {
			memmove(&watches[i], &watches[i + 1],
				(nwatches - i - 1) * sizeof(*watches));
			nwatches--;
			return;
		}
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int loop_add_timer(unsigned ms, bool repeat, loop_timer_fn fn, void *data)
{
	ALLOC_GROW(timers, ntimers + 1, cap_timers);
	timers[ntimers] = (struct timer){next_timer_id, ms, repeat, now_ms() + ms, fn, data};
	ntimers++;
	return next_timer_id++;
}

void loop_remove_timer(int id)
{
	for (size_t i = 0; i < ntimers; i++)
		if (timers[i].id == id) {
			memmove(&timers[i], &timers[i + 1], (ntimers - i - 1) * sizeof(*timers));
			ntimers--;
			return;
		}
}

void loop_on_child(void (*fn)(void *data), void *data)
{
	ALLOC_GROW(child_hooks, nchild_hooks + 1, cap_child_hooks);
	child_hooks[nchild_hooks++] = (struct hook){.child_fn = fn, .data = data};
}

void loop_on_exit(loop_exit_fn fn, void *data)
{
	ALLOC_GROW(exit_hooks, nexit_hooks + 1, cap_exit_hooks);
	exit_hooks[nexit_hooks++] = (struct hook){.exit_fn = fn, .data = data};
}

void loop_run_exit_hooks(int sig)
{
	if (exit_hooks_done)
		return;
	exit_hooks_done = true;
	for (size_t i = nexit_hooks; i-- > 0;)
		exit_hooks[i].exit_fn(sig, exit_hooks[i].data);
}

void loop_quit(void)
{
	quitting = true;
}

bool loop_quitting(void)
{
	return quitting;
}

int loop_signal(void)
{
	return sig_term;
}

static void wake(void)
{
	int saved = errno;
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], "", 1) < 0) {
		/* the pipe is full: a wake-up is already pending */
	}
	errno = saved;
}

static void on_signal(int sig)
{
	switch (sig) {
	case SIGWINCH:
		sig_winch = 1;
		break;
	case SIGTSTP:
		sig_tstp = 1;
		break;
	case SIGCONT:
		sig_cont = 1;
		break;
	case SIGCHLD:
		sig_chld = 1;
		break;
	default:
		if (sig_term) {
			/* a second one while the first is handled: leave now */
			term_restore();
			signal(sig, SIG_DFL);
			raise(sig);
		}
		sig_term = sig;
	}
	wake();
}

static struct sigaction crash_old[NSIG];

static void on_crash(int sig)
{
	term_restore();
	sigaction(sig, &crash_old[sig], NULL);
	raise(sig); /* delivered with the previous handler when we return */
}

void loop_signals_init(void)
{
	if (sig_pipe[0] < 0 && pipe(sig_pipe) == 0)
		for (int i = 0; i < 2; i++) {
			fcntl(sig_pipe[i], F_SETFL, O_NONBLOCK);
			fcntl(sig_pipe[i], F_SETFD, FD_CLOEXEC);
		}
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	const int events[] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT, SIGCHLD};
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		sigaction(events[i], &sa, NULL);
	struct sigaction ca = {.sa_handler = on_crash};
	sigemptyset(&ca.sa_mask);
	const int crashes[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
	for (size_t i = 0; i < ARRAY_SIZE(crashes); i++)
		sigaction(crashes[i], &ca, &crash_old[crashes[i]]);
	signal(SIGPIPE, SIG_IGN);
	atexit(term_restore);
}

static void handle_signals(const struct loop_ui *ui)
{
	char buf[64];
	while (sig_pipe[0] >= 0 && read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;
	if (sig_term) {
		quitting = true;
		return;
	}
	if (sig_tstp) {
		sig_tstp = 0;
		term_suspend();
		sig_cont = 0;
		if (ui->resume)
			ui->resume();
		sig_winch = 1; /* the size may have changed while stopped */
	}
	if (sig_cont) {
		sig_cont = 0;
		if (ui->resume)
			ui->resume();
	}
	if (sig_winch) {
		sig_winch = 0;
		if (ui->resize)
			ui->resize();
	}
	if (sig_chld) {
		sig_chld = 0;
		for (size_t i = 0; i < nchild_hooks; i++)
			child_hooks[i].child_fn(child_hooks[i].data);
	}
}

/* $KLANG_KEYLOG=FILE: one line per batch of keys read from the terminal,
 * the microseconds from reading it to the end of the redraw it caused, wall
 * clock then CPU time (bench/latency.sh reads it). */
static FILE *keylog;
static long long keylog_t0, keylog_cpu0;

static long long clock_us(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static long long now_us(void)
{
	return clock_us(CLOCK_MONOTONIC);
}

static long long cpu_us(void)
{
	return clock_us(CLOCK_PROCESS_CPUTIME_ID);
}

static void run_timers(void)
{
	long long now = now_ms();
	for (size_t i = 0; i < ntimers; i++) {
		if (timers[i].due > now)
			continue;
		struct timer t = timers[i];
		if (t.repeat)
			timers[i].due = now + t.ms;
		else
			loop_remove_timer(t.id);
		t.fn(t.data); /* may add or remove timers: restart the scan */
		i = (size_t)-1;
		now = now_ms();
	}
}

/* Poll once for at most `timeout` ms (-1: until something happens). */
static void iterate(const struct loop_ui *ui, int timeout, int input_fd)
{
	long long now = now_ms();
	for (size_t i = 0; i < ntimers; i++) {
		long long left = timers[i].due - now;
		if (left < 0)
			left = 0;
		if (timeout < 0 || left < timeout)
			timeout = (int)left;
	}
	size_t n = nwatches;
	struct pollfd *pfd = xcalloc(n + 2, sizeof(*pfd));
	struct watch *w = xmalloc((n + 1) * sizeof(*w));
	if (n) /* callbacks may change the list: poll a copy */
		memcpy(w, watches, n * sizeof(*w));
	for (size_t i = 0; i < n; i++)
		pfd[i] = (struct pollfd){.fd = w[i].fd, .events = w[i].events};
	pfd[n] = (struct pollfd){.fd = sig_pipe[0], .events = POLLIN};
	pfd[n + 1] = (struct pollfd){.fd = input_fd, .events = POLLIN};
	int rc = poll(pfd, n + 2, timeout);
	if (rc > 0) {
		for (size_t i = 0; i < n && !quitting; i++)
			if (pfd[i].revents)
				w[i].fn(w[i].fd, pfd[i].revents, w[i].data);
	}
	if (rc > 0 && input_fd >= 0 && (pfd[n + 1].revents & (POLLHUP | POLLERR | POLLNVAL)))
		sig_term = SIGHUP; /* the terminal went away */
	handle_signals(ui);
	if (rc > 0 && input_fd >= 0 && (pfd[n + 1].revents & POLLIN) && !quitting) {
		if (keylog) {
			keylog_t0 = now_us();
			keylog_cpu0 = cpu_us();
		}
		ui->input();
	}
	if (!quitting)
		run_timers();
	free(pfd);
	free(w);
}

void loop_iterate(const struct loop_ui *ui, int ms)
{
	iterate(ui, ms, -1);
}

int loop_run(const struct loop_ui *ui, int input_fd)
{
	const char *kl = getenv("KLANG_KEYLOG");
	keylog = kl && *kl ? fopen(kl, "w") : NULL;
	while (!quitting) {
		ui->redraw();
		if (keylog && keylog_t0) {
			fprintf(keylog, "%lld %lld\n", now_us() - keylog_t0,
				cpu_us() - keylog_cpu0);
			fflush(keylog); /* the bench waits for each line */
			keylog_t0 = 0;
		}
		iterate(ui, -1, input_fd);
	}
	if (keylog)
		fclose(keylog);
	keylog = NULL;
	return sig_term;
}
