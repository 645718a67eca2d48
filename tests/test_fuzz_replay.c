/* Replays every fuzz input kept in the tree through the fuzz targets, in the
 * ordinary test build (as libgit2 does): fuzz/corpus/NAME/ (seeds cut from
 * the real fixtures) and fuzz/regressions/NAME/ (every crash a fuzzer ever
 * found). Each target file is #included here with FUZZ_REPLAY, which names
 * its entry point fuzz_NAME instead of LLVMFuzzerTestOneInput. A crash, a
 * sanitizer report (make asan) or a failed FUZZ_CHECK fails the suite. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "tests/helpers.h"

#define FUZZ_REPLAY 1
unsigned fuzz_failures;
static char *replay_dirs[16];
static size_t nreplay_dirs;
void fuzz_replay_made(const char *dir);
void fuzz_replay_made(const char *dir)
{
	if (nreplay_dirs < ARRAY_SIZE(replay_dirs))
		replay_dirs[nreplay_dirs++] = xstrdup(dir);
}

#include "fuzz/fuzz_clangver.c"
#include "fuzz/fuzz_config.c"
#include "fuzz/fuzz_diag.c"
#include "fuzz/fuzz_mbox.c"
#include "fuzz/fuzz_message.c"
#include "fuzz/fuzz_overrides.c"
#include "fuzz/fuzz_patchset.c"
#include "fuzz/fuzz_quilt.c"
#include "fuzz/fuzz_rules.c"
#include "fuzz/fuzz_sarif.c"
#include "fuzz/fuzz_tags.c"
#include "fuzz/fuzz_theme.c"
#include "fuzz/fuzz_triage.c"

/* Every target: its name and entry point. */
#define REPLAY_TARGETS(X)                                                                          \
	X(clangver)                                                                                \
	X(config)                                                                                  \
	X(diag)                                                                                    \
	X(mbox)                                                                                    \
	X(message)                                                                                 \
	X(overrides)                                                                               \
	X(patchset)                                                                                \
	X(quilt)                                                                                   \
	X(rules)                                                                                   \
	X(sarif)                                                                                   \
	X(tags)                                                                                    \
	X(theme)                                                                                   \
	X(triage)

static const struct {
	const char *name;
	int (*run)(const uint8_t *data, size_t size);
} replay_targets[] = {
#define REPLAY_ENTRY(n) {#n, fuzz_##n},
    REPLAY_TARGETS(REPLAY_ENTRY)
#undef REPLAY_ENTRY
};

/* Run every file of DIR through the target; returns how many. */
static size_t replay_dir(int (*run)(const uint8_t *, size_t), const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *path = xasprintf("%s/%s", dir, de->d_name);
		struct kerr e;
		size_t len;
		char *data = read_file(path, &len, &e);
		CU_ASSERT_PTR_NOT_NULL(data);
		if (data) {
			unsigned before = fuzz_failures;
			/* exactly len bytes, as libFuzzer gives them: under make asan
			 * a read past the end (no NUL there) is caught here too */
			uint8_t *exact = xmalloc(len ? len : 1);
			memcpy(exact, data, len);
			run(exact, len);
			free(exact);
			if (fuzz_failures != before)
				fprintf(stderr, "  (input: %s)\n", path);
			CU_ASSERT_EQUAL(fuzz_failures, before);
			n++;
		}
		free(data);
		free(path);
	}
	if (d)
		closedir(d);
	return n;
}

static void test_replay(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(replay_targets); i++) {
		char *corpus =
		    xasprintf("%s/fuzz/corpus/%s", test_src_dir(), replay_targets[i].name);
		char *regr =
		    xasprintf("%s/fuzz/regressions/%s", test_src_dir(), replay_targets[i].name);
		size_t n = replay_dir(replay_targets[i].run, corpus);
		n += replay_dir(replay_targets[i].run, regr);
		if (n == 0)
			fprintf(stderr, "\nfuzz target %s has no inputs in %s\n",
				replay_targets[i].name, corpus);
		CU_ASSERT(n > 0); /* every target has seeds */
		free(corpus);
		free(regr);
	}
	for (size_t i = 0; i < nreplay_dirs; i++) {
		test_rmdir(replay_dirs[i]);
		free(replay_dirs[i]);
	}
	nreplay_dirs = 0;
}

/* A target added under fuzz/ but not here would never be replayed. */
static void test_every_target_listed(void)
{
	char *dir = xasprintf("%s/fuzz", test_src_dir());
	DIR *d = opendir(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	struct dirent *de;
	size_t found = 0;
	while ((de = readdir(d))) {
		if (!str_startswith(de->d_name, "fuzz_") || !str_endswith(de->d_name, ".c"))
			continue;
		found++;
		bool listed = false;
		for (size_t i = 0; i < ARRAY_SIZE(replay_targets); i++) {
			char *want = xasprintf("fuzz_%s.c", replay_targets[i].name);
			listed |= !strcmp(want, de->d_name);
			free(want);
		}
		if (!listed)
			fprintf(stderr, "\n%s is not replayed by tests/test_fuzz_replay.c\n",
				de->d_name);
		CU_ASSERT(listed);
	}
	closedir(d);
	CU_ASSERT_EQUAL(found, ARRAY_SIZE(replay_targets));
	free(dir);
}

void suite_fuzz_replay(void)
{
	CU_pSuite s = CU_add_suite("fuzz_replay", NULL, NULL);
	CU_add_test(s, "every fuzz target is replayed", test_every_target_listed);
	CU_add_test(s, "fuzz corpora and regressions replay clean", test_replay);
}
