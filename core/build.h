/* Kernel builds run in parallel on one jobserver, driven by a poll() loop.
 *
 * A build is arch x toolchain x config in its own out dir (O=). It runs as a
 * sequence of make steps (configure, then build), each in its own process
 * group, with stdout+stderr going through a non-blocking pipe to
 * `<out>/build.log` untouched, and parsed live for progress and diagnostics.
 *
 * Driving it (the CLI does exactly this; the TUI adds its own fds):
 *
 *	struct build_mgr m;  bmgr_init(&m, jobs, &e);  bmgr_add(&m, &spec, &e);
 *	while (bmgr_busy(&m)) {
 *		n = bmgr_pollfds(&m, pfd, max);         // + the terminal, ...
 *		poll(pfd, n, bmgr_timeout(&m));
 *		bmgr_handle(&m, pfd, n);                 // "on readable"
 *		bmgr_tick(&m);                           // start, reap, escalate
 *		if (bmgr_changed(&m)) redraw();
 *	}
 *
 * A loop that registers fds instead (tui/loop.c) sets m.fd_watch, calls
 * bmgr_handle_fd() from the fd callback, and bmgr_tick() from loop_on_child()
 * and a repeating timer of bmgr_timeout() ms.
 *
 * Nothing here blocks: reads are non-blocking, children are reaped with
 * WNOHANG, and a cancelled build gets SIGTERM then, after a grace period,
 * SIGKILL, to its whole process group. Builds start by themselves as
 * jobserver tokens free up. The caller must leave SIGCHLD at its default (not
 * SIG_IGN), and on quit call bmgr_cancel_all() and keep looping until
 * !bmgr_busy() (or bmgr_free(), which SIGKILLs); a crash handler calls
 * bmgr_kill_all(). Each make also gets PR_SET_PDEATHSIG=SIGTERM: if klang is
 * killed outright, its makes stop starting jobs (the running ones finish). */
#ifndef KLANG_CORE_BUILD_H
#define KLANG_CORE_BUILD_H

#include <poll.h>
#include <stdbool.h>
#include <sys/types.h>

#include "core/jobserver.h"
#include "core/kbuild.h"
#include "core/util.h"

#define BUILD_STATUS_LIST(X)                                                                       \
	X(QUEUED, "queued")                                                                        \
	X(CONFIGURING, "configuring")                                                              \
	X(BUILDING, "building")                                                                    \
	X(OK, "ok")                                                                                \
	X(FAILED, "failed")                                                                        \
	X(CANCELLED, "cancelled")

enum build_status {
#define X(id, name) BUILD_##id,
	BUILD_STATUS_LIST(X)
#undef X
};
const char *build_status_name(enum build_status s);
static inline bool build_status_done(enum build_status s)
{
	return s >= BUILD_OK;
}

/* What to build; every string is copied by bmgr_add(). */
struct build_spec {
	const char *srcdir;	/* the kernel tree (never written to) */
	const char *outroot;	/* the build goes to OUTROOT/<arch>-<toolchain> */
	const char *arch;	/* ARCH= */
	const char *toolchain;	/* llvm, llvm-N, clang, clang-N, gcc, gcc-N, or a compiler path */
	const char *config;	/* a config target (defconfig, tinyconfig, ...) or a .config
				   file; NULL: defconfig */
	const char **fragments; /* files or CONFIG_X=y lines merged into .config */
	size_t nfragments;
	const char **makevars; /* NAME=VALUE, passed to make last (they win) */
	size_t nmakevars;
	const char *wrapper;	 /* ccache, distcc, icecc, or NULL */
	const char *target;	 /* make goal; NULL: Kbuild's default */
	const char *records_dir; /* previous records (for totals); NULL: none */
};

struct build_step; /* one make invocation */

/* One build. Read-only outside core/build.c. */
struct build {
	char *name; /* "<arch>-<toolchain>": its directory under the out root */
	char *arch, *toolchain, *config, *wrapper, *target;
	char *srcdir, *outdir, *log_path;
	char *compiler;		/* the C compiler used: "clang", "aarch64-linux-gnu-gcc" */
	char *compiler_version; /* first line of its --version */
	char *reproducer;	/* shell command line that repeats the build by hand */
	char *record_key;	/* file name of its record under records_dir */
	char *error;		/* why klang could not run it, or NULL */

