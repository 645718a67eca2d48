/* State files that survive two instances, crashes and corruption: flock'd
 * read-merge-write, corrupt files moved aside, new files linked into place
 * only when nothing is there. */
#include "core/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

char *state_lock_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot > base ? (size_t)(dot - path) : strlen(path);
	return xasprintf("%.*s.lock", (int)n, path);
}

int state_lock(struct state_lock *l, const char *path, struct kerr *e)
{
	l->path = state_lock_path(path);
	const char *slash = strrchr(l->path, '/');
	if (slash && slash - l->path >= 7 && !strncmp(slash - 7, "/.klang", 7)) {
		char *repo = xasprintf("%.*s", (int)(slash - l->path - 7), l->path);
		state_dir_ignore_scratch(*repo ? repo : "/");
		free(repo);
	}
	l->fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (l->fd < 0) {
		kerr_set(e, "%s: %s", l->path, strerror(errno));
		free(l->path);
		l->path = NULL;
		return -1;
	}
	const struct timespec tick = {0, 10 * 1000 * 1000};
	for (int waited = 0; flock(l->fd, LOCK_EX | LOCK_NB) < 0; waited += 10) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= STATE_LOCK_TIMEOUT_MS) {
			if (errno == EWOULDBLOCK)
				kerr_set(e, "%s: held by another klang for %d s; try again",
					 l->path, STATE_LOCK_TIMEOUT_MS / 1000);
			else
				kerr_set(e, "%s: %s", l->path, strerror(errno));
			state_unlock(l);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	return 0;
}

void state_unlock(struct state_lock *l)
{
	if (l->fd >= 0)
		close(l->fd); /* releases the flock */
	l->fd = -1;
	free(l->path);
	l->path = NULL;
}

int fsync_dir_of(const char *path, struct kerr *e)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;
	if (fd < 0 || (fsync(fd) < 0 && errno != EINVAL))
		rc = kerr_set(e, "%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

int state_move_aside(const char *path, const char *why, struct kerr *e)
{
	for (int n = 1; n < 1000; n++) {
		char *dst =
		    n == 1 ? xasprintf("%s.corrupt", path) : xasprintf("%s.corrupt.%d", path, n);
		/* link + unlink: unlike rename, never replaces an older .corrupt */
		if (link(path, dst) == 0 ||
		    (errno == EPERM && !file_exists(dst) && rename(path, dst) == 0)) {
			if (file_exists(path))
				unlink(path);
			fsync_dir_of(path, e);
			kerr_set(e, "%s; moved aside to %s", why, dst);
			free(dst);
			return 0;
		}
		int err = errno;
		free(dst);
		if (err != EEXIST) {
			char *w = xstrdup(why);
			kerr_set(e, "%s; could not move it aside: %s", w, strerror(err));
			free(w);
			return -1;
		}
	}
	char *w = xstrdup(why);
	kerr_set(e, "%s; could not move it aside: too many %s.corrupt files", w, path);
	free(w);
	return -1;
}

/* Read the current text of `path` (NULL and 0 if missing); -1 on errors. */
static int read_current(const char *path, char **text, size_t *len, struct kerr *e)
{
	*text = NULL;
	*len = 0;
	if (!file_exists(path) && errno == ENOENT)
		return 0;
	*text = read_file(path, len, e);
	return *text ? 0 : -1;
}

/* A corrupt file found under the lock: move it aside and say so. */
static int corrupt(const char *path, struct kerr *e)
{
	char *why = xstrdup(e->msg);
	int rc = state_move_aside(path, why, e);
	free(why);
	return rc < 0 ? -1 : 1;
}

int state_load(const char *path, state_parse_fn parse, void *data, struct kerr *e)
{
	if (!file_exists(path))
		return parse(data, path, NULL, 0, e);
	/* A repository we may not write to is still read (without the lock). */
	struct state_lock l = {-1, NULL};
	struct kerr le;
	bool locked = state_lock(&l, path, &le) == 0;
	char *text;
	size_t len;
	int rc = read_current(path, &text, &len, e);
	if (rc == 0)
		rc = parse(data, path, text, len, e);
	if (rc == STATE_CORRUPT) {
		rc = corrupt(path, e);
		if (rc == 1) {
			struct kerr pe;
			if (parse(data, path, NULL, 0, &pe) < 0)
				rc = kerr_set(e, "%s", pe.msg);
		}
	}
	free(text);
	if (locked)
		state_unlock(&l);
	return rc;
}

int state_update(const char *path, state_merge_fn merge, void *data, struct kerr *e)
{
	char *dir = xstrdup(path);
	int rc = mkdir_p(dirname(dir), e);
	free(dir);
	if (rc < 0)
		return -1;
	struct state_lock l;
	if (state_lock(&l, path, e) < 0)
		return -1;
	char *text;
	size_t len;
	struct strbuf out = STRBUF_INIT;
	struct kerr note;
	rc = read_current(path, &text, &len, e);
	if (rc == 0)
		rc = merge(data, path, text, len, &out, e);
	if (rc == STATE_CORRUPT) {
		rc = corrupt(path, e);
		note = *e;
		sb_reset(&out);
		if (rc == 1 && merge(data, path, NULL, 0, &out, e) < 0)
			rc = -1;
	}
	if (rc >= 0 &&
	    (write_file_atomic(path, sb_str(&out), out.len, e) < 0 || fsync_dir_of(path, e) < 0))
		rc = -1;
	if (rc == 1)
		*e = note;
	free(text);
	sb_free(&out);
	state_unlock(&l);
	return rc;
}

int write_file_new(const char *path, const char *data, size_t len, struct kerr *e)
{
	if (file_exists(path))
		return kerr_set(e, "%s exists; klang will not overwrite it", path);
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int rc = 0;
	if (fd < 0) {
		rc = kerr_set(e, "%s: %s", path, strerror(errno));
		free(tmp);
		return rc;
	}
	while (len && rc == 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = kerr_set(e, "%s: %s", path, strerror(w < 0 ? errno : ENOSPC));
		else {
			data += w;
			len -= (size_t)w;
		}
	}
	if (rc == 0 && fsync(fd) < 0)
		rc = kerr_set(e, "%s: %s", path, strerror(errno));
	if (close(fd) < 0 && rc == 0)
		rc = kerr_set(e, "%s: %s", path, strerror(errno));
	if (rc == 0 && link(tmp, path) < 0) {
		if (errno == EEXIST)
			rc = kerr_set(e, "%s exists; klang will not overwrite it", path);
		else if (errno != EPERM || file_exists(path) || rename(tmp, path) < 0)
			rc = kerr_set(e, "%s: %s", path, strerror(errno));
	}
	unlink(tmp);
	free(tmp);
	if (rc == 0)
		rc = fsync_dir_of(path, e);
	return rc;
}
