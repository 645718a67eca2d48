/* klang diag: parse build logs, diff GCC against Clang or a build against an
 * earlier one, and set triage statuses, from the command line. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmds.h"
#include "core/buildlogs.h"
#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/diagout.h"
#include "core/group.h"
#include "core/sarif.h"
#include "core/triage.h"
#include "core/util.h"

static const char usage_text[] =
    "usage: klang diag parse LOG... [options]\n"
    "       klang diag diff [--gcc LOG... --clang LOG...] [options] [--fail-on "
    "clang-only,gcc-only]\n"
    "       klang diag diff --old LOG... --new LOG... [options] [--fail-on new]\n"
    "       klang diag triage [--repo DIR] [--note TEXT] [--from LOG...] FINGERPRINT STATUS\n"
    "       klang diag triage [--repo DIR] --list\n"
    "\n"
    "Parse what GCC and Clang printed while building a kernel (any size, -j\n"
    "interleaved, colours, CI prefixes; also GCC JSON and SARIF files; - is\n"
    "stdin, read once; the words after -- are logs), fold repeats (a header\n"
    "warning reported by 300 objects is one diagnostic with 300 occurrences),\n"
    "and compare:\n"
    "  diff --gcc/--clang  which warnings one compiler gives beyond the other, per\n"
    "                      arch. A GCC and a Clang warning match when their outermost\n"
    "                      macro-expansion site (file, line) and flag family agree.\n"
    "                      Without logs: per arch the newest GCC and Clang builds of\n"
    "                      --repo (klang build's), as the warnings view compares.\n"
    "  diff --old/--new    new, fixed and outstanding warnings against an earlier\n"
    "                      build, by fingerprint (file, flag, message with numbers\n"
    "                      masked, source line), then by nearest line.\n"
    "\n"
    "Options:\n"
    "  --format F        text (default), tsv, json, quickfix or sarif\n"
    "  --rules FILE      group rules tried before .klang/rules.yaml and the shipped ones\n"
    "  --families FILE   more flag families (after rules/families.yaml, .klang/families.yaml)\n"
    "  --repo DIR        repository whose .klang/ holds triage and local rules (default .;\n"
    "                    in a subdirectory of a kernel tree, the tree's top)\n"
    "  --arch NAME       the arch of the logs (default: detected from arch/<name>/ paths)\n"
    "  --src-root DIR    source tree prefix to strip (default: detected)\n"
    "  --build-dir DIR   O= build directory to strip (default: make's Entering directory)\n"
    "  --compiler C      gcc or clang, for parse (default: detected)\n"
    "  --fail-on LIST    exit 1 if a row is clang-only, gcc-only or new (comma-separated);\n"
    "                    rows triaged wontfix, false-positive or fixed do not count\n"
    "\n"
    "TSV columns: side, file, line, column, family, flag, group, occurrences, message\n"
    "(side is the compiler for parse; for both, flag is Clang's). Quickfix lines are\n"
    "file:line:col: kind: message, for vim -q and Emacs compilation-mode.\n"
    "\n"
    "Triage statuses: new, confirmed, wontfix, false-positive, fixed, kept per\n"
    "fingerprint in .klang/triage.yaml (JSON and text output show them).\n"
    "Exit status: 0 done, 1 --fail-on found rows, 2 bad usage or unreadable input.\n";

enum fmt { F_TEXT, F_TSV, F_JSON, F_QUICKFIX, F_SARIF };

struct args {
	const char **logs[3]; /* parse/old, gcc/new, clang */
	size_t nlogs[3];
	enum fmt fmt;
	const char *rules, *families, *repo, *arch, *src_root, *build_dir, *note;
	enum diag_cc cc;
	bool fail_clang, fail_gcc, fail_new, baseline, list;
	const char *pos[2];
	size_t npos;
};

static int bad(const char *fmt, const char *what)
{
	fputs("klang: diag: ", stderr);
	fprintf(stderr, fmt, what);
	fputs(" (see klang diag --help)\n", stderr);
	return EXIT_USAGE;
}

/* --repo is read (rules, statuses, builds) from a directory that is there:
 * a typo is said, never made. */
static int repo_is_dir(const char *repo)
{
	struct stat st;
	int err = stat(repo, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (err)
		warnx_("diag: --repo %s: %s", repo, strerror(err));
	return err ? EXIT_USAGE : EXIT_OK;
}

static int parse_fail_on(struct args *a, const char *v)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = strspn(v, ",") == strlen(v) ? bad("%s needs a value", "--fail-on") : 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "clang-only"))
			a->fail_clang = true;
		else if (!strcmp(t, "gcc-only"))
			a->fail_gcc = true;
		else if (!strcmp(t, "new"))
			a->fail_new = true;
		else
			rc = bad("--fail-on: '%s' is not clang-only, gcc-only or new", t);
	}
	free(copy);
	return rc;
}

