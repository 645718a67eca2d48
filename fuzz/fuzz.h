/* Shared by the libFuzzer targets (fuzz/fuzz_NAME.c): the entry point's
 * name, input helpers and invariant checks. Built two ways: by `make fuzz`,
 * each target alone with -fsanitize=fuzzer (entry LLVMFuzzerTestOneInput);
 * and by tests/test_fuzz_replay.c, which #includes every target with
 * FUZZ_REPLAY defined (entry fuzz_NAME) and replays fuzz/corpus/NAME/ and
 * fuzz/regressions/NAME/ in the ordinary test build. */
#ifndef KLANG_FUZZ_FUZZ_H
#define KLANG_FUZZ_FUZZ_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

#ifdef FUZZ_REPLAY
#define FUZZ_TARGET(name) int fuzz_##name(const uint8_t *data, size_t size)
/* Invariants broken while replaying are counted and reported by the test. */
extern unsigned fuzz_failures;
#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__,      \
				#cond);                                                            \
			fuzz_failures++;                                                           \
		}                                                                                  \
	} while (0)
#else
#define FUZZ_TARGET(name)                                                                          \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                              \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__,      \
				#cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)
#endif

/* The input as a NUL-terminated string (embedded NULs cut it short, as
 * they do for every C string klang reads). Caller frees. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	return xstrndup((const char *)data, size);
}

/* Is s valid UTF-8 (no overlong forms, no surrogates)? */
static inline bool fuzz_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p, n = c < 0x80		  ? 0
				     : (c & 0xe0) == 0xc0 ? 1
				     : (c & 0xf0) == 0xe0 ? 2
				     : (c & 0xf8) == 0xf0 ? 3
							  : 9;
		if (n == 9 || (n == 1 && c < 0xc2) || (n == 3 && c > 0xf4))
			return false;
		unsigned cp = n ? c & (0x3f >> n) : c;
		for (unsigned i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		p += n + 1;
	}
	return true;
}

/* The input as a file, for loaders that take a path: an in-memory file
 * (memfd) reused across runs, named /proc/self/fd/N. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("fuzz-input", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
		perror("fuzz input");
		abort();
	}
	return path;
}

/* A fresh directory on tmpfs (/dev/shm when there is one) for targets that
 * write state files. A fuzzing process keeps it (and the caller keeps the
 * string) for its whole life; the replay test removes it. */
#ifdef FUZZ_REPLAY
extern void fuzz_replay_made(const char *dir); /* the replay test removes it */
#else
static inline void fuzz_replay_made(const char *dir)
{
	(void)dir;
}
#endif
static inline char *fuzz_tmpdir(void)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	char *t = xasprintf("%s/klang-test-fuzz-XXXXXX", base);
	if (!mkdtemp(t)) {
		perror("mkdtemp");
		abort();
	}
	fuzz_replay_made(t);
	return t;
}

/* The input as state file .klang/NAME of a repository-like directory on
 * tmpfs, every other file of .klang/ (locks, .corrupt copies) removed
 * first. *repo (if repo is not NULL) is the directory; the caller frees
 * the path. */
static inline char *fuzz_state_file(const char *name, const uint8_t *data, size_t size,
				    const char **repo)
{
	static char *dir, *kdir;
	if (!dir) {
		dir = fuzz_tmpdir();
		kdir = xasprintf("%s/.klang", dir);
		mkdir(kdir, 0755);
	}
	DIR *d = opendir(kdir);
	for (struct dirent *de; d && (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", kdir, de->d_name);
		unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	char *path = xasprintf("%s/%s", kdir, name);
	struct kerr e;
	if (write_file_atomic(path, (const char *)data, size, &e) < 0)
		abort();
	if (repo)
		*repo = dir;
	return path;
}

#endif
