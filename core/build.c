/* Build runner: planning a build into make steps, running each step in its own
 * process group on the shared jobserver, reading its output without blocking,
 * cancelling, and reaping. Planning is in core/buildplan.c, records and
 * summaries in core/buildrec.c. */
#include "core/build.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/buildlogs.h"
#include "core/buildplan.h"
#include "core/buildrec.h"
#include "core/toolchain.h"

extern char **environ;

#define PARSE_LINE_MAX 65536  /* longer lines reach the log whole, the parsers cut */
#define READ_BUDGET (1 << 20) /* bytes per build per bmgr_handle(), to stay responsive */
#define TICK_MS 100

const char *build_status_name(enum build_status s)
{
	static const char *const names[] = {
#define X(id, name) name,
	    BUILD_STATUS_LIST(X)
#undef X
	};
	return (size_t)s < ARRAY_SIZE(names) ? names[s] : "?";
}

double build_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sync_js_watch(struct build_mgr *m);

/* ---- the manager ---- */

static const char *const make_env_drop[] = {
    "MAKEFLAGS=",    "MFLAGS=",	      "MAKELEVEL=", "MAKEOVERRIDES=", "GNUMAKEFLAGS=",
    "MAKE_TERMOUT=", "MAKE_TERMERR=", "LC_ALL=",    "LC_MESSAGES="};

/* The environment of every child make: a top-level make on our jobserver,
 * with compiler messages in English so they can be parsed. */
static char **make_env(const struct jobserver *js)
{
	char **v = NULL;
	size_t n = 0;
	const char *lc_all = getenv("LC_ALL");
	for (char **e = environ; *e; e++) {
		bool drop = false;
		for (size_t i = 0; i < ARRAY_SIZE(make_env_drop); i++)
			drop |= str_startswith(*e, make_env_drop[i]);
		if (lc_all && *lc_all && str_startswith(*e, "LANG="))
			drop = true;
		if (!drop)
			strv_push(&v, &n, xstrdup(*e));
	}
	if (lc_all && *lc_all)
		strv_push(&v, &n, xasprintf("LANG=%s", lc_all));
	strv_push(&v, &n, xstrdup("LC_MESSAGES=C"));
	char *mf = jobserver_makeflags(js);
	strv_push(&v, &n, xasprintf("MAKEFLAGS=%s", mf));
	free(mf);
	return v;
}

int bmgr_init(struct build_mgr *m, int jobs, struct kerr *e)
{
	memset(m, 0, sizeof(*m));
	m->make = path_search("make");
	if (!m->make)
		return kerr_set(e, "make: not found on PATH");
	char *version = tool_version_line(m->make);
	int r = jobserver_init(&m->js, jobs, jobserver_style_for(version), e);
	free(version);
	if (r < 0) {
		free(m->make);
		return -1;
	}
	m->env = make_env(&m->js);
	m->diag = &kbuild_simple_counter;
	m->grace = 5.0;
	return 0;
}

static bool running(const struct build *b)
{
	return b->pid > 0 || b->group_alive;
}

void bmgr_free(struct build_mgr *m)
{
	for (size_t i = 0; i < m->nbuilds; i++) {
		struct build *b = m->builds[i];
		if (running(b))
			kill(-b->pid, SIGKILL);
		if (b->pid > 0 && !b->reaped)
			while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
				;
		if (b->out_fd >= 0 && m->fd_watch)
			m->fd_watch(b->out_fd, false, m->fd_watch_data);
		if (b->out_fd >= 0)
			close(b->out_fd);
		if (b->log_fd >= 0)
			close(b->log_fd);
		if (b->lock_fd >= 0)
			close(b->lock_fd);
		if (b->diag_state)
			m->diag->close(b->diag_state);
		buildplan_free(b);
	}
	if (m->js_watched && m->fd_watch)
		m->fd_watch(jobserver_poll_fd(&m->js), false, m->fd_watch_data);
	free(m->builds);
	strv_free(m->env);
	free(m->make);
	free(m->records_dir);
	jobserver_free(&m->js);
	memset(m, 0, sizeof(*m));
}