/* Options with a value take "--opt VALUE" or "--opt=VALUE"; log lists run to the next option;
 * after "--" every word is a log (or FINGERPRINT STATUS). */
static int parse_args(int argc, char **argv, struct args *a, bool is_triage)
{
	int list = 0;	     /* which log list bare words go to */
	bool words = false;  /* after "--" */
	int stdin_taken = 0; /* "-" is read once */
	for (int k = 0; k < 3; k++)
		a->logs[k] = xcalloc((size_t)argc, sizeof(char *));
	static const char *const valued[] = {"--format",  "--rules",	"--families",  "--repo",
					     "--arch",	  "--src-root", "--build-dir", "--compiler",
					     "--fail-on", "--note"};
	for (int i = 2; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		if (!words && !strcmp(arg, "--")) {
			words = true;
			continue;
		}
		if (words || arg[0] != '-' || !strcmp(arg, "-")) {
			if (is_triage && list == 0) {
				if (a->npos == 2)
					return bad("unexpected argument '%s'", arg);
				a->pos[a->npos++] = arg;
				continue;
			}
			if (!strcmp(arg, "-") && stdin_taken++)
				return bad("%s", "- is given twice: stdin can be read once");
			a->logs[list][a->nlogs[list]++] = arg;
			continue;
		}
		char *eq = strchr(arg, '=');
		size_t namelen = eq ? (size_t)(eq - arg) : strlen(arg);
		size_t opt = 0; /* valued[opt] takes a value */
		while (opt < ARRAY_SIZE(valued) &&
		       (strlen(valued[opt]) != namelen || strncmp(arg, valued[opt], namelen)))
			opt++;
		bool takes = opt < ARRAY_SIZE(valued);
		if (takes) {
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			if (!val || (!*val && strcmp(valued[opt], "--note"))) /* "" drops a note */
				return bad("%s needs a value", valued[opt]);
		}
#define IS(name) (strlen(name) == namelen && !strncmp(arg, name, namelen))
		if (IS("--help") || IS("-h")) {
			fputs(usage_text, stdout);
			exit(EXIT_OK);
		} else if (IS("--gcc") || IS("--new")) {
			list = 1;
			a->baseline |= IS("--new");
		} else if (IS("--clang")) {
			list = 2;
		} else if (IS("--old")) {
			list = 0;
			a->baseline = true;
		} else if (IS("--from")) {
			list = 1;
		} else if (IS("--list")) {
			a->list = true;
		} else if (IS("--format")) {
			static const char *const names[] = {"text", "tsv", "json", "quickfix",
							    "sarif"};
			size_t k = 0;
			while (k < ARRAY_SIZE(names) && strcmp(val, names[k]))
				k++;
			if (k == ARRAY_SIZE(names))
				return bad(
				    "--format: '%s' is not text, tsv, json, quickfix or sarif",
				    val);
			a->fmt = (enum fmt)k;
		} else if (IS("--compiler")) {
			if (strcmp(val, "gcc") && strcmp(val, "clang"))
				return bad("--compiler: '%s' is not gcc or clang", val);
			a->cc = val[0] == 'g' ? DIAG_CC_GCC : DIAG_CC_CLANG;
		} else if (IS("--fail-on")) {
			if (parse_fail_on(a, val))
				return EXIT_USAGE;
		} else if (takes) {
			const char **dst[] = {NULL,	&a->rules,    &a->families,  &a->repo,
					      &a->arch, &a->src_root, &a->build_dir, NULL,
					      NULL,	&a->note};
			*dst[opt] = val;
		} else {
			return bad("unknown option '%s'", arg);
		}
#undef IS
	}
	return EXIT_OK;
}

static struct diag_parser_opts opts_for(const struct args *a, enum diag_cc cc)
{
	/* rows of TSV and quickfix show no notes, chains or units */
	return (struct diag_parser_opts){.cc = cc,
					 .arch = a->arch,
					 .src_root = a->src_root,
					 .build_dir = a->build_dir,
					 .brief = a->fmt == F_TSV || a->fmt == F_QUICKFIX};
}

/* Families, groups and triage statuses, from the shipped files, the repo's
 * .klang/ and the command line: loaded once (errors said once), applied to
 * each set (in the thread that read it: the three only read what they hold). */
