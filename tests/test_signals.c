/* The workbench on a real terminal, under signals: the binary runs in a
 * pseudo-terminal (forkpty) under a tiny job-control "shell" (so ^Z can
 * stop it, as in a login shell), on the demo workspace, with two builds
 * running. For SIGINT (typed ^C), SIGTERM, SIGHUP and the crashes SIGSEGV
 * and SIGABRT: klang dies of the signal, the terminal restore sequences
 * (leave the alternate screen, cursor visible) were written, and no
 * process of its builds is left; the same when the terminal hangs up. ^Z stops it with the terminal
 * restored, SIGCONT redraws, a window-size change is drawn, Q still leaves clean. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/demo.h"
#include "core/util.h"
#include "tests/helpers.h"

/* xterm-256color: leave the alternate screen (rmcup), show the cursor
 * (cnorm), enter the alternate screen again (smcup). */
#define RMCUP "\033[?1049l"
#define CNORM "\033[?25h"
#define SMCUP "\033[?1049h"

static char *top, *demo_dir, *build_mark;

struct wb {
	pid_t shell, klang;
	int fd;
	struct strbuf out;
};

static long long ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int setup(void)
{
	top = test_tmpdir();
	demo_dir = xasprintf("%s/demo", top);
	build_mark = xasprintf("O=%s/.klang/out/", demo_dir);
	char *src = xasprintf("%s/patchsets/demo", test_src_dir());
	struct demo_info info;
	struct kerr e;
	int rc = demo_prepare(demo_dir, src, &info, &e);
	if (!rc)
		demo_info_free(&info);
	free(src);
	return rc;
}

static int teardown(void)
{
	test_rmdir(top);
	free(top);
	free(demo_dir);
	free(build_mark);
	return 0;
}

/* The "shell": puts klang in its own process group in the foreground,
 * reports its pid, and exits with its status (128 + signal, as sh does). */
static void job_shell(int report)
{
	signal(SIGTTOU, SIG_IGN);
	signal(SIGHUP, SIG_IGN); /* outlive a hangup to report klang's status */
	setenv("TERM", "xterm-256color", 1);
	setenv("LANG", "C.UTF-8", 1);
	setenv("HOME", top, 1);
	unsetenv("LINES");
	unsetenv("COLUMNS");
	unsetenv("KLANG_SCRIPT");
	pid_t k = fork();
	if (k == 0) {
		setpgid(0, 0);
		tcsetpgrp(STDIN_FILENO, getpid());
		signal(SIGTTOU, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execl(test_klang_bin(), "klang", "--repo", demo_dir, (char *)NULL);
		_exit(127);
	}
	setpgid(k, k);
	tcsetpgrp(STDIN_FILENO, k);
	if (write(report, &k, sizeof(k)) != sizeof(k))
		_exit(126);
	close(report);
	for (;;) {
		int st;
		if (waitpid(k, &st, WUNTRACED) < 0) {
			if (errno == EINTR)
				continue;
			_exit(126);
		}
		if (!WIFSTOPPED(st)) /* a stopped job waits for the test's SIGCONT */
			_exit(WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st));
	}
}

static int wb_start(struct wb *w)
{
	int p[2];
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	if (pipe(p))
		return -1;
	struct winsize ws = {.ws_row = 24, .ws_col = 80};
	w->shell = forkpty(&w->fd, NULL, NULL, &ws);
	if (w->shell == 0) {
		close(p[0]);
		job_shell(p[1]);
	}
	close(p[1]);
	ssize_t n = w->shell > 0 ? read(p[0], &w->klang, sizeof(w->klang)) : -1;
	close(p[0]);
	if (w->shell > 0)
		fcntl(w->fd, F_SETFL, O_NONBLOCK);
	return n == sizeof(w->klang) ? 0 : -1;
}

/* Read the terminal for up to ms, until `want` appears after byte `from`
 * (want NULL: until the end). False at the end of the output. */
