/* Tests for the process side of core/build, through its poll() API and the
 * CLI: cancel (SIGTERM, then SIGKILL), SIGINT to klang build, nothing left
 * running, the jobserver made whole again, records and expected totals,
 * rerun, .config files and fragments, long lines, ccache and a real distccd. */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include "core/build.h"
#include "core/buildlogs.h"
#include "core/diag.h"
#include "core/util.h"
#include "tests/buildtest.h"
#include "tests/helpers.h"
#include "tests/kbuild_tree.h"

struct fixture {
	char *dir, *tree, *out, *records;
	struct build_mgr m;
};

static void setup(struct fixture *f, int jobs)
{
	struct kerr e;
	f->dir = test_tmpdir();
	f->tree = kbuild_tree_create(f->dir);
	f->out = xasprintf("%s/out", f->dir);
	f->records = xasprintf("%s/records", f->dir);
	CU_ASSERT_EQUAL_FATAL(bmgr_init(&f->m, jobs, &e), 0);
	bmgr_set_records_dir(&f->m, f->records);
}

static void teardown(struct fixture *f)
{
	bmgr_free(&f->m);
	test_rmdir(f->dir);
	free(f->dir);
	free(f->tree);
	free(f->out);
	free(f->records);
}

static struct build *add(struct fixture *f, const char *arch, const char *tc, const char *config)
{
	struct build_spec s = {
	    .srcdir = f->tree, .outroot = f->out, .arch = arch, .toolchain = tc, .config = config};
	struct kerr e;
	struct build *b = bmgr_add(&f->m, &s, &e);
	if (!b)
		fprintf(stderr, "\nbmgr_add: %s\n", e.msg);
	return b;
}

/* Run the loop until `until` holds or nothing is left, at most `secs`. */
static bool drive(struct build_mgr *m, double secs, bool (*until)(void *), void *arg)
{
	double end = build_now() + secs;
	while (bmgr_busy(m) && build_now() < end) {
		if (until && until(arg))
			return true;
		bmgr_step(m, 50);
	}
	return until ? until(arg) : !bmgr_busy(m);
}

static bool stalled(void *dir)
{
	char *needle = xasprintf("%s/stall-sleep", (char *)dir);
	int n = buildtest_count_procs(needle);
	free(needle);
	return n > 0;
}

/* What an fd-registering loop (tui/loop.c) would hold. */
struct watched {
	int fds[16], n, errors;
};

static void watch(int fd, bool on, void *data)
{
	struct watched *w = data;
	int i = 0;
	while (i < w->n && w->fds[i] != fd)
		i++;
	if (on == (i < w->n) || (on && w->n == 16)) {
		w->errors++; /* watched twice, or unwatched while not watched */
		return;
	}
	if (on)
		w->fds[w->n++] = fd;
	else
		w->fds[i] = w->fds[--w->n];
}