struct annot {
	struct diag_families *fam;
	struct group_rules *rules;
	struct triage *tri;
	bool fps; /* the output shows fingerprints */
};

static void annot_free(struct annot *an)
{
	diag_families_free(an->fam);
	group_rules_free(an->rules);
	triage_free(an->tri);
}

static int annot_load(const struct args *a, struct annot *an)
{
	struct kerr e;
	memset(an, 0, sizeof(*an));
	an->fam = diag_families_default(a->repo, a->families, &e);
	if (!an->fam) {
		warnx_("%s", e.msg);
		return EXIT_USAGE;
	}
	an->rules = group_rules_default(a->repo, a->rules, &e);
	an->tri = triage_new();
	char *tpath = triage_path(a->repo);
	int loaded = an->rules ? triage_load(an->tri, tpath, &e) : -1;
	free(tpath);
	if (loaded) /* an error, or a corrupt store moved aside */
		warnx_("%s", e.msg);
	if (loaded < 0) {
		annot_free(an);
		return EXIT_USAGE;
	}
	an->fps = a->fmt == F_JSON || a->fmt == F_SARIF;
	return EXIT_OK;
}

static void annot_apply(const struct annot *an, struct diag_set *s)
{
	diag_families_apply(an->fam, s);
	group_apply(an->rules, s);
	triage_apply(an->tri, s);
	if (an->fps)
		diag_set_fingerprints(s);
}

/* Read logs into s, then annotate it (unless `an` is NULL). arches (or
 * NULL) gives each log's arch where --arch does not: they are the builds
 * found (default_logs), read with the logs kept before them. */
static int read_logs(struct diag_set *s, const char *const *logs, const char *const *arches,
		     size_t n, const struct diag_parser_opts *o, const struct annot *an)
{
	struct kerr e;
	for (size_t i = 0; i < n; i++) {
		struct diag_parser_opts oi = *o;
		if (arches && !oi.arch)
			oi.arch = arches[i];
		if ((arches ? buildlogs_parse : diag_parse_file)(s, logs[i], &oi, &e)) {
			warnx_("%s", e.msg);
			return EXIT_USAGE;
		}
	}
	if (an)
		annot_apply(an, s);
	return EXIT_OK;
}

/* Two lists of logs read at once: the two sides of a diff are independent
 * parses, so on two cores a diff takes little longer than one parse. */
struct reader {
	struct diag_set *s;
	const char *const *logs, *const *arches;
	size_t n;
	const struct diag_parser_opts *o;
	const struct annot *an;
	int rc;
};

static void *reader_run(void *arg)
{
	struct reader *r = arg;
	r->rc = read_logs(r->s, r->logs, r->arches, r->n, r->o, r->an);
	return NULL;
}

static int read_both(struct reader *a, struct reader *b)
{
	run_both(reader_run, a, b);
	return a->rc ? a->rc : b->rc;
}

static void write_rows(const struct args *a, struct diag *const *rows, size_t n, enum diag_view v,
		       const struct diag_diff *sum)
{
	switch (a->fmt) {
	case F_TSV:
		diag_write_tsv(stdout, rows, n, v);
		break;
	case F_JSON:
		diag_write_json(stdout, rows, n, v, sum);
		break;
	case F_QUICKFIX:
		diag_write_quickfix(stdout, rows, n, v);
		break;
	case F_SARIF:
		diag_write_sarif(stdout, rows, n, v);
		break;
	default:
		diag_write_text(stdout, rows, n, v, sum);
	}
}

static struct diag **all_rows(struct diag_set *s)
{
	size_t n = diag_set_size(s);
	struct diag **rows = xmalloc((n + 1) * sizeof(*rows));
	for (size_t i = 0; i < n; i++)
		rows[i] = diag_set_get(s, i);
	return rows;
}

static int cmd_parse(struct args *a)
{
	if (!a->nlogs[0])
		return bad("%s", "parse needs at least one LOG");
	struct annot an;
	if (annot_load(a, &an))
		return EXIT_USAGE;
	struct diag_set *s = diag_set_new();
	struct diag_parser_opts o = opts_for(a, a->cc);
	int rc = read_logs(s, a->logs[0], NULL, a->nlogs[0], &o, &an);
	annot_free(&an);
	if (!rc) {
		diag_set_sort(s);
		struct diag **rows = all_rows(s);
		write_rows(a, rows, diag_set_size(s), DIAG_VIEW_PARSE, NULL);
		free(rows);
	}
	diag_set_free(s);
	return rc;
}