static bool wb_read(struct wb *w, size_t from, const char *want, int ms)
{
	long long end = ms_now() + ms;
	if (w->fd < 0)
		return false;
	for (;;) {
		if (want && w->out.len >= from &&
		    memmem(sb_str(&w->out) + from, w->out.len - from, want, strlen(want)))
			return true;
		long long left = end - ms_now();
		if (left <= 0)
			return !want;
		struct pollfd pfd = {.fd = w->fd, .events = POLLIN};
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		char buf[4096];
		ssize_t n = read(w->fd, buf, sizeof(buf));
		if (n > 0)
			sb_add(&w->out, buf, (size_t)n);
		else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			return false; /* EIO: every process on the terminal is gone */
	}
}

/* Processes of the workspace's builds: their command line or working
 * directory is in it (klang itself, whose --repo names it, is not one). */
static size_t workspace_procs(const struct wb *w, const char *mark, bool kill_them)
{
	size_t n = 0;
	DIR *d = opendir("/proc");
	for (struct dirent *de; d && (de = readdir(d));) {
		pid_t pid = (pid_t)atoi(de->d_name);
		if (pid <= 0 || pid == w->klang || pid == w->shell || pid == getpid())
			continue;
		char path[64], cwd[4096] = "", cmd[8192];
		snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
		ssize_t cl = readlink(path, cwd, sizeof(cwd) - 1);
		cwd[cl > 0 ? cl : 0] = '\0';
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
		FILE *f = fopen(path, "r");
		size_t len = f ? fread(cmd, 1, sizeof(cmd) - 1, f) : 0;
		if (f)
			fclose(f);
		for (size_t i = 0; i < len; i++)
			if (!cmd[i])
				cmd[i] = ' ';
		cmd[len] = '\0';
		bool in_cwd = !strncmp(cwd, demo_dir, strlen(demo_dir));
		if (strstr(cmd, mark) || (!strcmp(mark, demo_dir) && in_cwd)) {
			n++;
			if (kill_them)
				kill(pid, SIGKILL);
		}
	}
	if (d)
		closedir(d);
	return n;
}

/* Start klang, open the builds view (3), start the builds (b), and wait
 * until two of them run. */
static bool wb_start_builds(struct wb *w)
{
	if (wb_start(w) < 0)
		return false;
	if (!wb_read(w, 0, SMCUP, 5000))
		return false;
	wb_read(w, 0, NULL, 300);
	if (write(w->fd, "3", 1) != 1 || !wb_read(w, 0, "idle (b to start)", 5000) ||
	    write(w->fd, "b", 1) != 1)
		return false;
	for (long long end = ms_now() + 10000; ms_now() < end;) {
		if (workspace_procs(w, build_mark, false) >= 2)
			return true;
		wb_read(w, 0, NULL, 50);
	}
	return false;
}

/* Wait for the end: the shell's status (128 + signal for a signal). */
static int wb_wait(struct wb *w)
{
	long long end = ms_now() + 20000;
	while (ms_now() < end && wb_read(w, 0, NULL, 200))
		;
	int st = 0;
	for (;;) {
		pid_t r = waitpid(w->shell, &st, WNOHANG);
		if (r == w->shell)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		if (r < 0 || ms_now() > end)
			break;
		usleep(20000);
	}
	kill(w->klang, SIGKILL);
	kill(w->shell, SIGKILL);
	waitpid(w->shell, &st, 0);
	return -1;
}

/* No build process left (a grace second for the kernel to finish the
 * ones klang killed); any found are killed so the next test starts clean. */
static bool no_build_left(const struct wb *w)
{
	for (long long end = ms_now() + 3000; ms_now() < end; usleep(50000))
		if (!workspace_procs(w, demo_dir, false))
			return true;
	workspace_procs(w, demo_dir, true);
	return false;
}

static void wb_free(struct wb *w)
{
	if (w->fd >= 0)
		close(w->fd);
	sb_free(&w->out);
}

static void check_signal(int sig, bool crash)
{
	struct wb w;
	bool started = wb_start_builds(&w);
	CU_ASSERT_TRUE(started);
	if (!started)
		fprintf(stderr, "signal %d: two builds did not start; the terminal showed:\n%s\n",
			sig, sb_str(&w.out));
	size_t at = w.out.len;
	if (sig == SIGINT) {
		CU_ASSERT_EQUAL(write(w.fd, "\003", 1), 1); /* ^C, as typed */
	} else {
		kill(w.klang, sig);
	}
	int rc = wb_wait(&w);
	if (crash) { /* under ASan, its SIGSEGV report ends the process with 1 */
		CU_ASSERT_TRUE(rc == 128 + sig || (rc > 0 && rc < 128));
	} else {
		CU_ASSERT_EQUAL(rc, 128 + sig);
	}
	const char *after = sb_str(&w.out) + at;
	size_t len = w.out.len - at;
	CU_ASSERT_PTR_NOT_NULL(memmem(after, len, RMCUP, strlen(RMCUP)));
	CU_ASSERT_PTR_NOT_NULL(memmem(after, len, CNORM, strlen(CNORM)));
	CU_ASSERT_TRUE(no_build_left(&w));
	wb_free(&w);
}