	enum build_status status;
	int exit_code;			 /* of the failing or last step; -1 until done */
	struct kbuild_progress progress; /* objects, expected, last quiet line */
	bool expected_estimated;	 /* expected comes from a similar build */
	unsigned long warnings, errors;

	/* private */
	char *fragments; /* merged fragment text, appended to .config */
	struct build_step *steps;
	size_t nsteps, step;
	pid_t pid;	       /* leader of the running step's process group, or 0 */
	bool group_alive;      /* its process group may still have members */
	int out_fd, log_fd;    /* pipe read end (-1 when closed), the log */
	int lock_fd;	       /* OUTDIR/.klang-build.lock, flocked while it runs */
	struct strbuf partial; /* an incomplete last line */
	bool partial_overflow; /* the current line was cut for the parsers */
	int wstatus;
	bool reaped, cancel, killed, holds_token;
	double started, build_started, finished, term_sent;
	void *diag_state;
};

struct build_mgr {
	struct jobserver js;
	char *make;			     /* path of GNU make */
	const struct diag_counter_ops *diag; /* warning/error counter (swappable) */
	double grace;			     /* seconds from SIGTERM to SIGKILL */
	struct build **builds;
	size_t nbuilds, cap;
	char *records_dir; /* previous records, or NULL */
	char **env;	   /* of every child make */
	bool changed, pool_dirty;
	/* Optional, for loops that register fds (tui/loop.c's loop_watch_fd):
	 * told when an fd starts (watch) or stops needing POLLIN. */
	void (*fd_watch)(int fd, bool watch, void *data);
	void *fd_watch_data;
	bool js_watched;
};

/* Set up a pool of `jobs` slots (pipe or fifo, after `make --version`). */
int bmgr_init(struct build_mgr *m, int jobs, struct kerr *e);
/* Where records of finished builds are kept and read (expected totals). */
void bmgr_set_records_dir(struct build_mgr *m, const char *dir);
/* Kill whatever still runs (SIGKILL to every group), reap, free. */
void bmgr_free(struct build_mgr *m);
/* Queue a build: resolves toolchain, config and paths now, so a bad spec is
 * an error here ("arm64: no cross compiler: tried aarch64-linux-gnu-gcc, ..."). */
struct build *bmgr_add(struct build_mgr *m, const struct build_spec *spec, struct kerr *e);

/* The event loop. */
int bmgr_pollfds(const struct build_mgr *m, struct pollfd *pfd, int max);
void bmgr_handle(struct build_mgr *m, const struct pollfd *pfd, int n);
void bmgr_handle_fd(struct build_mgr *m, int fd, short revents); /* one fd */
void bmgr_tick(struct build_mgr *m);
int bmgr_timeout(const struct build_mgr *m); /* ms until bmgr_tick is due; -1: idle */
bool bmgr_busy(const struct build_mgr *m);   /* queued, running, or a group not yet gone */
bool bmgr_changed(struct build_mgr *m);	     /* something to redraw (clears the flag) */
/* poll + handle + tick once, for callers with nothing else to watch. */
void bmgr_step(struct build_mgr *m, int max_wait_ms);

/* Actions. */
void bmgr_cancel(struct build_mgr *m, struct build *b);
void bmgr_cancel_all(struct build_mgr *m);
/* SIGKILL every running build's process group; async-signal-safe, for
 * SIGSEGV/SIGABRT handlers. */
void bmgr_kill_all(const struct build_mgr *m);
int bmgr_rerun(struct build_mgr *m, struct build *b, struct kerr *e); /* a finished build */

/* Live numbers for a view. */
double build_now(void);			      /* monotonic seconds */
double build_elapsed(const struct build *b);  /* seconds, frozen when done */
long build_eta(const struct build *b);	      /* seconds, -1 unknown */
double build_fraction(const struct build *b); /* 0..1, -1 indeterminate */

/* Records and summaries (JSON, written atomically). */
char *build_summary_json(const struct build *b);	      /* one object; caller frees */
char *bmgr_summary_json(const struct build_mgr *m, int jobs); /* all builds */
int bmgr_write_summary(const struct build_mgr *m, const char *path, struct kerr *e);

#endif
