/* Tests for core/jobserver: the token pool, MAKEFLAGS, and real GNU makes
 * sharing the pool without ever running more jobs than it has slots. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/jobserver.h"
#include "core/util.h"
#include "tests/buildtest.h"
#include "tests/helpers.h"

static void test_tokens(void)
{
	struct jobserver js;
	struct kerr e;
	for (int style = JOBSERVER_PIPE; style <= JOBSERVER_FIFO; style++) {
		CU_ASSERT_EQUAL_FATAL(jobserver_init(&js, 3, style, &e), 0);
		CU_ASSERT_EQUAL(jobserver_available(&js), 3);
		CU_ASSERT_TRUE(jobserver_try_acquire(&js));
		CU_ASSERT_TRUE(jobserver_try_acquire(&js));
		CU_ASSERT_TRUE(jobserver_try_acquire(&js));
		CU_ASSERT_FALSE(jobserver_try_acquire(&js)); /* empty: never blocks */
		CU_ASSERT_EQUAL(js.held, 3);
		jobserver_release(&js);
		CU_ASSERT_EQUAL(jobserver_available(&js), 1);
		/* a killed make kept a token: repair restores slots - held */
		CU_ASSERT_TRUE(jobserver_try_acquire(&js));
		js.held--; /* pretend a child took it and died */
		jobserver_repair(&js);
		CU_ASSERT_EQUAL(jobserver_available(&js), 3 - js.held);
		char *fifo = js.fifo ? xstrdup(js.fifo) : NULL;
		jobserver_free(&js);
		if (fifo)
			CU_ASSERT_FALSE(file_exists(fifo)); /* cleaned up */
		free(fifo);
	}
	CU_ASSERT_EQUAL(jobserver_init(&js, 0, JOBSERVER_PIPE, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "0 slots"));
}

static void test_makeflags(void)
{
	struct jobserver js;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(jobserver_init(&js, 4, JOBSERVER_PIPE, &e), 0);
	char *mf = jobserver_makeflags(&js), *want;
	want = xasprintf("-j4 --jobserver-auth=%d,%d", js.rfd, js.wfd);
	CU_ASSERT_STRING_EQUAL(mf, want);
	CU_ASSERT_TRUE(js.rfd > 2 && js.wfd > 2);
	free(mf);
	free(want);
	jobserver_free(&js);
	CU_ASSERT_EQUAL_FATAL(jobserver_init(&js, 2, JOBSERVER_FIFO, &e), 0);
	mf = jobserver_makeflags(&js);
	want = xasprintf("-j2 --jobserver-auth=fifo:%s", js.fifo);
	CU_ASSERT_STRING_EQUAL(mf, want);
	free(mf);
	free(want);
	jobserver_free(&js);

	int maj, min;
	CU_ASSERT_TRUE(
	    jobserver_parse_make_version("GNU Make 4.4.1\nBuilt for x86_64", &maj, &min));
	CU_ASSERT_EQUAL(maj, 4);
	CU_ASSERT_EQUAL(min, 4);
	CU_ASSERT_FALSE(jobserver_parse_make_version("bmake 20200710", &maj, &min));
	/* this machine's make: 4.3 takes the pipe, 4.4 and later the fifo */
	CU_ASSERT_EQUAL(jobserver_style_for("GNU Make 4.4.1"), JOBSERVER_FIFO);
	CU_ASSERT_EQUAL(jobserver_style_for("GNU Make 5.0"), JOBSERVER_FIFO);
	CU_ASSERT_EQUAL(jobserver_style_for("GNU Make 4.3"), JOBSERVER_PIPE);
	CU_ASSERT_EQUAL(jobserver_style_for(NULL), JOBSERVER_PIPE);
}