static void test_sigint(void)
{
	check_signal(SIGINT, false);
}

static void test_sigterm(void)
{
	check_signal(SIGTERM, false);
}

static void test_sighup(void)
{
	check_signal(SIGHUP, false);
}

static void test_crashes(void)
{
	check_signal(SIGSEGV, true);
	check_signal(SIGABRT, true);
}

/* The terminal goes away (a window closed, ssh dropped): the kernel hangs
 * up klang's terminal; it cancels its builds and dies of SIGHUP. */
static void test_hangup(void)
{
	struct wb w;
	CU_ASSERT_TRUE_FATAL(wb_start_builds(&w));
	close(w.fd);
	w.fd = -1;
	CU_ASSERT_EQUAL(wb_wait(&w), 128 + SIGHUP);
	CU_ASSERT_TRUE(no_build_left(&w));
	wb_free(&w);
}

static char proc_state(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] ? p[2] : '?';
}

/* ^Z stops klang with the terminal restored, SIGCONT takes the screen
 * back, a new window size is drawn, Q leaves with no build left. */
static void test_suspend_resume_resize(void)
{
	struct wb w;
	CU_ASSERT_TRUE_FATAL(wb_start_builds(&w));
	size_t at = w.out.len;
	CU_ASSERT_EQUAL(write(w.fd, "\032", 1), 1); /* ^Z */
	CU_ASSERT_TRUE(wb_read(&w, at, RMCUP, 3000));
	CU_ASSERT_TRUE(wb_read(&w, at, CNORM, 1000));
	char st = '?';
	for (long long end = ms_now() + 3000; ms_now() < end && st != 'T'; usleep(20000))
		st = proc_state(w.klang);
	CU_ASSERT_EQUAL(st, 'T');

	at = w.out.len;
	kill(w.klang, SIGCONT);
	CU_ASSERT_TRUE(wb_read(&w, at, SMCUP, 3000));
	CU_ASSERT_NOT_EQUAL(proc_state(w.klang), 'T');

	/* SIGWINCH from the terminal: the bottom row, 30, is drawn */
	wb_read(&w, 0, NULL, 300);
	at = w.out.len;
	struct winsize ws = {.ws_row = 30, .ws_col = 100};
	CU_ASSERT_EQUAL(ioctl(w.fd, TIOCSWINSZ, &ws), 0);
	CU_ASSERT_TRUE(wb_read(&w, at, "\033[30;", 3000));

	at = w.out.len;
	CU_ASSERT_EQUAL(write(w.fd, "Q", 1), 1);
	/* with builds still running Q asks first */
	if (wb_read(&w, at, "and quit? y/N", 2000))
		CU_ASSERT_EQUAL(write(w.fd, "y", 1), 1);
	CU_ASSERT_EQUAL(wb_wait(&w), 0);
	CU_ASSERT_PTR_NOT_NULL(memmem(sb_str(&w.out) + at, w.out.len - at, RMCUP, strlen(RMCUP)));
	CU_ASSERT_TRUE(no_build_left(&w));
	wb_free(&w);
}

void suite_signals(void)
{
	CU_pSuite s = CU_add_suite("signals", setup, teardown);
	CU_add_test(s, "^C with two builds running", test_sigint);
	CU_add_test(s, "SIGTERM with two builds running", test_sigterm);
	CU_add_test(s, "SIGHUP with two builds running", test_sighup);
	CU_add_test(s, "the terminal hangs up with two builds running", test_hangup);
	CU_add_test(s, "SIGSEGV, SIGABRT: terminal restored, no build left", test_crashes);
	CU_add_test(s, "^Z, SIGCONT, SIGWINCH, then Q", test_suspend_resume_resize);
}
