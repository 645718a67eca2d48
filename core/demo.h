/* The demo workspace: a git repository written with libgit2 from the files
 * under patchsets/demo/ (a kernel-like tree tagged v6.1-demo, and a stack of
 * `git format-patch` files on the branch llvm_v6.1-demo). The commits are the
 * same on every machine. Running it again reuses or refreshes the workspace
 * and never overwrites what the user changed. */
#ifndef KLANG_CORE_DEMO_H
#define KLANG_CORE_DEMO_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

#define DEMO_OLD_TAG "v6.0-demo"
#define DEMO_BASE_TAG "v6.1-demo"
#define DEMO_BRANCH "llvm_v6.1-demo"

enum demo_state {
	DEMO_CREATED,	/* a new workspace */
	DEMO_REUSED,	/* it was already up to date */
	DEMO_REFRESHED, /* the branch moved to this klang's stack, files updated */
	DEMO_KEPT,	/* the user's changes (files or commits) were kept as they are */
};

struct demo_info {
	enum demo_state state;
	char *dir;	/* absolute path of the work tree */
	char *patchset; /* the patchset file to open it with (patchsets/demo.yaml) */
	size_t npatches;
	char head[41]; /* the stack's head as shipped */
	char *notes;   /* lines saying what was kept and why; NULL if nothing */
};

/* $XDG_CACHE_HOME/klang/demo, else $HOME/.cache/klang/demo; NULL if neither
 * variable is set. Caller frees. */
char *demo_default_dir(void);

/* Create the workspace in `dir`, or reuse/refresh it if it is one already.
 * `src` is the patchsets/demo directory (NULL: found with data_path()).
 * -1 with a message when dir is something else (a non-empty directory that is
 * not a demo workspace) or a shipped file is broken. */
int demo_prepare(const char *dir, const char *src, struct demo_info *info, struct kerr *e);
void demo_info_free(struct demo_info *info);

/* One `git format-patch` file: author, date and message from its headers,
 * the diff after the `---` line. */
struct demo_patch {
	char *author, *email;
	int64_t time;
	int tz;		  /* minutes east of UTC */
	char *message;	  /* subject, blank line, body: as committed */
	const char *diff; /* points into the text given to demo_patch_parse() */
};

/* Parse the text of a patch file; `path` names it in messages. */
int demo_patch_parse(const char *text, const char *path, struct demo_patch *p, struct kerr *e);
void demo_patch_free(struct demo_patch *p);
/* An RFC 2822 date ("Wed, 9 Nov 2022 16:40:31 +0000"); -1 if it is not one. */
int demo_parse_date(const char *s, int64_t *time, int *tz);

#endif
