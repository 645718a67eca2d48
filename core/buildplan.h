/* Planning a build (used by core/build.c): a spec becomes a struct build with
 * its make steps: configure (a target, or a .config file + olddefconfig),
 * merge fragments + olddefconfig, then build; and a reproducer command line. */
#ifndef KLANG_CORE_BUILDPLAN_H
#define KLANG_CORE_BUILDPLAN_H

#include "core/build.h"

enum step_pre { PRE_NONE, PRE_COPY_CONFIG, PRE_MERGE_FRAGMENTS };

struct build_step {
	enum build_status phase; /* CONFIGURING or BUILDING */
	enum step_pre pre;	 /* file work before the make runs */
	char **argv;		 /* make's, argv[0] its full path */
};

/* A queued build for `spec`, with `make` as argv[0] and `jobs` in the
 * reproducer; NULL with a message naming what is wrong. */
struct build *buildplan_new(const struct build_spec *spec, const char *make, int jobs,
			    struct kerr *e);
/* Do the file work step b->step needs (copy the .config, merge fragments). */
int buildplan_pre_step(struct build *b, struct kerr *e);
void buildplan_free(struct build *b);

/* NULL-terminated string vectors. */
void strv_push(char ***v, size_t *n, char *s);
void strv_free(char **v);

#endif
