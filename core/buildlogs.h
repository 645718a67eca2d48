/* Where a tree's builds go, and the build logs the warnings view compares:
 * per arch, the newest GCC and the newest Clang log under
 * <home>/out/<arch>-<toolchain>/ or named by a record under <home>/builds/
 * (klang build --out elsewhere). */
#ifndef KLANG_CORE_BUILDLOGS_H
#define KLANG_CORE_BUILDLOGS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/diag.h"
#include "core/util.h"

/* The home of REPO's builds: REPO/.klang, which gets out/ (build trees and
 * logs) and builds/ (their records). For a tree where .klang/out cannot be
 * written (a distribution's source under /usr/src, a read-only
 * mount), $XDG_CACHE_HOME/klang/trees/<name>-<hash of its path>, and *why
 * gets the reason (else NULL). Caller frees both. */
char *buildlogs_home(const char *repo, char **why);
/* REPO/.klang/NAME, a state file klang writes (triage.yaml,
 * overrides.yaml); for a tree that cannot be written, NAME in its home in
 * the cache, started as a copy of the tree's own if it has one. Caller
 * frees. */
char *buildlogs_state_file(const char *repo, const char *name);

struct buildlog_pair {
	char *arch;
	char *gcc, *clang; /* build.log paths */
	time_t gcc_mtime, clang_mtime;
	/* one of the two builds compiled nothing (its tree was up to date)
	 * and the logs of the builds before it were not kept (a tree built
	 * by an older klang): its log holds none of their warnings */
	bool uptodate;
};

/* Scan out/ and builds/ of <repo>/.klang and of its home in the cache. A toolchain "gcc*" or a path
 * ending in gcc is GCC, "llvm*" and "clang*" are Clang. Per arch, the two
 * logs are of the same config (the newest such pair); a build that failed
 * before compiling anything is left out, and so is a cancelled one. A build counts once
 * it finished (summary.json or its record written after its log, or a log
 * untouched for 10 minutes):
 * a log still being written is never read. Arches with both compilers,
 * sorted by name. Returns the number of pairs; free with buildlogs_free. */
size_t buildlogs_find(const char *repo, struct buildlog_pair **out);
void buildlogs_free(struct buildlog_pair *p, size_t n);
/* Kbuild compiles again only what changed, so a build's log has the
 * warnings of what it compiled, not of the whole tree. Before a build of
 * CONFIG (a config target or file, as in its summary) writes OUT/build.log
 * again, the log of the build before is kept as OUT/earlier/N.log (N
 * counting up) if that build compiled or linked something; every kept log
 * is removed when the build before was of another config. Returns 0, or -1
 * with a message (nothing moved). */
int buildlogs_keep_previous(const char *out, const char *config, struct kerr *e);
/* Once a build in OUT finished: remove the kept logs every unit of which
 * (and link, if they linked) it or a later kept log compiled again, so that
 * those left are the ones still read. */
void buildlogs_prune(const char *out);
/* How many logs are kept in earlier/ beside LOG. */
size_t buildlogs_earlier(const char *log);
/* How many of them have a line that warns or errs (as the parser's
 * markers, "warning: ", "error: ", modpost's "WARNING: "): the others add
 * nothing to the tree's warnings. */
size_t buildlogs_earlier_warned(const char *log);
/* Parse LOG (diag_parse_file) and the logs kept before it in earlier/
 * beside it, newest first: a diagnostic of a kept log is added unless a
 * later build compiled its translation unit again (then the later log says
 * whether it is still there); one without a unit, unless its file was
 * compiled again, or, not a source file (ld, modpost, objtool on vmlinux.o),
 * unless a later build linked. Returns 0, or -1 with a message. */
int buildlogs_parse(struct diag_set *into, const char *log, const struct diag_parser_opts *o,
		    struct kerr *e);
/* The arch of a log lying in a build directory <arch>-<toolchain>/ (as
 * `klang build` writes them), else NULL. Caller frees. */
char *buildlogs_arch_of(const char *log);
/* A text that changes when the choice or a chosen log changes. Caller frees. */
char *buildlogs_signature(const struct buildlog_pair *p, size_t n);

#endif
