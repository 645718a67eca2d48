/* Patchset files (patchsets/NAME.yaml): which repository and range hold a
 * patch stack, extra subject tags, and the rules that say for which Clang
 * versions a patch is needed. Loaded with libyaml; every error names the
 * file, line and column. */
#ifndef KLANG_CORE_PATCHSET_H
#define KLANG_CORE_PATCHSET_H

#include <stdbool.h>
#include <stddef.h>

#include "core/clangver.h"
#include "core/stack.h"
#include "core/util.h"

enum rule_fixed { RULE_BOUNDED, RULE_KEEP, RULE_DROP };

/* A rule matches a patch when every matcher it has matches. */
struct ps_rule {
	char *commit;	       /* commit id or a prefix of it (>= 4 hex digits) */
	char *change_id;       /* Change-Id trailer value */
	char *subject;	       /* PCRE2 pattern, matched against the full subject or the title */
	void *re;	       /* pcre2_code * */
	enum rule_fixed fixed; /* keep/drop whatever the Clang, or bounded below */
	bool has_until, has_since;
	struct clang_version until; /* needed below this version */
	struct clang_version since; /* needed from this version on */
	char *why;		    /* optional note shown with the decision */
	int line, col;		    /* where the rule starts in the file (1-based) */
};

struct patchset {
	char *path; /* the file as given */
	char *name; /* `name:`, else the file name without .yaml */
	char *description;
	char *repo;		     /* resolved: absolute, or relative to the cwd; NULL = cwd */
	char *base, *head;	     /* NULL when not given */
	char *fetch_url, *fetch_ref; /* where the head branch comes from (informational) */
	char **tags;		     /* extra subject tags (`tags: [FOO]`) */
	size_t ntags;
	struct ps_rule *rules;
	size_t nrules;
};

/* Load a patchset file. -1 with "FILE:LINE:COL: what is wrong". */
int patchset_load(struct patchset *ps, const char *path, struct kerr *e);
/* Find a patchset by file path, or by NAME in the shipped patchsets/ dir
 * ("v4.9" -> patchsets/v4.9.yaml). Caller frees; NULL if none. */
char *patchset_find(const char *name_or_path);
void patchset_free(struct patchset *ps);

/* The first rule that matches the patch, or NULL. */
const struct ps_rule *patchset_match(const struct patchset *ps, const struct patch *p);
/* Does the rule keep the patch for this Clang? */
bool ps_rule_keeps(const struct ps_rule *r, const struct clang_version *clang);
/* The rule as text: "until_clang 5", "since_clang 6.0, until_clang 9", "keep". */
void ps_rule_describe(const struct ps_rule *r, struct strbuf *out);

#endif