static void test_poll_api(void)
{
	struct fixture f;
	struct watched w = {.n = 0};
	setup(&f, 2);
	f.m.fd_watch = watch;
	f.m.fd_watch_data = &w;
	CU_ASSERT_EQUAL(bmgr_timeout(&f.m), -1); /* idle: no timer needed */
	struct build *b = add(&f, "x86_64", "gcc", "defconfig");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_TRUE(bmgr_changed(&f.m));
	CU_ASSERT_FALSE(bmgr_changed(&f.m));
	CU_ASSERT_EQUAL(b->status, BUILD_QUEUED);
	CU_ASSERT_EQUAL(build_fraction(b), -1); /* no record yet: indeterminate */
	struct pollfd pfd[8];
	CU_ASSERT_EQUAL(bmgr_pollfds(&f.m, pfd, 8), 1); /* the jobserver, for a token */
	CU_ASSERT_EQUAL(w.n, 1);
	CU_ASSERT_EQUAL(w.fds[0], pfd[0].fd);
	bmgr_tick(&f.m);
	CU_ASSERT_EQUAL(b->status, BUILD_CONFIGURING);
	CU_ASSERT_EQUAL(f.m.js.held, 1);
	CU_ASSERT_EQUAL(bmgr_pollfds(&f.m, pfd, 8), 1); /* now its output pipe */
	CU_ASSERT_EQUAL(pfd[0].fd, b->out_fd);
	CU_ASSERT_EQUAL(w.n, 1); /* the same, for a registering loop */
	CU_ASSERT_EQUAL(w.fds[0], b->out_fd);
	CU_ASSERT_TRUE(bmgr_timeout(&f.m) > 0);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_OK);
	CU_ASSERT_EQUAL(b->progress.objects, 7);
	CU_ASSERT_EQUAL(build_fraction(b), 1);
	CU_ASSERT_EQUAL(w.n, 0);
	CU_ASSERT_EQUAL(f.m.js.held, 0);
	CU_ASSERT_EQUAL(jobserver_available(&f.m.js), 2);
	CU_ASSERT_EQUAL(bmgr_timeout(&f.m), -1);
	/* a record was written: the same build now knows its total */
	struct build *again = add(&f, "x86_64", "gcc", "defconfig");
	CU_ASSERT_EQUAL(again->progress.expected, 7);
	CU_ASSERT_FALSE(again->expected_estimated);
	CU_ASSERT_EQUAL(build_fraction(again), 0);
	struct build *sibling = add(&f, "x86_64", "llvm", "defconfig");
	CU_ASSERT_EQUAL(sibling->progress.expected, 7); /* estimated from x86_64-gcc */
	CU_ASSERT_TRUE(sibling->expected_estimated);
	CU_ASSERT_EQUAL(add(&f, "x86_64", "llvm", "tinyconfig")->progress.expected, 0);
	bmgr_cancel_all(&f.m); /* queued ones are cancelled without running */
	CU_ASSERT_FALSE(bmgr_busy(&f.m));
	CU_ASSERT_EQUAL(again->status, BUILD_CANCELLED);
	/* which leaves its directory to the build before it: summary and log */
	struct kerr e;
	CU_ASSERT_STRING_EQUAL(again->outdir, b->outdir);
	char *sp = xasprintf("%s/summary.json", b->outdir);
	char *sum = read_file(sp, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL(sum && strstr(sum, "\"status\": \"ok\""));
	free(sum);
	free(sp);
	/* rerun a finished build: it runs again, from the same out dir */
	CU_ASSERT_EQUAL(bmgr_rerun(&f.m, b, &e), 0);
	CU_ASSERT_EQUAL(b->status, BUILD_QUEUED);
	CU_ASSERT_EQUAL(b->progress.expected, 7);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_OK);
	CU_ASSERT_EQUAL(b->progress.objects, 0); /* nothing changed: up to date */
	CU_ASSERT_EQUAL(w.n, 0);
	CU_ASSERT_EQUAL(w.errors, 0);
	char *log = read_file(b->log_path, NULL, &e); /* the log is the new run's */
	CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "GEN     .config"));
	CU_ASSERT_PTR_NULL(log ? strstr(strstr(log, "GEN     .config") + 1, "GEN     .config")
			       : NULL);
	free(log);
	teardown(&f);
}

/* Cancel one build while another runs: SIGTERM ends its whole group, the
 * other finishes, nothing is left, the pool is whole again. */
static void test_cancel(void)
{
	struct fixture f;
	setup(&f, 2);
	char *cc = buildtest_stalling_cc(f.dir, 0);
	struct build *slow = add(&f, "x86_64", cc, "defconfig");
	struct build *ok = add(&f, "arm64", "gcc", "defconfig");
	CU_ASSERT_PTR_NOT_NULL_FATAL(slow);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ok);
	CU_ASSERT_TRUE_FATAL(drive(&f.m, 30, stalled, f.dir));
	CU_ASSERT_EQUAL(slow->status, BUILD_BUILDING);
	pid_t pgid = slow->pid;
	double t0 = build_now();
	bmgr_cancel(&f.m, slow);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	CU_ASSERT_TRUE(build_now() - t0 < 3);
	CU_ASSERT_EQUAL(slow->status, BUILD_CANCELLED);
	CU_ASSERT_EQUAL(ok->status, BUILD_OK);
	CU_ASSERT_FALSE(slow->killed); /* SIGTERM was enough */
	CU_ASSERT_EQUAL(kill(-pgid, 0), -1);
	CU_ASSERT_EQUAL(buildtest_count_procs(f.dir), 0);
	CU_ASSERT_EQUAL(jobserver_available(&f.m.js), 2);
	free(cc);
	teardown(&f);
}