struct build *bmgr_add(struct build_mgr *m, const struct build_spec *s, struct kerr *e)
{
	struct build *b = buildplan_new(s, m->make, m->js.slots, e);
	if (!b)
		return NULL;
	/* one `cc --version` per compiler, before anything runs */
	for (size_t i = 0; i < m->nbuilds && !b->compiler_version; i++)
		if (!strcmp(m->builds[i]->compiler, b->compiler) && m->builds[i]->compiler_version)
			b->compiler_version = xstrdup(m->builds[i]->compiler_version);
	if (!b->compiler_version)
		b->compiler_version = tool_version_line(b->compiler);
	buildrec_load_expected(m->records_dir, b);
	ALLOC_GROW(m->builds, m->nbuilds + 1, m->cap);
	m->builds[m->nbuilds++] = b;
	m->changed = true;
	sync_js_watch(m);
	return b;
}

/* ---- running ---- */

static void child_exec(struct build_mgr *m, int wfd, char **argv, pid_t parent)
{
	setpgid(0, 0);
	/* if klang dies without cleaning up, make hears about it (and kills its jobs) */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGWINCH};
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int nul = open("/dev/null", O_RDONLY);
	if (nul >= 0)
		dup2(nul, 0);
	dup2(wfd, 1);
	dup2(wfd, 2);
	jobserver_child_prepare(&m->js);
	execve(argv[0], argv, m->env);
	static const char msg[] = "klang: cannot run make\n";
	ssize_t w = write(2, msg, sizeof(msg) - 1);
	(void)w;
	_exit(127);
}

static int start_step(struct build_mgr *m, struct build *b, struct kerr *e)
{
	struct build_step *st = &b->steps[b->step];
	if (buildplan_pre_step(b, e) < 0)
		return -1;
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return kerr_set(e, "pipe: %s", strerror(errno));
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return kerr_set(e, "fork: %s", strerror(errno));
	}
	if (pid == 0)
		child_exec(m, p[1], st->argv, parent);
	setpgid(pid, pid); /* as the child does: no race with an early kill */
	close(p[1]);
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	b->out_fd = p[0];
	if (m->fd_watch)
		m->fd_watch(b->out_fd, true, m->fd_watch_data);
	b->pid = pid;
	b->group_alive = true;
	b->reaped = false;
	b->term_sent = 0;
	b->status = st->phase;
	if (st->phase == BUILD_BUILDING && !b->build_started)
		b->build_started = build_now();
	m->changed = true;
	return 0;
}

static void finish(struct build_mgr *m, struct build *b, enum build_status status, int code)
{
	/* cancelled while queued: its directory still holds the last build */
	bool ran = b->started > 0;
	b->status = status;
	b->exit_code = code;
	b->finished = build_now();
	if (!b->started)
		b->started = b->finished;
	if (b->holds_token) {
		jobserver_release(&m->js);
		b->holds_token = false;
	}
	if (b->log_fd >= 0)
		close(b->log_fd);
	b->log_fd = -1;
	/* make ran to its end (a cancelled build's objects may be half
	 * made): the logs kept before that it made redundant go, under the lock */
	if (ran && status != BUILD_CANCELLED && code >= 0)
		buildlogs_prune(b->outdir);
	if (b->lock_fd >= 0)
		close(b->lock_fd);
	b->lock_fd = -1;
	if (b->diag_state)
		m->diag->close(b->diag_state);
	b->diag_state = NULL;
	if (ran)
		buildrec_finish(m, b);
	m->changed = true;
}

static void fail_start(struct build_mgr *m, struct build *b, const struct kerr *e)
{
	free(b->error);
	b->error = xstrdup(e->msg);
	finish(m, b, BUILD_FAILED, -1);
}

