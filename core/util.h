/* Small shared helpers: allocation that never fails, string buffers, error
 * messages, whole-file reads and atomic writes. */
#ifndef KLANG_CORE_UTIL_H
#define KLANG_CORE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KLANG_VERSION "0.1"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses of every command: success, the work found a failure, bad input. */
enum { EXIT_OK = 0, EXIT_FOUND = 1, EXIT_USAGE = 2 };

/* Allocation wrappers: they print a message and exit on failure, never return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* For big buffers that are about to be filled (tables, arenas, sort keys):
 * the pages are mapped by one call, not faulted in one at a time as they
 * are first written (a fault per 4 KiB page cost a parse of a 200 MB log
 * a fifth of its time in a VM). xcalloc_big's memory is zeroed. */
void *xmalloc_big(size_t n);
void *xcalloc_big(size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow an array to hold at least `need` elements of `size` bytes. */
#define ALLOC_GROW(ptr, need, cap)                                                                 \
	do {                                                                                       \
		if ((size_t)(need) > (cap)) {                                                      \
			size_t ncap_ = (cap) ? (cap)*2 : 16;                                       \
			while (ncap_ < (size_t)(need))                                             \
				ncap_ *= 2;                                                        \
			(ptr) = xrealloc((ptr), ncap_ * sizeof(*(ptr)));                           \
			(cap) = ncap_;                                                             \
		}                                                                                  \
	} while (0)

/* A growable NUL-terminated string. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
#define STRBUF_INIT                                                                                \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}
void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void sb_reset(struct strbuf *sb);
char *sb_detach(struct strbuf *sb); /* returns the string ("" if empty), sb is reset */
void sb_free(struct strbuf *sb);
static inline const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* An error message filled in by a failing function (tig's three tiers: the
 * function returns -1 with a message, the caller reports it). */
struct kerr {
	char msg[1024];
};
int kerr_set(struct kerr *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3))); /* returns -1 */

/* Read a whole file; NULL with a message naming the path on failure.
 * The buffer is NUL-terminated (len excludes the NUL). */
char *read_file(const char *path, size_t *len, struct kerr *e);
/* Write a file atomically: temporary file in the same directory, fsync, rename. */
int write_file_atomic(const char *path, const char *data, size_t len, struct kerr *e);
/* The same without the fsync, for what a build makes (its .config, its
 * summary and record): readers never see half a file, and a crash loses no
 * more than the build's own objects, which are not synced either. */
int write_file_replace(const char *path, const char *data, size_t len, struct kerr *e);
/* mkdir -p */
int mkdir_p(const char *path, struct kerr *e);
bool file_exists(const char *path);
bool is_dir(const char *path);
/* $XDG_CACHE_HOME/klang/<sub>, else $HOME/.cache/klang/<sub>; NULL if
 * neither is set (XDG_CACHE_HOME counts only when absolute). Caller frees. */
char *cache_dir(const char *sub);
/* NAME=VALUE with NAME a make variable name ([A-Za-z_][A-Za-z0-9_]*). */
bool is_make_assignment(const char *s);
/* qsort comparator for an array of strings (char *). */
int cmp_str(const void *a, const void *b);
/* Give REPO/.klang/ a .gitignore (once) naming its scratch: build trees,
 * records, exports, locks. The state a team shares (triage.yaml,
 * overrides.yaml, rules.yaml, families.yaml, config.yaml) stays visible to
 * git. Quiet: the scratch still works if the file cannot be written. */
void state_dir_ignore_scratch(const char *repo);
/* The work tree of the repository at or above `path`, or NULL: the first
 * directory up to the file system's edge with a .git in it (a directory,
 * or the file of a git worktree). Caller frees. */
char *repo_workdir(const char *path);
/* The top of the kernel tree PATH lies in, when PATH is below it (a
 * subdirectory has a Makefile too): the nearest directory above with
 * scripts/Kbuild.include, as Kbuild's own top has. NULL when PATH is that
 * top, or in no kernel tree. Caller frees. */
char *kernel_top(const char *path);

/* Where installed data lives (themes/, patchsets/): $KLANG_DATADIR, else the
 * source tree next to the running binary, else the compiled-in DATADIR.
 * Returns the path of `rel` under it, or NULL if it exists nowhere. Caller frees. */
char *data_path(const char *rel);

/* String helpers. */
bool str_startswith(const char *s, const char *prefix);
/* The length of the valid UTF-8 sequence at s (n bytes there, n >= 1),
 * its code point in *cp; 0 when the bytes are not UTF-8. */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
bool str_endswith(const char *s, const char *suffix);
char *str_trim(char *s); /* in place, returns s advanced past leading space */
/* Replace tabs and newlines by spaces (for TSV fields), in place. */
void str_flatten(char *s);
/* Write s (NULL: nothing) on one line: control bytes (tabs, line breaks,
 * an escape sequence) become spaces, so a TSV field stays one field and
 * nothing reaches the terminal as a command. */
void fput_flat(FILE *f, const char *s);
/* Print a message "klang: ..." to stderr. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* fn(a) here and fn(b) in a thread, both done on return (one after the
 * other if no thread can be made). */
void run_both(void *(*fn)(void *), void *a, void *b);

#endif