/* A build that ignores SIGTERM gets SIGKILL after the grace period. */
static void test_cancel_escalates(void)
{
	struct fixture f;
	setup(&f, 2);
	f.m.grace = 0.5;
	char *cc = buildtest_stalling_cc(f.dir, 1);
	struct build *b = add(&f, "x86_64", cc, "defconfig");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_TRUE_FATAL(drive(&f.m, 30, stalled, f.dir));
	double t0 = build_now();
	bmgr_cancel(&f.m, b);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	double took = build_now() - t0;
	CU_ASSERT_TRUE(took >= 0.5 && took < 3);
	CU_ASSERT_EQUAL(b->status, BUILD_CANCELLED);
	CU_ASSERT_TRUE(b->killed);
	CU_ASSERT_EQUAL(buildtest_count_procs(f.dir), 0);
	CU_ASSERT_EQUAL(jobserver_available(&f.m.js), 2); /* repaired */

	/* the crash path: SIGKILL to every group at once, nothing left */
	CU_ASSERT_EQUAL(bmgr_rerun(&f.m, b, &(struct kerr){0}), 0);
	CU_ASSERT_TRUE_FATAL(drive(&f.m, 30, stalled, f.dir));
	bmgr_kill_all(&f.m);
	CU_ASSERT_TRUE(drive(&f.m, 5, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_FAILED); /* killed, not cancelled */
	CU_ASSERT_EQUAL(b->exit_code, 128 + SIGKILL);
	CU_ASSERT_EQUAL(buildtest_count_procs(f.dir), 0);
	CU_ASSERT_EQUAL(jobserver_available(&f.m.js), 2);
	free(cc);
	teardown(&f);
}

static pid_t spawn_klang(const char *args, const char *outfile)
{
	char *cmd = xasprintf("exec %s build %s", test_klang_bin(), args);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	return pid;
}

static int wait_for(pid_t pid, double secs)
{
	double end = build_now() + secs;
	int st;
	while (build_now() < end) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(20000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/* Ctrl-C on klang build: every build cancelled, no make or compiler left.
 * `stubborn`: the compilers ignore SIGTERM, and a second Ctrl-C kills. */
static void sigint_case(bool stubborn)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir);
	char *cc = buildtest_stalling_cc(dir, stubborn);
	char *log = xasprintf("%s/klang.out", dir);
	char *args = xasprintf("--repo %s --arch x86_64,arm64 --toolchain %s,gcc --config "
			       "defconfig --jobs 4 --out %s/out",
			       tree, cc, dir);
	pid_t pid = spawn_klang(args, log);
	double end = build_now() + 30;
	while (!stalled(dir) && build_now() < end)
		usleep(20000);
	CU_ASSERT_TRUE_FATAL(stalled(dir));
	CU_ASSERT_TRUE(buildtest_count_procs(tree) > 0); /* the makes, with -C TREE */
	double t0 = build_now();
	kill(pid, SIGINT);
	if (stubborn) {
		usleep(300000);
		CU_ASSERT_TRUE(stalled(dir)); /* SIGTERM ignored */
		kill(pid, SIGINT);
	}
	CU_ASSERT_EQUAL(wait_for(pid, 20), 1);
	CU_ASSERT_TRUE(build_now() - t0 < 4); /* well within the 5 s grace */
	CU_ASSERT_EQUAL(buildtest_count_procs(dir), 0);
	char *sp = xasprintf("%s/out/summary.json", dir);
	json_t *sum = json_load_file(sp, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	size_t i, cancelled = 0;
	json_t *b;
	json_array_foreach(json_object_get(sum, "builds"), i, b)
	{
		const char *st = json_string_value(json_object_get(b, "status"));
		cancelled += st && !strcmp(st, "cancelled");
	}
	CU_ASSERT_TRUE(cancelled >= 2); /* the stalled ones; a gcc one may have finished */
	struct kerr e;
	char *text = read_file(log, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "klang: cancelling"));
	free(text);
	json_decref(sum);
	free(sp);
	free(args);
	free(log);
	free(cc);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

static void test_sigint(void)
{
	sigint_case(false);
	sigint_case(true);
}

/* --config FILE plus fragments (a file and a line), merged, olddefconfig. */
static void test_config_file_and_fragments(void)
{
	struct fixture f;
	setup(&f, 2);
	struct kerr e;
	char *cfg = xasprintf("%s/my.config", f.dir), *frag = xasprintf("%s/mm.config", f.dir);
	CU_ASSERT_EQUAL(write_file_atomic(cfg, "CONFIG_FORK=y\nCONFIG_MM=n\n", 26, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(frag, "CONFIG_MM=y\n", 12, &e), 0);
	const char *frags[] = {frag, "CONFIG_SCHED=y"};
	struct build_spec s = {.srcdir = f.tree,
			       .outroot = f.out,
			       .arch = "arm64",
			       .toolchain = "clang",
			       .config = cfg,
			       .fragments = frags,
			       .nfragments = 2};
	struct build *b = bmgr_add(&f.m, &s, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_OK);
	CU_ASSERT_EQUAL(b->progress.objects, 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(b->reproducer, "&& cp "));
	CU_ASSERT_PTR_NOT_NULL(strstr(b->reproducer, " olddefconfig && cat "));
	char *vmlinux = xasprintf("%s/arm64-clang/vmlinux", f.out);
	CU_ASSERT_EQUAL(buildtest_elf_machine(vmlinux), 183);
	free(vmlinux);
	free(cfg);
	free(frag);
	teardown(&f);
}

/* A 1 MiB line reaches the log whole; the build is not disturbed. */
static void test_long_line(void)
{
	struct fixture f;
	setup(&f, 1);
	struct kerr e;
	char *cc = xasprintf("%s/noisy-cc", f.dir);
	char *text = xasprintf("#!/bin/sh\nhead -c 1048576 /dev/zero | tr '\\0' x\necho\n"
			       "exec gcc \"$@\"\n");
	CU_ASSERT_EQUAL(write_file_atomic(cc, text, strlen(text), &e), 0);
	CU_ASSERT_EQUAL(chmod(cc, 0755), 0);
	struct build *b = add(&f, "x86_64", cc, "tinyconfig");
	CU_ASSERT_TRUE(drive(&f.m, 60, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_OK);
	CU_ASSERT_EQUAL(b->progress.objects, 3);
	size_t len = 0;
	char *log = read_file(b->log_path, &len, &e);
	CU_ASSERT_TRUE(len > 3 * 1048576);
	free(log);
	free(text);
	free(cc);
	teardown(&f);
}

static void test_ccache(void)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir), *out;
	char *cmd = xasprintf("CCACHE_DIR=%s/ccache %s build --repo %s --arch x86_64 --toolchain "
			      "gcc --config defconfig --wrapper ccache --out %s/o",
			      dir, test_klang_bin(), tree, dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	free(out);
	char *count = xasprintf("find %s/ccache -type f -name '*R' | wc -l", dir);
	CU_ASSERT_EQUAL(test_run(count, &out, NULL), 0);
	CU_ASSERT_EQUAL(atoi(out), 7); /* one result per object */
	free(out);
	char *sp = xasprintf("%s/o/summary.json", dir);
	json_t *sum = json_load_file(sp, 0, NULL);
	json_t *b = json_array_get(json_object_get(sum, "builds"), 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(json_string_value(json_object_get(b, "command")), "'CC=ccache gcc'"));
	json_decref(sum);
	free(sp);
	free(count);
	free(cmd);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

static int free_port(void)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0)
		return -1;
	close(s);
	return ntohs(a.sin_port);
}

/* A real distccd on 127.0.0.1: every object compiled there, no fallback. */
static void test_distcc(void)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir), *out;
	int port = free_port();
	CU_ASSERT_TRUE_FATAL(port > 0);
	char *dlog = xasprintf("%s/distccd.log", dir), *ports = xasprintf("%d", port);
	pid_t d = fork();
	if (d == 0) {
		int fd = open(dlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		execlp("distccd", "distccd", "--no-detach", "--daemon", "--listen", "127.0.0.1",
		       "--port", ports, "--allow", "127.0.0.1", "--log-stderr", "--log-level",
		       "info", "--jobs", "2", (char *)NULL);
		_exit(127);
	}
	struct kerr e;
	char *text = NULL;
	for (int i = 0; i < 100 && !(text && strstr(text, "listening")); i++) {
		free(text);
		usleep(20000);
		text = read_file(dlog, NULL, &e);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(text && strstr(text, "listening"));
	free(text);
	char *cmd = xasprintf("DISTCC_HOSTS=127.0.0.1:%d/2 DISTCC_FALLBACK=0 "
			      "DISTCC_SKIP_LOCAL_RETRY=1 %s build --repo %s --arch x86_64,arm64 "
			      "--toolchain gcc,llvm --config defconfig --wrapper distcc --jobs 2 "
			      "--out %s/o",
			      port, test_klang_bin(), tree, dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	kill(d, SIGTERM);
	waitpid(d, NULL, 0);
	text = read_file(dlog, NULL, &e);
	int ok = 0;
	for (const char *p = text; p && (p = strstr(p, "COMPILE_OK")); p++)
		ok++;
	CU_ASSERT_EQUAL(ok, 4 * 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "arm64-llvm: ok (exit 0), 7 objects"));
	free(text);
	free(out);
	free(cmd);
	free(ports);
	free(dlog);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

/* Another klang building in the same directory holds its lock: this build
 * fails at once, leaving that build's log and summary as they are. */
static void test_dir_lock(void)
{
	struct fixture f;
	struct kerr e;
	setup(&f, 2);
	struct build *b = add(&f, "x86_64", "gcc", "defconfig");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(b->outdir, &e), 0);
	char *lock = xasprintf("%s/.klang-build.lock", b->outdir);
	char *sum = xasprintf("%s/summary.json", b->outdir);
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	CU_ASSERT_FATAL(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0);
	CU_ASSERT_EQUAL(write_file_atomic(b->log_path, "theirs\n", 7, &e), 0);
	CU_ASSERT_TRUE(drive(&f.m, 10, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_FAILED);
	CU_ASSERT_PTR_NOT_NULL(b->error && strstr(b->error, "another klang is building in "));
	char *log = read_file(b->log_path, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL(log && !strcmp(log, "theirs\n"));
	free(log);
	CU_ASSERT_FALSE(file_exists(sum));
	CU_ASSERT_EQUAL(jobserver_available(&f.m.js), 2); /* its token is back */
	/* klang build says so, exit 1, and shows no log tail: the log is not its own */
	char *cmd = xasprintf("%s build --repo %s --arch x86_64 --toolchain gcc --config defconfig "
			      "--out %s",
			      test_klang_bin(), f.tree, f.out);
	char *out = NULL;
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 1);
	CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "klang: another klang is building in "));
	CU_ASSERT_PTR_NULL(out ? strstr(out, "    | ") : "");
	free(out);
	free(cmd);
	log = read_file(b->log_path, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL(log && !strcmp(log, "theirs\n"));
	free(log);
	/* once the other is done, the same build runs */
	close(fd);
	CU_ASSERT_EQUAL(bmgr_rerun(&f.m, b, &e), 0);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_OK);
	CU_ASSERT_TRUE(file_exists(sum));
	free(lock);
	free(sum);
	teardown(&f);
}

/* The files of the diagnostics buildlogs_parse reads for a build: the log
 * with the logs kept before it, or (alone) the log only. */
static char *warned_files(const char *log, bool alone)
{
	struct kerr e;
	struct diag_set *s = diag_set_new();
	struct diag_parser_opts o = {.cc = DIAG_CC_GCC};
	int rc = (alone ? diag_parse_file : buildlogs_parse)(s, log, &o, &e);
	CU_ASSERT_EQUAL(rc, 0);
	diag_set_sort(s);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < diag_set_size(s); i++)
		sb_addf(&sb, "%s%s", i ? " " : "", diag_set_get(s, i)->loc.file);
	diag_set_free(s);
	return sb_detach(&sb);
}