/* Several arches per side are matched arch by arch; one arch per side is
 * matched whatever arch each was detected as. */
static bool one_arch(struct diag_set *s)
{
	for (size_t i = 1; i < diag_set_size(s); i++)
		if (strcmp(diag_set_get(s, i)->arch, diag_set_get(s, 0)->arch))
			return false;
	return true;
}

static bool gate(const struct args *a, const struct diag_diff *dd)
{
	for (size_t i = 0; i < dd->n; i++) {
		const struct diag *d = dd->rows[i];
		if (triage_settled(d->status))
			continue;
		if ((a->fail_clang && d->side == DIAG_SIDE_CLANG_ONLY) ||
		    (a->fail_gcc && d->side == DIAG_SIDE_GCC_ONLY) ||
		    (a->fail_new && d->base == DIAG_BASE_NEW))
			return true;
	}
	return false;
}

/* No logs given: per arch the newest GCC and Clang builds of the tree, as
 * the warnings view compares them (klang build puts them there). */
static int default_logs(struct args *a, const char ***arches)
{
	struct buildlog_pair *p;
	size_t n = buildlogs_find(a->repo, &p);
	if (!n) {
		buildlogs_free(p, n);
		return bad("diff needs --gcc LOG... and --clang LOG...: no finished GCC and Clang "
			   "builds of one config under %s/.klang (klang build makes them)",
			   a->repo);
	}
	*arches = xcalloc(n, sizeof(**arches));
	for (int k = 1; k < 3; k++) {
		free(a->logs[k]);
		a->logs[k] = xcalloc(n, sizeof(*a->logs[k]));
	}
	for (size_t i = 0; i < n; i++) {
		/* freed by cmd_diff: args' lists otherwise hold argv's strings */
		a->logs[1][i] = p[i].gcc;
		a->logs[2][i] = p[i].clang;
		(*arches)[i] = p[i].arch;
		size_t kept = buildlogs_earlier(p[i].gcc) + buildlogs_earlier(p[i].clang);
		fprintf(stderr, "klang: diag: %s: %s against %s%s", p[i].arch, p[i].gcc, p[i].clang,
			p[i].uptodate ? " (a build that compiled nothing: its log has no warnings; "
					"build into a fresh --out to see them)"
				      : "");
		if (kept) /* what incremental builds did not compile again */
			fprintf(stderr, ", with the %zu log%s kept before them", kept,
				kept == 1 ? "" : "s");
		fputc('\n', stderr);
		p[i].gcc = p[i].clang = p[i].arch = NULL;
	}
	a->nlogs[1] = a->nlogs[2] = n;
	buildlogs_free(p, n);
	return EXIT_OK;
}

static void free_default_logs(struct args *a, const char **arches)
{
	for (size_t i = 0; arches && i < a->nlogs[1]; i++) {
		free((char *)a->logs[1][i]);
		free((char *)a->logs[2][i]);
		free((char *)arches[i]);
	}
	free(arches);
}

static int cmd_diff(struct args *a)
{
	if (a->baseline && (!a->nlogs[0] || !a->nlogs[1] || a->nlogs[2]))
		return bad("%s", "diff --old LOG... --new LOG... needs both lists");
	if (!a->baseline && (a->nlogs[1] || a->nlogs[2]) && (!a->nlogs[1] || !a->nlogs[2]))
		return bad("%s", "diff needs --gcc LOG... and --clang LOG...");
	if (!a->baseline && a->nlogs[0])
		return bad("unexpected argument '%s' (logs follow --gcc or --clang)",
			   a->logs[0][0]);
	if (!a->baseline && a->fail_new)
		return bad("%s", "--fail-on new needs --old and --new");
	if (a->baseline && (a->fail_clang || a->fail_gcc))
		return bad("%s", "--fail-on clang-only/gcc-only needs --gcc and --clang");
	const char **arches = NULL;
	if (!a->baseline && !a->nlogs[1] && default_logs(a, &arches))
		return EXIT_USAGE;
	struct annot an;
	if (annot_load(a, &an)) {
		free_default_logs(a, arches);
		return EXIT_USAGE;
	}
	struct diag_set *s[2] = {diag_set_new(), diag_set_new()};
	struct diag_diff dd = {0};
	int rc;
	if (a->baseline) {
		struct diag_parser_opts o = opts_for(a, a->cc);
		struct reader r0 = {s[0], a->logs[0], NULL, a->nlogs[0], &o, &an, 0};
		struct reader r1 = {s[1], a->logs[1], NULL, a->nlogs[1], &o, &an, 0};
		rc = read_both(&r0, &r1);
		if (!rc)
			diag_diff_baseline(s[0], s[1], one_arch(s[0]) && one_arch(s[1]), &dd);
	} else {
		struct diag_parser_opts og = opts_for(a, DIAG_CC_GCC),
					oc = opts_for(a, DIAG_CC_CLANG);
		struct reader r0 = {s[0], a->logs[1], arches, a->nlogs[1], &og, &an, 0};
		struct reader r1 = {s[1], a->logs[2], arches, a->nlogs[2], &oc, &an, 0};
		rc = read_both(&r0, &r1);
		if (!rc)
			diag_diff_compilers(s[0], s[1], an.fam, one_arch(s[0]) && one_arch(s[1]),
					    &dd);
	}
	if (!rc) {
		write_rows(a, dd.rows, dd.n, a->baseline ? DIAG_VIEW_BASELINE : DIAG_VIEW_COMPILERS,
			   &dd);
		if (gate(a, &dd))
			rc = EXIT_FOUND;
	}
	diag_diff_free(&dd);
	annot_free(&an);
	diag_set_free(s[0]);
	diag_set_free(s[1]);
	free_default_logs(a, arches);
	return rc;
}

