/* Tests for core/lockfile: the lock excludes another process, concurrent
 * read-merge-write updates from several processes lose nothing, corrupt
 * files are moved aside (never over an older .corrupt), new files are
 * never written over existing ones and leave nothing behind on failure. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/lockfile.h"
#include "core/util.h"
#include "tests/helpers.h"

/* The names in dir (ls -A) are exactly `want`. */
static void assert_files(const char *dir, const char *want)
{
	char *cmd = xasprintf("ls -A '%s'", dir), *out;
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
	free(cmd);
}

static void test_lock_path(void)
{
	char *p = state_lock_path("/r/.klang/overrides.yaml");
	CU_ASSERT_STRING_EQUAL(p, "/r/.klang/overrides.lock");
	free(p);
	p = state_lock_path("/r.x/.klang/state");
	CU_ASSERT_STRING_EQUAL(p, "/r.x/.klang/state.lock");
	free(p);
}

/* Can another process take the lock without waiting? */
static bool other_can_lock(const char *lock)
{
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(lock, O_RDWR);
		_exit(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void test_lock_excludes(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/triage.yaml", dir);
	struct state_lock l;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(state_lock(&l, path, &e), 0);
	CU_ASSERT_STRING_EQUAL(l.path + strlen(dir), "/triage.lock");
	CU_ASSERT(!other_can_lock(l.path));
	char *lock = xstrdup(l.path);
	state_unlock(&l);
	CU_ASSERT(other_can_lock(lock));
	free(lock);
	free(path);
	test_rmdir(dir);
	free(dir);
}

/* A store of lines; each update adds one line to what is there now. */
static int add_line(void *data, const char *path, const char *text, size_t len, struct strbuf *out,
		    struct kerr *e)
{
	(void)path;
	(void)e;
	if (text && memchr(text, '!', len))
		return kerr_set(e, "%s:1:1: a '!' is not allowed", path), STATE_CORRUPT;
	if (text)
		sb_add(out, text, len);
	sb_addf(out, "%s\n", (const char *)data);
	return 0;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void test_concurrent_updates(void)
{
	enum { PROCS = 4, EACH = 25 };
	char *dir = test_tmpdir(), *path = xasprintf("%s/.klang/lines.txt", dir);
	pid_t pids[PROCS];
	for (int p = 0; p < PROCS; p++) {
		pids[p] = fork();
		if (pids[p] == 0) {
			for (int i = 0; i < EACH; i++) {
				char line[32];
				struct kerr e;
				snprintf(line, sizeof(line), "p%d-%d", p, i);
				if (state_update(path, add_line, line, &e) != 0)
					_exit(1);
			}
			_exit(0);
		}
	}
	int ok = 0;
	for (int p = 0; p < PROCS; p++) {
		int st;
		waitpid(pids[p], &st, 0);
		ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	CU_ASSERT_EQUAL(ok, PROCS);
	struct kerr e;
	char *text = read_file(path, NULL, &e);
	CU_ASSERT_EQUAL(count_lines(text), PROCS * EACH);
	CU_ASSERT(text && strstr(text, "p0-24\n") && strstr(text, "p3-0\n"));
	free(text);
	/* no temporary file left behind */
	char *kdir = xasprintf("%s/.klang", dir);
	assert_files(kdir, ".gitignore\nlines.lock\nlines.txt\n");
	free(kdir);
	free(path);
	test_rmdir(dir);
	free(dir);
}

struct loaded {
	int calls;
	bool empty;
};

static int parse_lines(void *data, const char *path, const char *text, size_t len, struct kerr *e)
{
	struct loaded *l = data;
	l->calls++;
	l->empty = !text;
	if (text && memchr(text, '!', len))
		return kerr_set(e, "%s:2:3: a '!' is not allowed", path), STATE_CORRUPT;
	return 0;
}

static void test_corrupt_moved_aside(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/s.yaml", dir);
	struct kerr e;
	struct loaded l = {0};
	/* missing: an empty state, nothing created */
	CU_ASSERT_EQUAL(state_load(path, parse_lines, &l, &e), 0);
	CU_ASSERT(l.empty && l.calls == 1);
	CU_ASSERT(!file_exists(path));

	CU_ASSERT_EQUAL(write_file_atomic(path, "a\nb !\n", 6, &e), 0);
	l.calls = 0;
	CU_ASSERT_EQUAL(state_load(path, parse_lines, &l, &e), 1);
	CU_ASSERT(l.empty && l.calls == 2);
	char *want =
	    xasprintf("%s:2:3: a '!' is not allowed; moved aside to %s.corrupt", path, path);
	CU_ASSERT_STRING_EQUAL(e.msg, want);
	free(want);
	CU_ASSERT(!file_exists(path));
	char *c1 = xasprintf("%s.corrupt", path), *c2 = xasprintf("%s.corrupt.2", path);
	char *text = read_file(c1, NULL, &e);
	CU_ASSERT_STRING_EQUAL(text, "a\nb !\n");
	free(text);

	/* a second corrupt file does not replace the first; an update writes
	 * a fresh file and says what it moved */
	CU_ASSERT_EQUAL(write_file_atomic(path, "!!\n", 3, &e), 0);
	CU_ASSERT_EQUAL(state_update(path, add_line, "fresh", &e), 1);
	CU_ASSERT(strstr(e.msg, "moved aside to") && strstr(e.msg, ".corrupt.2"));
	text = read_file(c2, NULL, &e);
	CU_ASSERT_STRING_EQUAL(text, "!!\n");
	free(text);
	text = read_file(c1, NULL, &e);
	CU_ASSERT_STRING_EQUAL(text, "a\nb !\n");
	free(text);
	text = read_file(path, NULL, &e);
	CU_ASSERT_STRING_EQUAL(text, "fresh\n");
	free(text);

	/* a directory where the file should be is an error, not corruption */
	CU_ASSERT_EQUAL(unlink(path), 0);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	CU_ASSERT_EQUAL(state_load(path, parse_lines, &l, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "is a directory"));
	CU_ASSERT(is_dir(path));
	free(c1);
	free(c2);
	free(path);
	test_rmdir(dir);
	free(dir);
}

static void test_write_new(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/0001-x.patch", dir);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_new(path, "one\n", 4, &e), 0);
	CU_ASSERT_EQUAL(write_file_new(path, "two\n", 4, &e), -1);
	char *want = xasprintf("%s exists; klang will not overwrite it", path);
	CU_ASSERT_STRING_EQUAL(e.msg, want);
	free(want);
	char *text = read_file(path, NULL, &e);
	CU_ASSERT_STRING_EQUAL(text, "one\n");
	free(text);
	/* into a directory that does not exist: an error naming the file */
	char *bad = xasprintf("%s/no/such/dir/f", dir);
	CU_ASSERT_EQUAL(write_file_new(bad, "x", 1, &e), -1);
	CU_ASSERT(strstr(e.msg, bad) && strstr(e.msg, "No such file or directory"));
	free(bad);
	assert_files(dir, "0001-x.patch\n");
	free(path);
	test_rmdir(dir);
	free(dir);
}

/* A repository that uses klang shows git the state a team shares
 * (.klang/triage.yaml) and not klang's scratch (the lock, build trees). */
static void test_scratch_ignored(void)
{
	char *dir = test_tmpdir(), *state = xasprintf("%s/.klang", dir);
	char *path = xasprintf("%s/triage.yaml", state), *out = NULL;
	struct kerr e;
	char *cmd = xasprintf("git init -q '%s'", dir);
	CU_ASSERT_EQUAL_FATAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(state, &e), 0);
	struct state_lock l;
	CU_ASSERT_EQUAL_FATAL(state_lock(&l, path, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(path, "x: 1\n", 5, &e), 0);
	state_unlock(&l);
	cmd = xasprintf("mkdir -p '%s/out/arm64-clang' && touch '%s/out/arm64-clang/build.log' && "
			"cd '%s' && git status --porcelain -uall",
			state, state, dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT_STRING_EQUAL(out, "?? .klang/.gitignore\n?? .klang/triage.yaml\n");
	free(out);
	free(cmd);
	/* a .gitignore the user edited is theirs */
	char *gi = xasprintf("%s/.gitignore", state);
	CU_ASSERT_EQUAL(write_file_atomic(gi, "mine\n", 5, &e), 0);
	state_dir_ignore_scratch(dir);
	char *text = read_file(gi, NULL, &e);
	CU_ASSERT_STRING_EQUAL(text, "mine\n");
	free(text);
	free(gi);
	free(path);
	free(state);
	test_rmdir(dir);
	free(dir);
}

void suite_lockfile(void)
{
	CU_pSuite s = CU_add_suite("lockfile", NULL, NULL);
	CU_add_test(s, "lock file path", test_lock_path);
	CU_add_test(s, "klang's scratch is ignored by git, shared state is not",
		    test_scratch_ignored);
	CU_add_test(s, "the lock excludes another process", test_lock_excludes);
	CU_add_test(s, "four processes updating at once lose nothing", test_concurrent_updates);
	CU_add_test(s, "corrupt files are moved aside, never overwritten",
		    test_corrupt_moved_aside);
	CU_add_test(s, "new files: atomic, never over an existing one", test_write_new);
}