static void rebuild(struct fixture *f, struct build *b, unsigned long objects)
{
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(bmgr_rerun(&f->m, b, &e), 0);
	CU_ASSERT_TRUE(drive(&f->m, 30, NULL, NULL));
	CU_ASSERT_EQUAL(b->status, BUILD_OK);
	CU_ASSERT_EQUAL(b->progress.objects, objects);
}

static void edit(struct fixture *f, const char *file, const char *text)
{
	struct kerr e;
	char *path = xasprintf("%s/%s", f->tree, file);
	CU_ASSERT_EQUAL(write_file_atomic(path, text, strlen(text), &e), 0);
	free(path);
}

#define EXPECT_FILES(log, alone, want)                                                             \
	do {                                                                                       \
		char *got_ = warned_files(log, alone);                                             \
		CU_ASSERT_STRING_EQUAL(got_, want);                                                \
		if (strcmp(got_, want))                                                            \
			fprintf(stderr, "\n%s:%d: got '%s'\n", __FILE__, __LINE__, got_);          \
		free(got_);                                                                        \
	} while (0)

/* Kbuild compiles again only what changed: the warnings of the tree are
 * those of the last log that compiled each unit, read across the logs kept
 * in earlier/ (for the warnings view and klang diag diff). */
static void test_incremental_logs(void)
{
	struct fixture f;
	setup(&f, 2);
	struct kerr e;
	const char *frags[] = {"CONFIG_WARN=y"};
	struct build_spec s = {.srcdir = f.tree,
			       .outroot = f.out,
			       .arch = "x86_64",
			       .toolchain = "gcc",
			       .config = "defconfig",
			       .fragments = frags,
			       .nfragments = 1};
	struct build *b = bmgr_add(&f.m, &s, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	CU_ASSERT_EQUAL(b->progress.objects, 8);
	EXPECT_FILES(b->log_path, false, "lib/warn.c");
	char *one = xasprintf("%s/earlier/1.log", b->outdir),
	     *two = xasprintf("%s/earlier/2.log", b->outdir),
	     *three = xasprintf("%s/earlier/3.log", b->outdir),
	     *four = xasprintf("%s/earlier/4.log", b->outdir);
	/* a new warning in fork.c: only fork.o is compiled, warn.c's comes
	 * from the log before */
	edit(&f, "kernel/fork.c",
	     "int do_fork(int x)\n{\n\tint unused_fork;\n\treturn x + 1;\n}\n");
	rebuild(&f, b, 1);
	CU_ASSERT_TRUE(file_exists(one));
	EXPECT_FILES(b->log_path, true, "kernel/fork.c");
	EXPECT_FILES(b->log_path, false, "kernel/fork.c lib/warn.c");
	/* warn.c fixed: its warning goes, fork.c's stays (from 2.log) */
	edit(&f, "lib/warn.c", "int warn_me(void)\n{\n\treturn 0;\n}\n");
	rebuild(&f, b, 1);
	EXPECT_FILES(b->log_path, false, "kernel/fork.c");
	/* nothing changed: nothing compiled, nothing lost */
	rebuild(&f, b, 0);
	EXPECT_FILES(b->log_path, false, "kernel/fork.c");
	CU_ASSERT_EQUAL(buildlogs_earlier(b->log_path), 3);
	CU_ASSERT_EQUAL(buildlogs_earlier_warned(b->log_path), 2); /* not warn.c's fix */
	/* fork.c's warning fixed: nothing left, whatever the logs before said */
	edit(&f, "kernel/fork.c", "int do_fork(int x) { return x + 1; }\n");
	rebuild(&f, b, 1);
	EXPECT_FILES(b->log_path, false, "");
	/* the up-to-date log was not kept (3.log is warn.c's build), and
	 * 2.log (fork.c's) went once fork.c was compiled again */
	CU_ASSERT_TRUE(file_exists(one) && !file_exists(two) && file_exists(three) &&
		       !file_exists(four));
	/* every source touched: all compiled again; then the logs before
	 * that build have nothing left to say and go */
	static const char *const srcs[] = {"init/main.c",   "lib/string.c",	      "lib/warn.c",
					   "kernel/fork.c", "kernel/sched.c",	      "mm/page.c",
					   "mm/slab.c",	    "arch/x86/kernel/setup.c"};
	for (size_t i = 0; i < ARRAY_SIZE(srcs); i++) {
		char *path = xasprintf("%s/%s", f.tree, srcs[i]);
		CU_ASSERT_EQUAL(utime(path, NULL), 0);
		free(path);
	}
	rebuild(&f, b, 8);
	CU_ASSERT_EQUAL(buildlogs_earlier(b->log_path), 0); /* gone as it finished */
	char *kept_dir = xasprintf("%s/earlier", b->outdir);
	CU_ASSERT_FALSE(is_dir(kept_dir)); /* and their directory */
	free(kept_dir);
	rebuild(&f, b, 0);
	CU_ASSERT_EQUAL(buildlogs_earlier(b->log_path), 1);
	CU_ASSERT_TRUE(file_exists(one) && !file_exists(two) && !file_exists(three) &&
		       !file_exists(four)); /* the full build's, numbered afresh */
	CU_ASSERT_EQUAL(buildlogs_earlier_warned(b->log_path), 0); /* and it warned of nothing */
	EXPECT_FILES(b->log_path, false, "");
	/* another config in the same directory: another kernel, nothing kept */
	s.config = "tinyconfig";
	struct build *tiny = bmgr_add(&f.m, &s, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tiny);
	CU_ASSERT_TRUE(drive(&f.m, 30, NULL, NULL));
	CU_ASSERT_EQUAL(tiny->progress.objects, 4);
	CU_ASSERT_EQUAL(buildlogs_earlier(tiny->log_path), 0);
	free(one);
	free(two);
	free(three);
	free(four);
	teardown(&f);
}

/* A kept log warns if a marker is anywhere in it, across the reader's
 * 64 KiB reads too; one with none adds nothing to the tree's warnings. */
static void test_earlier_warned(void)
{
	char *dir = test_tmpdir(), *kept = xasprintf("%s/earlier", dir),
	     *log = xasprintf("%s/build.log", dir), *one = xasprintf("%s/1.log", kept),
	     *two = xasprintf("%s/2.log", kept);
	CU_ASSERT_FATAL(!mkdir(kept, 0700));
	size_t n = 65536 - 4;
	char *text = xcalloc(n + 32, 1);
	memset(text, 'x', n);
	strcpy(text + n, ": warning: across\n");
	CU_ASSERT_FATAL(!write_file_atomic(one, text, strlen(text), &(struct kerr){0}));
	memset(text, ' ', n); /* a log of a build that compiled without a warning */
	strcpy(text + n, "  CC      kernel/fork.o\n");
	CU_ASSERT_FATAL(!write_file_atomic(two, text, strlen(text), &(struct kerr){0}));
	CU_ASSERT_EQUAL(buildlogs_earlier(log), 2);
	CU_ASSERT_EQUAL(buildlogs_earlier_warned(log), 1);
	free(text);
	free(one);
	free(two);
	free(log);
	free(kept);
	test_rmdir(dir);
	free(dir);
}

void suite_buildrun(void)
{
	CU_pSuite s = CU_add_suite("buildrun", NULL, NULL);
	CU_add_test(s, "poll API, records, estimates, rerun", test_poll_api);
	CU_add_test(s, "cancel: SIGTERM to the group", test_cancel);
	CU_add_test(s, "cancel: SIGKILL after the grace period", test_cancel_escalates);
	CU_add_test(s, "one build at a time in a directory", test_dir_lock);
	CU_add_test(s, "SIGINT to klang build leaves nothing", test_sigint);
	CU_add_test(s, ".config file and fragments", test_config_file_and_fragments);
	CU_add_test(s, "a 1 MiB line", test_long_line);
	CU_add_test(s, "incremental builds: warnings across the logs kept", test_incremental_logs);
	CU_add_test(s, "kept logs that warn, read in 64 KiB pieces", test_earlier_warned);
	CU_add_test(s, "--wrapper ccache", test_ccache);
	CU_add_test(s, "--wrapper distcc with a real distccd", test_distcc);
}
