/* Tests for tui/loop without a terminal: fd watches, timers, exit hooks -
 * the API the builds view uses for its pipes. */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tui/loop.h"

static const struct loop_ui no_ui = {0};

struct pipe_seen {
	char buf[64];
	size_t len;
	bool hup;
};

static void on_readable(int fd, short revents, void *data)
{
	struct pipe_seen *s = data;
	ssize_t n = read(fd, s->buf + s->len, sizeof(s->buf) - 1 - s->len);
	if (n > 0)
		s->len += (size_t)n;
	if (n == 0 || (revents & POLLHUP)) {
		s->hup = true;
		loop_unwatch_fd(fd);
	}
}

static void on_timer(void *data)
{
	(*(int *)data)++;
}

static void test_fds_and_timers(void)
{
	int p[2];
	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	struct pipe_seen seen = {0};
	loop_signals_init();
	loop_watch_fd(p[0], POLLIN, on_readable, &seen);
	CU_ASSERT_EQUAL(write(p[1], "make: ok\n", 9), 9);
	loop_iterate(&no_ui, 100);
	CU_ASSERT_EQUAL(seen.len, 9);
	CU_ASSERT_FALSE(seen.hup);
	close(p[1]);
	for (int i = 0; i < 10 && !seen.hup; i++)
		loop_iterate(&no_ui, 100);
	CU_ASSERT_TRUE(seen.hup);
	close(p[0]);

	int once = 0, every = 0;
	loop_add_timer(10, false, on_timer, &once);
	int id = loop_add_timer(10, true, on_timer, &every);
	for (int i = 0; i < 8; i++)
		loop_iterate(&no_ui, 20);
	CU_ASSERT_EQUAL(once, 1);
	CU_ASSERT(every >= 3);
	loop_remove_timer(id);
	int before = every;
	loop_iterate(&no_ui, 30);
	CU_ASSERT_EQUAL(every, before);
}

static int hook_sig = -1, hook_calls;

static void on_exit_hook(int sig, void *data)
{
	(void)data;
	hook_sig = sig;
	hook_calls++;
}

static void test_exit_hooks(void)
{
	loop_on_exit(on_exit_hook, NULL);
	loop_run_exit_hooks(SIGTERM);
	loop_run_exit_hooks(0); /* once only */
	CU_ASSERT_EQUAL(hook_sig, SIGTERM);
	CU_ASSERT_EQUAL(hook_calls, 1);
	/* give the other suites their default signal dispositions back */
	const int sigs[] = {SIGINT,  SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT, SIGCHLD,
			    SIGSEGV, SIGABRT, SIGBUS, SIGFPE,	SIGILL,	 SIGPIPE};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}

void suite_loop(void)
{
	CU_pSuite s = CU_add_suite("loop", NULL, NULL);
	CU_add_test(s, "fd watches and timers", test_fds_and_timers);
	CU_add_test(s, "exit hooks", test_exit_hooks);
}