static void start_build(struct build_mgr *m, struct build *b)
{
	struct kerr e;
	b->holds_token = true;
	b->started = build_now();
	if (mkdir_p(b->outdir, &e) < 0) {
		fail_start(m, b, &e);
		return;
	}
	/* one build at a time in a directory: another klang (a second
	 * workbench, klang build) may be building there. Best effort: where
	 * there are no locks (some NFS), the build goes on without one. */
	char *lock = xasprintf("%s/.klang-build.lock", b->outdir);
	b->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(lock);
	if (b->lock_fd >= 0 && flock(b->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		bool held = errno == EWOULDBLOCK;
		close(b->lock_fd);
		b->lock_fd = -1;
		if (held) {
			kerr_set(&e, "another klang is building in %s", b->outdir);
			b->started = 0; /* its log and summary are the other's: untouched */
			fail_start(m, b, &e);
			return;
		}
	}
	/* an incremental build logs what it compiles again: the log before
	 * holds the rest of the tree's warnings */
	if (buildlogs_keep_previous(b->outdir, b->config, &e) < 0) {
		fail_start(m, b, &e);
		return;
	}
	b->log_fd = open(b->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (b->log_fd < 0) {
		kerr_set(&e, "%s: %s", b->log_path, strerror(errno));
		fail_start(m, b, &e);
		return;
	}
	b->diag_state = m->diag->open(b->arch, b->toolchain);
	b->step = 0;
	if (start_step(m, b, &e) < 0)
		fail_start(m, b, &e);
}

/* Watch the jobserver while a build waits for a token, only then. */
static void sync_js_watch(struct build_mgr *m)
{
	bool queued = false;
	for (size_t i = 0; i < m->nbuilds && !queued; i++)
		queued = m->builds[i]->status == BUILD_QUEUED;
	if (m->fd_watch && queued != m->js_watched)
		m->fd_watch(jobserver_poll_fd(&m->js), queued, m->fd_watch_data);
	m->js_watched = queued;
}

static void start_queued(struct build_mgr *m)
{
	for (size_t i = 0; i < m->nbuilds; i++) {
		struct build *b = m->builds[i];
		if (b->status != BUILD_QUEUED)
			continue;
		if (!jobserver_try_acquire(&m->js))
			break;
		start_build(m, b);
	}
	sync_js_watch(m);
}

static void handle_line(struct build_mgr *m, struct build *b, const char *line, size_t len)
{
	unsigned long steps = b->progress.steps, w = b->warnings, er = b->errors;
	kbuild_progress_line(&b->progress, line, len);
	m->diag->line(b->diag_state, line, len, &b->warnings, &b->errors);
	if (steps != b->progress.steps || w != b->warnings || er != b->errors)
		m->changed = true;
}

static void feed(struct build_mgr *m, struct build *b, const char *buf, size_t n)
{
	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t len = nl ? (size_t)(nl - buf) : n;
		if (!b->partial.len && nl && !b->partial_overflow) {
			handle_line(m, b, buf, len);
		} else {
			size_t room = PARSE_LINE_MAX - b->partial.len;
			if (len > room)
				b->partial_overflow = true;
			sb_add(&b->partial, buf, len < room ? len : room);
			if (nl) {
				handle_line(m, b, b->partial.buf, b->partial.len);
				sb_reset(&b->partial);
				b->partial_overflow = false;
			}
		}
		if (!nl)
			return;
		buf = nl + 1;
		n -= len + 1;
	}
}

static void write_log(struct build *b, const char *buf, size_t n)
{
	while (n && b->log_fd >= 0) {
		ssize_t w = write(b->log_fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!b->error)
				b->error = xasprintf("%s: %s", b->log_path, strerror(errno));
			return;
		}
		buf += w;
		n -= (size_t)w;
	}
}

static void close_output(struct build_mgr *m, struct build *b)
{
	if (b->out_fd < 0)
		return;
	if (m->fd_watch)
		m->fd_watch(b->out_fd, false, m->fd_watch_data);
	close(b->out_fd);
	b->out_fd = -1;
	if (b->partial.len)
		handle_line(m, b, b->partial.buf, b->partial.len);
	sb_reset(&b->partial);
	b->partial_overflow = false;
}

