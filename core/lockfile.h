/* Safe state files: an flock on DIR/<name>.lock held while a state file is
 * read, merged and written, so two klang instances on one repository never
 * lose each other's changes; corrupt files moved aside as FILE.corrupt
 * (never overwritten); and new files (exports) written atomically without
 * replacing anything that exists. */
#ifndef KLANG_CORE_LOCKFILE_H
#define KLANG_CORE_LOCKFILE_H

#include <stddef.h>

#include "core/util.h"

/* How long state_lock() waits for another instance before giving up. */
#define STATE_LOCK_TIMEOUT_MS 10000

/* What a parse or merge callback returns when the file's text is corrupt
 * (e then says "FILE:LINE:COL: what is wrong"). */
#define STATE_CORRUPT 1

struct state_lock {
	int fd;
	char *path; /* DIR/<name>.lock */
};

/* The lock of a state file: .klang/overrides.yaml -> .klang/overrides.lock.
 * Caller frees. */
char *state_lock_path(const char *path);
/* Take the lock of state file `path` (its directory must exist); waits up to
 * STATE_LOCK_TIMEOUT_MS, then fails naming the lock file. */
int state_lock(struct state_lock *l, const char *path, struct kerr *e);
void state_unlock(struct state_lock *l);

/* Read the state: parse(data, path, text, len, e) gets the file's text, or
 * NULL when the file does not exist. When parse returns STATE_CORRUPT, the
 * file is moved aside and parse is called again with NULL (it must leave
 * `data` empty after a failure). Returns 0; 1 when the file was moved
 * aside (e says "FILE:LINE:COL: what; moved aside to FILE.corrupt"); -1 on
 * an error (unreadable file, directory, parse error other than corrupt). */
typedef int (*state_parse_fn)(void *data, const char *path, const char *text, size_t len,
			      struct kerr *e);
int state_load(const char *path, state_parse_fn parse, void *data, struct kerr *e);

/* Re-read, merge, write, all under the lock: merge(data, path, text, len,
 * out, e) gets the file's current text (NULL if missing or moved aside as
 * corrupt) and puts the new contents in `out`, which is then written
 * atomically (temporary file, fsync, rename, fsync of the directory). The
 * directory is created. Returns as state_load(). */
typedef int (*state_merge_fn)(void *data, const char *path, const char *text, size_t len,
			      struct strbuf *out, struct kerr *e);
int state_update(const char *path, state_merge_fn merge, void *data, struct kerr *e);

/* Move `path` aside as PATH.corrupt (PATH.corrupt.2, .3 ... when taken;
 * nothing is ever overwritten). `why` is the parse error; e gets
 * "WHY; moved aside to NEW". Returns 0 or -1. */
int state_move_aside(const char *path, const char *why, struct kerr *e);

/* Write a new file atomically: temporary file in the same directory, fsync,
 * then link to `path` only if nothing is there (an existing file is never
 * replaced: "PATH exists; klang will not overwrite it"). On failure (a full
 * disk) nothing is left behind. */
int write_file_new(const char *path, const char *data, size_t len, struct kerr *e);
/* fsync a directory so a rename or link in it survives a crash. */
int fsync_dir_of(const char *path, struct kerr *e);

#endif
