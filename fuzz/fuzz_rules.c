/* Fuzz target: the YAML loaders of warning triage: group rules (PCRE2
 * patterns on flag, message and file, named captures for subgroups) and
 * flag families, both fed the same file; rules that load are applied to
 * real diagnostics. Checks: errors name the file and a line; every
 * diagnostic ends up in a group. */
#include "fuzz/fuzz.h"

#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/group.h"

/* A few real diagnostics (from the Linux 6.1 clang and gcc logs). */
static const char rules_log[] =
    "In file included from net/sunrpc/xdr.c:17:\n"
    "include/linux/sunrpc/xdr.h:752:10: warning: result of comparison of constant "
    "4611686018427387903 with expression of type '__u32' (aka 'unsigned int') is always "
    "false [-Wtautological-constant-out-of-range-compare]\n"
    "        if (U32_MAX >= SIZE_MAX / sizeof(*p))\n"
    "arch/x86/kernel/cpu/cacheinfo.c:730:6: warning: variable 'llc_id' set but not used "
    "[-Wunused-but-set-variable]\n"
    "kernel/sched/core.c:100:1: warning: no previous prototype for 'f' [-Wmissing-prototypes]\n"
    "lib/x.c:5: warning: Function parameter or member 'a' not described in 'g'\n";

FUZZ_TARGET(rules)
{
	static struct diag_set *set;
	if (!set) {
		struct diag_parser_opts o = {.log_name = "rules.log"};
		struct diag_parser *p = diag_parser_new(&o);
		set = diag_set_new();
		diag_parser_feed(p, rules_log, sizeof(rules_log) - 1);
		diag_parser_finish(p, set);
	}
	const char *path = fuzz_file(data, size);
	struct kerr e;
	struct group_rules *r = group_rules_new();
	if (group_rules_load(r, path, &e) < 0) {
		FUZZ_CHECK(str_startswith(e.msg, path));
	} else {
		group_apply(r, set);
		size_t n = diag_set_size(set), ng;
		struct diag **rows = xcalloc(n + 1, sizeof(*rows));
		for (size_t i = 0; i < n; i++) {
			rows[i] = diag_set_get(set, i);
			FUZZ_CHECK(rows[i]->group != NULL);
		}
		struct diag_group *g = group_collect(rows, n, &ng);
		size_t total = 0;
		for (size_t i = 0; i < ng; i++)
			total += g[i].n;
		FUZZ_CHECK(total == n);
		group_collect_free(g, ng);
		free(rows);
	}
	group_rules_free(r);
	struct diag_families *f = diag_families_new();
	if (diag_families_load(f, path, &e) < 0) {
		FUZZ_CHECK(str_startswith(e.msg, path));
	} else {
		diag_families_apply(f, set);
		for (size_t i = 0; i < diag_set_size(set); i++)
			FUZZ_CHECK(diag_set_get(set, i)->family != NULL);
	}
	diag_families_free(f);
	return 0;
}