/* A Makefile of `jobs` jobs; each records how many jobs run at once. */
static char *counting_tree(const char *dir, int jobs)
{
	struct kerr e;
	char *mk = xasprintf("%s/Makefile", dir), *sh = xasprintf("%s/count.sh", dir);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "all:");
	for (int i = 0; i < jobs; i++)
		sb_addf(&sb, " j%d", i);
	sb_addf(&sb, "\nj%%:\n\t@sh %s\n", sh);
	write_file_atomic(mk, sb.buf, sb.len, &e);
	sb_reset(&sb);
	sb_addf(&sb,
		"D=%s\n"
		"( flock 9; n=$(( $(cat $D/cur 2>/dev/null || echo 0) + 1 )); echo $n > $D/cur;"
		" echo $n >> $D/log ) 9>$D/lock\n"
		"sleep 0.15\n"
		"( flock 9; echo $(( $(cat $D/cur) - 1 )) > $D/cur ) 9>$D/lock\n",
		dir);
	write_file_atomic(sh, sb.buf, sb.len, &e);
	sb_free(&sb);
	free(sh);
	return mk;
}

static pid_t spawn_make(const struct jobserver *js, const char *dir)
{
	char *mf = jobserver_makeflags(js);
	pid_t pid = fork();
	if (pid == 0) {
		jobserver_child_prepare(js);
		setenv("MAKEFLAGS", mf, 1);
		unsetenv("MAKELEVEL");
		execlp("make", "make", "-s", "-C", dir, (char *)NULL);
		_exit(127);
	}
	free(mf);
	return pid;
}

static int wait_ok(pid_t pid)
{
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Two makes on one pool of 3: max 3 jobs when klang holds one token per
 * make (its implicit slot); more when it does not, so the count can fail. */
static void run_two(int slots, bool hold_tokens, int *max)
{
	char *d1 = test_tmpdir(), *d2 = test_tmpdir();
	free(counting_tree(d1, 8));
	free(counting_tree(d2, 8));
	char *log2 = xasprintf("%s/log", d2);
	/* both makes count into d1's files */
	char *sh = xasprintf("%s/count.sh", d2),
	     *cmd = xasprintf("sed -i 's|^D=.*|D=%s|' %s", d1, sh);
	CU_ASSERT_EQUAL(system(cmd), 0);
	struct jobserver js;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(jobserver_init(&js, slots, JOBSERVER_PIPE, &e), 0);
	if (hold_tokens) {
		CU_ASSERT_TRUE(jobserver_try_acquire(&js));
		CU_ASSERT_TRUE(jobserver_try_acquire(&js));
	}
	pid_t a = spawn_make(&js, d1), b = spawn_make(&js, d2);
	CU_ASSERT_EQUAL(wait_ok(a), 0);
	CU_ASSERT_EQUAL(wait_ok(b), 0);
	if (hold_tokens) {
		jobserver_release(&js);
		jobserver_release(&js);
	}
	CU_ASSERT_EQUAL(jobserver_available(&js), slots); /* makes gave every token back */
	*max = buildtest_max_concurrency(d1);
	jobserver_free(&js);
	free(sh);
	free(cmd);
	free(log2);
	test_rmdir(d1);
	test_rmdir(d2);
	free(d1);
	free(d2);
}

static void test_real_make_bound(void)
{
	int max;
	run_two(3, true, &max);
	CU_ASSERT_TRUE(max <= 3);
	CU_ASSERT_TRUE(max > 1);
	/* control: without klang's tokens each make adds an implicit slot */
	run_two(3, false, &max);
	CU_ASSERT_TRUE(max > 3);

	/* one make, pool of 3, one token held for it: exactly 3 at once */
	char *d = test_tmpdir();
	free(counting_tree(d, 8));
	struct jobserver js;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(jobserver_init(&js, 3, JOBSERVER_PIPE, &e), 0);
	CU_ASSERT_TRUE(jobserver_try_acquire(&js));
	CU_ASSERT_EQUAL(wait_ok(spawn_make(&js, d)), 0);
	jobserver_release(&js);
	CU_ASSERT_EQUAL(buildtest_max_concurrency(d), 3);
	jobserver_free(&js);
	test_rmdir(d);
	free(d);
}

void suite_jobserver(void)
{
	CU_pSuite s = CU_add_suite("jobserver", NULL, NULL);
	CU_add_test(s, "token pool, pipe and fifo", test_tokens);
	CU_add_test(s, "MAKEFLAGS and make version", test_makeflags);
	CU_add_test(s, "real makes never exceed the slots", test_real_make_bound);
}