static int cmd_triage(struct args *a)
{
	struct kerr e;
	struct triage *t = triage_new();
	char *path = triage_path(a->repo), *top = NULL;
	int rc = EXIT_OK;
	int loaded = triage_load(t, path, &e);
	if (loaded) /* an error, or a corrupt store moved aside */
		warnx_("%s", e.msg);
	if (loaded < 0) {
		rc = EXIT_USAGE;
	} else if (a->list) {
		size_t n = 0;
		char *text = file_exists(path) ? read_file(path, &n, &e) : NULL;
		if (text)
			fwrite(text, 1, n, stdout);
		free(text);
	} else if (a->npos != 2) {
		rc = bad("%s", "triage needs FINGERPRINT STATUS");
	} else {
		uint64_t fp;
		int st = triage_status_parse(a->pos[1]);
		if (triage_fp_parse(a->pos[0], &fp)) {
			rc = bad("'%s' is not a fingerprint (16 hex digits)", a->pos[0]);
		} else if (st < 0) {
			rc = bad("'%s' is not new, confirmed, wontfix, false-positive or fixed",
				 a->pos[1]);
		} else if (!(top = repo_workdir(a->repo))) {
			/* statuses are written to a repository's .klang/ only */
			char abs[PATH_MAX];
			warnx_("diag: not a git repository: %s",
			       realpath(a->repo, abs) ? abs : a->repo);
			rc = EXIT_USAGE;
		} else {
			/* --from LOG... fills in file, flag and message */
			const struct diag *found = NULL;
			struct diag_set *s = diag_set_new();
			struct diag_parser_opts o = opts_for(a, a->cc);
			rc = read_logs(s, a->logs[1], NULL, a->nlogs[1], &o, NULL);
			diag_set_fingerprints(s);
			for (size_t i = 0; !rc && i < diag_set_size(s) && !found; i++)
				if (diag_fp(diag_set_get(s, i)) == fp)
					found = diag_set_get(s, i);
			if (!rc && a->nlogs[1] && !found)
				rc = bad("fingerprint %s is in none of the --from logs", a->pos[0]);
			if (!rc) {
				triage_set(t, fp, st, a->note, found);
				int saved = triage_save(t, path, &e);
				if (saved)
					warnx_("%s", e.msg);
				if (saved < 0)
					rc = EXIT_USAGE;
			}
			diag_set_free(s);
		}
	}
	free(top);
	free(path);
	triage_free(t);
	return rc;
}

int cmd_diag(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	struct args a = {.repo = "."};
	const char *sub = argv[1];
	bool triage = !strcmp(sub, "triage");
	int rc = parse_args(argc, argv, &a, triage);
	if (!rc)
		rc = repo_is_dir(a.repo);
	char *top = rc ? NULL : kernel_top(a.repo); /* from a subdirectory: the tree's */
	if (top)
		a.repo = top;
	if (!rc) {
		if (!strcmp(sub, "parse"))
			rc = cmd_parse(&a);
		else if (!strcmp(sub, "diff"))
			rc = cmd_diff(&a);
		else if (triage)
			rc = cmd_triage(&a);
		else
			rc = bad("unknown subcommand '%s'", sub);
	}
	for (int k = 0; k < 3; k++)
		free(a.logs[k]);
	free(top);
	if (!output_written("diag"))
		rc = rc == EXIT_OK ? EXIT_FOUND : rc;
	return rc;
}