/* Read what is there, up to `budget` bytes; close the pipe at EOF. */
static void read_output(struct build_mgr *m, struct build *b, size_t budget)
{
	char buf[65536];
	while (b->out_fd >= 0 && budget) {
		ssize_t r = read(b->out_fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return;
		if (r <= 0) {
			close_output(m, b);
			return;
		}
		write_log(b, buf, (size_t)r);
		feed(m, b, buf, (size_t)r);
		budget -= (size_t)r < budget ? (size_t)r : budget;
	}
}

static bool group_exists(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

/* The step's leader was reaped and its group is gone: go on or finish. */
static void step_done(struct build_mgr *m, struct build *b)
{
	read_output(m, b, (size_t)-1);
	close_output(m, b);
	int st = b->wstatus;
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (b->cancel || WIFSIGNALED(st))
		m->pool_dirty = true; /* killed makes keep the tokens they took */
	b->pid = 0;
	if (b->cancel) {
		finish(m, b, BUILD_CANCELLED, code);
	} else if (code != 0) {
		finish(m, b, BUILD_FAILED, code);
	} else if (++b->step < b->nsteps) {
		struct kerr e;
		if (start_step(m, b, &e) < 0)
			fail_start(m, b, &e);
	} else {
		finish(m, b, BUILD_OK, 0);
	}
}

static void reap(struct build_mgr *m, struct build *b, double now)
{
	if (b->pid > 0 && !b->reaped) {
		int st;
		pid_t r;
		while ((r = waitpid(b->pid, &st, WNOHANG)) < 0 && errno == EINTR)
			;
		if (r == b->pid || (r < 0 && errno == ECHILD)) {
			b->reaped = true;
			b->wstatus = r == b->pid ? st : (127 << 8);
			m->changed = true;
		}
	}
	if (!running(b))
		return;
	if (b->group_alive && !group_exists(b->pid))
		b->group_alive = false;
	if (b->group_alive && (b->reaped || b->cancel)) {
		/* a cancel, or members left behind by a finished leader: end them */
		if (!b->term_sent) {
			kill(-b->pid, SIGTERM);
			b->term_sent = now;
		} else if (now - b->term_sent >= m->grace) {
			kill(-b->pid, SIGKILL);
			b->killed = true;
		}
	}
	if (b->reaped && !b->group_alive)
		step_done(m, b);
}

void bmgr_tick(struct build_mgr *m)
{
	double now = build_now();
	bool any_running = false;
	for (size_t i = 0; i < m->nbuilds; i++) {
		struct build *b = m->builds[i];
		if (running(b))
			reap(m, b, now);
		any_running |= running(m->builds[i]);
	}
	if (m->pool_dirty && !any_running) {
		jobserver_repair(&m->js);
		m->pool_dirty = false;
	}
	start_queued(m);
}

int bmgr_pollfds(const struct build_mgr *m, struct pollfd *pfd, int max)
{
	int n = 0;
	bool queued = false;
	for (size_t i = 0; i < m->nbuilds; i++) {
		const struct build *b = m->builds[i];
		queued |= b->status == BUILD_QUEUED;
		if (b->out_fd >= 0 && n < max)
			pfd[n++] = (struct pollfd){.fd = b->out_fd, .events = POLLIN};
	}
	if (queued && n < max)
		pfd[n++] = (struct pollfd){.fd = jobserver_poll_fd(&m->js), .events = POLLIN};
	return n;
}

void bmgr_handle_fd(struct build_mgr *m, int fd, short revents)
{
	if (!revents)
		return;
	if (fd == jobserver_poll_fd(&m->js)) {
		start_queued(m);
		return;
	}
	for (size_t j = 0; j < m->nbuilds; j++) {
		struct build *b = m->builds[j];
		if (b->out_fd != fd)
			continue;
		read_output(m, b, READ_BUDGET);
		if (b->out_fd < 0) /* EOF: the step is probably over */
			reap(m, b, build_now());
		return;
	}
}

void bmgr_handle(struct build_mgr *m, const struct pollfd *pfd, int n)
{
	for (int i = 0; i < n; i++)
		bmgr_handle_fd(m, pfd[i].fd, pfd[i].revents);
}

int bmgr_timeout(const struct build_mgr *m)
{
	for (size_t i = 0; i < m->nbuilds; i++)
		if (running(m->builds[i]) || m->builds[i]->status == BUILD_QUEUED)
			return TICK_MS;
	return -1;
}

bool bmgr_busy(const struct build_mgr *m)
{
	for (size_t i = 0; i < m->nbuilds; i++)
		if (running(m->builds[i]) || !build_status_done(m->builds[i]->status))
			return true;
	return false;
}

bool bmgr_changed(struct build_mgr *m)
{
	bool c = m->changed;
	m->changed = false;
	return c;
}

void bmgr_step(struct build_mgr *m, int max_wait_ms)
{
	struct pollfd pfd[256];
	int n = bmgr_pollfds(m, pfd, (int)ARRAY_SIZE(pfd));
	int t = bmgr_timeout(m);
	if (t < 0 || (max_wait_ms >= 0 && max_wait_ms < t))
		t = max_wait_ms;
	if (poll(pfd, (nfds_t)n, t) > 0)
		bmgr_handle(m, pfd, n);
	bmgr_tick(m);
}

void bmgr_cancel(struct build_mgr *m, struct build *b)
{
	if (build_status_done(b->status) || b->cancel)
		return;
	if (b->status == BUILD_QUEUED) {
		b->cancel = true;
		finish(m, b, BUILD_CANCELLED, -1);
		sync_js_watch(m);
		return;
	}
	b->cancel = true;
	if (b->pid > 0) {
		kill(-b->pid, SIGTERM);
		b->term_sent = build_now();
	}
	m->changed = true;
}

void bmgr_cancel_all(struct build_mgr *m)
{
	for (size_t i = 0; i < m->nbuilds; i++)
		bmgr_cancel(m, m->builds[i]);
}

void bmgr_kill_all(const struct build_mgr *m)
{
	for (size_t i = 0; i < m->nbuilds; i++)
		if (m->builds[i]->pid > 0)
			kill(-m->builds[i]->pid, SIGKILL);
}

int bmgr_rerun(struct build_mgr *m, struct build *b, struct kerr *e)
{
	if (!build_status_done(b->status) || running(b))
		return kerr_set(e, "%s is %s: cancel it first", b->name,
				build_status_name(b->status));
	b->status = BUILD_QUEUED;
	b->exit_code = -1;
	b->cancel = b->killed = false;
	b->started = b->build_started = b->finished = 0;
	b->warnings = b->errors = 0;
	memset(&b->progress, 0, sizeof(b->progress));
	free(b->error);
	b->error = NULL;
	buildrec_load_expected(m->records_dir, b);
	m->changed = true;
	sync_js_watch(m);
	return 0;
}

double build_elapsed(const struct build *b)
{
	if (!b->started)
		return 0;
	return (b->finished ? b->finished : build_now()) - b->started;
}

long build_eta(const struct build *b)
{
	if (b->status == BUILD_QUEUED || build_status_done(b->status))
		return b->status == BUILD_QUEUED ? -1 : 0;
	if (b->status != BUILD_BUILDING)
		return -1;
	return kbuild_eta(&b->progress, build_now() - b->build_started);
}

double build_fraction(const struct build *b)
{
	if (b->status == BUILD_OK)
		return 1;
	if (b->status == BUILD_QUEUED || b->status == BUILD_CONFIGURING)
		return b->progress.expected ? 0 : -1;
	return kbuild_progress_fraction(&b->progress);
}
