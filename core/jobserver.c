/* klang's GNU make jobserver: a token pool (pipe or fifo) shared by every
 * build, with the MAKEFLAGS a child make needs to join it. */
#include "core/jobserver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOKEN '+'

static int put_tokens(int fd, int n)
{
	char buf[256];
	memset(buf, TOKEN, sizeof(buf));
	while (n > 0) {
		ssize_t w = write(fd, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		n -= (int)w;
	}
	return 0;
}

static int init_pipe(struct jobserver *js, struct kerr *e)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return kerr_set(e, "jobserver pipe: %s", strerror(errno));
	js->rfd = fds[0];
	js->wfd = fds[1];
	/* GNU make >= 4.2.90 sets this itself on the shared description; klang
	 * must never block on an empty pool either. */
	fcntl(js->rfd, F_SETFL, fcntl(js->rfd, F_GETFL) | O_NONBLOCK);
	return 0;
}

static int init_fifo(struct jobserver *js, struct kerr *e)
{
	const char *t = getenv("TMPDIR");
	js->fifo_dir = xasprintf("%s/klang-jobserver-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(js->fifo_dir))
		return kerr_set(e, "%s: %s", js->fifo_dir, strerror(errno));
	js->fifo = xasprintf("%s/fifo", js->fifo_dir);
	if (mkfifo(js->fifo, 0600) < 0)
		return kerr_set(e, "%s: %s", js->fifo, strerror(errno));
	/* O_RDWR: the open never waits for a peer and reads never see EOF. */
	js->rfd = open(js->fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (js->rfd < 0)
		return kerr_set(e, "%s: %s", js->fifo, strerror(errno));
	js->wfd = js->rfd;
	return 0;
}

int jobserver_init(struct jobserver *js, int slots, enum jobserver_style style, struct kerr *e)
{
	memset(js, 0, sizeof(*js));
	js->rfd = js->wfd = -1;
	js->style = style;
	js->slots = slots;
	if (slots < 1 || slots > 4096)
		return kerr_set(e, "jobserver: %d slots (must be 1..4096)", slots);
	int r = style == JOBSERVER_FIFO ? init_fifo(js, e) : init_pipe(js, e);
	if (r == 0 && put_tokens(js->wfd, slots) < 0)
		r = kerr_set(e, "jobserver: cannot fill the pool: %s", strerror(errno));
	if (r < 0)
		jobserver_free(js);
	return r;
}

void jobserver_free(struct jobserver *js)
{
	if (js->rfd >= 0)
		close(js->rfd);
	if (js->wfd >= 0 && js->wfd != js->rfd)
		close(js->wfd);
	js->rfd = js->wfd = -1;
	if (js->fifo)
		unlink(js->fifo);
	if (js->fifo_dir)
		rmdir(js->fifo_dir);
	free(js->fifo);
	free(js->fifo_dir);
	js->fifo = js->fifo_dir = NULL;
}

int jobserver_parse_make_version(const char *text, int *major, int *minor)
{
	const char *p = text ? strstr(text, "GNU Make ") : NULL;
	if (!p || sscanf(p + 9, "%d.%d", major, minor) != 2)
		return 0;
	return 1;
}

enum jobserver_style jobserver_style_for(const char *make_version)
{
	int major, minor;
	if (jobserver_parse_make_version(make_version, &major, &minor) &&
	    (major > 4 || (major == 4 && minor >= 4)))
		return JOBSERVER_FIFO;
	return JOBSERVER_PIPE;
}

bool jobserver_try_acquire(struct jobserver *js)
{
	char c;
	ssize_t r;
	do
		r = read(js->rfd, &c, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		return false; /* EAGAIN: a make took the last token first */
	js->held++;
	return true;
}

void jobserver_release(struct jobserver *js)
{
	if (js->held <= 0)
		return;
	js->held--;
	put_tokens(js->wfd, 1);
}

static int drain(struct jobserver *js)
{
	char buf[256];
	int n = 0;
	for (;;) {
		ssize_t r = read(js->rfd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return n;
		n += (int)r;
	}
}

int jobserver_available(struct jobserver *js)
{
	int n = drain(js);
	put_tokens(js->wfd, n);
	return n;
}

void jobserver_repair(struct jobserver *js)
{
	drain(js);
	put_tokens(js->wfd, js->slots - js->held);
}

char *jobserver_makeflags(const struct jobserver *js)
{
	if (js->style == JOBSERVER_FIFO)
		return xasprintf("-j%d --jobserver-auth=fifo:%s", js->slots, js->fifo);
	return xasprintf("-j%d --jobserver-auth=%d,%d", js->slots, js->rfd, js->wfd);
}

void jobserver_child_prepare(const struct jobserver *js)
{
	if (js->style != JOBSERVER_PIPE)
		return;
	fcntl(js->rfd, F_SETFD, 0);
	fcntl(js->wfd, F_SETFD, 0);
}

int jobserver_poll_fd(const struct jobserver *js)
{
	return js->rfd;
}
