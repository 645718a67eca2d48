/* One GNU make jobserver owned by klang and shared by every build it runs.
 *
 * The pool holds `slots` tokens. klang takes one token before it starts a
 * build and gives it back when the build's process group is gone: that token
 * is the implicit slot of the build's top-level make, so all makes together
 * never run more than `slots` jobs. */
#ifndef KLANG_CORE_JOBSERVER_H
#define KLANG_CORE_JOBSERVER_H

#include <stdbool.h>

#include "core/util.h"

enum jobserver_style {
	JOBSERVER_PIPE, /* --jobserver-auth=R,W, fds inherited (GNU make 4.2, 4.3) */
	JOBSERVER_FIFO, /* --jobserver-auth=fifo:PATH (GNU make >= 4.4) */
};

struct jobserver {
	enum jobserver_style style;
	int slots;
	int rfd, wfd;	/* klang's ends; O_NONBLOCK for reading */
	char *fifo_dir; /* JOBSERVER_FIFO: private directory holding the fifo */
	char *fifo;
	int held; /* tokens klang holds for running builds */
};

/* Create a pool of `slots` tokens in the given style. */
int jobserver_init(struct jobserver *js, int slots, enum jobserver_style style, struct kerr *e);
void jobserver_free(struct jobserver *js);

/* The style a make understands best, from its `make --version` text: FIFO
 * from GNU make 4.4 on, else PIPE. */
enum jobserver_style jobserver_style_for(const char *make_version);
/* Parse "GNU Make X.Y" from `make --version` output; 0 if not GNU make. */
int jobserver_parse_make_version(const char *text, int *major, int *minor);

/* Take one token without blocking: true if klang now holds one more. */
bool jobserver_try_acquire(struct jobserver *js);
/* Give one held token back to the pool. */
void jobserver_release(struct jobserver *js);
/* Tokens in the pool right now (drains and refills; only for tests and repair). */
int jobserver_available(struct jobserver *js);
/* Put the pool back to exactly `slots - held` tokens. Only call it when no
 * child make is running: a make killed by a signal does not return the
 * tokens it had taken, and this is where they come back. */
void jobserver_repair(struct jobserver *js);

/* The MAKEFLAGS value for a child top-level make: "-jN --jobserver-auth=...".
 * Caller frees. */
char *jobserver_makeflags(const struct jobserver *js);
/* In a forked child before exec: let the pipe fds survive exec (async-signal-safe). */
void jobserver_child_prepare(const struct jobserver *js);
/* The fd to poll() for POLLIN while a build waits for a token. */
int jobserver_poll_fd(const struct jobserver *js);

#endif
