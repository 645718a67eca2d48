/* Grouping of diagnostics by YAML rules of PCRE2 patterns (JIT-compiled) on
 * flag, message and file. The first rule that matches wins; its named
 * captures make the subgroup (one per function name, say). Diagnostics no
 * rule matches are grouped by flag family. */
#ifndef KLANG_CORE_GROUP_H
#define KLANG_CORE_GROUP_H

#include "core/diag.h"

struct group_rules;
/* Append the rules of a YAML file: a list of {name, flag, message, file}
 * (at least one pattern). Errors name the place, e.g.
 * "rules.yaml:7:12: pattern error at offset 3: missing closing parenthesis". */
int group_rules_load(struct group_rules *r, const char *path, struct kerr *e);
struct group_rules *group_rules_new(void);
void group_rules_free(struct group_rules *r);
size_t group_rules_count(const struct group_rules *r);
/* `extra` (a --rules FILE) first, then <repo>/.klang/rules.yaml, then the
 * shipped rules/default.yaml. */
struct group_rules *group_rules_default(const char *repo, const char *extra, struct kerr *e);
/* Set group and subgroup of every diagnostic (families should be applied). */
void group_apply(const struct group_rules *r, struct diag_set *s);
/* "name" or "name:subgroup" into buf. */
const char *group_label(const struct diag *d, struct strbuf *buf);

/* Groups for a view: groups by size (most diagnostics first), the
 * diagnostics of a group by subgroup, then file and line. */
struct diag_group {
	const char *name;
	struct diag **diags;
	size_t n;
	size_t nsub;		   /* distinct subgroups */
	unsigned long occurrences; /* sum over its diagnostics */
};
struct diag_group *group_collect(struct diag *const *diags, size_t n, size_t *ngroups);
void group_collect_free(struct diag_group *g, size_t ngroups);

#endif
