/* klang series: decide keep/drop for every patch of a stack for one Clang
 * version, print the decisions (text, TSV, JSON), and optionally apply the
 * kept patches to a new branch or export them as mbox or quilt files. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/series_print.h"
#include "core/apply.h"
#include "core/export.h"
#include "core/series.h"
#include "core/stackfiles.h"
#include "core/util.h"

static void usage(FILE *f)
{
	fputs("usage: klang series [--patchset FILE|NAME | --repo DIR --base REV --head REV]\n"
	      "                    [--mbox FILE | --quilt DIR [--base REV]]\n"
	      "                    (--clang VERSION | --cc PATH) [--format text|tsv|json]\n"
	      "                    [--override REF=keep|drop|clear|until:V]...\n"
	      "                    [--apply BRANCH [--force]] [--export DIR --as mbox|quilt]\n\n"
	      "Decide for every patch of base..head whether the given Clang still needs it,\n"
	      "and say why. Precedence: manual override > patchset rule > commit trailer >\n"
	      "tag default.\n\n"
	      "  --patchset F    a patchset file, or NAME for patchsets/NAME.yaml; it names\n"
	      "                  repo, base, head, extra tags and rules (--repo, --base and\n"
	      "                  --head given too win over it)\n"
	      "  --repo DIR      the repository (default: the current directory)\n"
	      "  --base REV      where the stack starts (default: nearest v* tag)\n"
	      "  --head REV      where it ends (default: HEAD)\n"
	      "  --mbox FILE     the stack is an mbox or patch file, --quilt DIR a quilt\n"
	      "                  series (DIR, DIR/patches or the series file); with --base\n"
	      "                  the patches are applied in memory on REV (in --repo), and\n"
	      "                  one that does not apply is listed on stderr (exit 1);\n"
	      "                  without it, --export writes the patches as read\n"
	      "  --clang V       the target Clang: 5, 5.0, 14.0.6\n"
	      "  --cc PATH       detect the target from this compiler (default: $CC, clang)\n"
	      "  --format F      text (default), tsv or json\n"
	      "  --override R=D  set a manual override, saved in REPO/.klang/overrides.yaml:\n"
	      "                  R is an index, a commit id prefix or a Change-Id; D is keep,\n"
	      "                  drop, until:V (not needed from V on) or clear\n"
	      "  --apply BRANCH  create BRANCH = base + kept patches (in-memory cherry-picks;\n"
	      "                  HEAD, index and work tree untouched); refuses an existing\n"
	      "                  branch\n"
	      "  --force         with --apply: replace BRANCH if klang created it\n"
	      "  --export DIR    write NNNN-subject.patch files (git format-patch form) into\n"
	      "                  DIR; never overwrites a file\n"
	      "  --as FORMAT     mbox (git am DIR/0*.patch) or quilt (adds DIR/series:\n"
	      "                  QUILT_PATCHES=DIR quilt push -a)\n\n"
	      "Rules: a patch whose trailer says 'Clang-Fixed: V' is not needed from V on;\n"
	      "'Clang-Min: V' needs V or newer. OBSOLETE patches with no known fixed version\n"
	      "are kept and flagged 'version unknown' with the versions their message\n"
	      "mentions. HACK patches are kept unless bounded. A dropped patch that a kept\n"
	      "patch needs (same lines) gets a warning.\n\n"
	      "TSV columns: index, commit, tags, decision, reason, subject (without tags).\n"
	      "Exit status: 0; 1 when a patch does not apply (--apply, --export, --base) or\n"
	      "a patch file is malformed; 2 on bad\n"
	      "input (missing ref, broken patchset, existing branch or file).\n",
	      f);
}

struct args {
	const char *patchset, *repo, *base, *head, *clang, *cc, *apply, *export_dir, *as;
	const char *files; /* --mbox FILE or --quilt DIR */
	enum stack_files_kind kind;
	enum series_format fmt;
	bool force;
	const char **overrides;
	size_t noverrides;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
	    {"patchset", required_argument, NULL, 'p'}, {"repo", required_argument, NULL, 'r'},
	    {"base", required_argument, NULL, 'b'},	{"head", required_argument, NULL, 'H'},
	    {"clang", required_argument, NULL, 'c'},	{"cc", required_argument, NULL, 'C'},
	    {"format", required_argument, NULL, 'f'},	{"override", required_argument, NULL, 'o'},
	    {"apply", required_argument, NULL, 'a'},	{"force", no_argument, NULL, 'F'},
	    {"export", required_argument, NULL, 'e'},	{"as", required_argument, NULL, 's'},
	    {"mbox", required_argument, NULL, 'm'},	{"quilt", required_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},		{0},
	};
	int c;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			a->patchset = optarg;
			break;
		case 'r':
			a->repo = optarg;
			break;
		case 'b':
			a->base = optarg;
			break;
		case 'H':
			a->head = optarg;
			break;
		case 'c':
			a->clang = optarg;
			break;
		case 'C':
			a->cc = optarg;
			break;
		case 'a':
			a->apply = optarg;
			break;
		case 'F':
			a->force = true;
			break;
		case 'e':
			a->export_dir = optarg;
			break;
		case 's':
			a->as = optarg;
			break;
		case 'm':
			a->files = optarg;
			a->kind = STACK_FILES_MBOX;
			break;
		case 'q':
			a->files = optarg;
			a->kind = STACK_FILES_QUILT;
			break;
		case 'o':
			a->overrides = xrealloc(a->overrides, (a->noverrides + 1) * sizeof(char *));
			a->overrides[a->noverrides++] = optarg;
			break;
		case 'f':
			if (series_format_parse(optarg, &a->fmt) < 0) {
				warnx_("series: unknown format '%s' (text, tsv or json)", optarg);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			option_error("series", c, argv);
			return -1;
		}
	}
	if (optind < argc)
		return warnx_("series: unexpected argument '%s' (see klang series --help)",
			      argv[optind]),
		       -1;
	if (a->cc && !*a->cc)
		return warnx_("series: --cc needs a value (see klang series --help)"), -1;
	if (a->clang && a->cc)
		return warnx_("series: give --clang or --cc, not both"), -1;
	if (!a->export_dir != !a->as)
		return warnx_("series: --export DIR and --as mbox|quilt go together"), -1;
	if (a->as && export_format_parse(a->as) < 0)
		return warnx_("series: --as must be mbox or quilt, not '%s'", a->as), -1;
	if (a->files && a->head)
		return warnx_("series: --head does not go with --mbox or --quilt"), -1;
	if (a->force && !a->apply)
		return warnx_("series: --force only goes with --apply"), -1;
	if (a->apply && !apply_branch_name_valid(a->apply))
		return warnx_("series: '%s' is not a valid branch name", a->apply), -1;
	return 0;
}

/* The target Clang, and where it came from ("--clang", "clang-14, Debian"). */
static int target_clang(const struct args *a, struct clang_version *v, char **from)
{
	struct kerr e;
	char b[32];
	if (a->clang) {
		if (clangver_parse(a->clang, v) < 0)
			return warnx_("series: --clang '%s' is not a version (5, 5.0, 14.0.6)",
				      a->clang),
			       -1;
		*from = xstrdup("--clang");
		return 0;
	}
	const char *cc = clangver_default_cc(a->cc);
	if (clangver_detect(cc, v, &e) < 0)
		return warnx_("series: %s (give the target with --clang)", e.msg), -1;
	if (v->apple)
		return warnx_(
			   "series: %s is Apple clang %s: Apple's numbers are not LLVM's and the "
			   "LLVM version is not known; give it with --clang",
			   cc, clangver_str(v, b, sizeof(b))),
		       -1;
	*from = xasprintf("%s%s%s", cc, v->vendor[0] ? ", " : "", v->vendor);
	return 0;
}

/* --override R=keep|drop|clear|until:V, saved as the user's own choice. */
static int set_override(struct series *s, const char *spec)
{
	const char *eq = strrchr(spec, '=');
	if (!eq)
		return warnx_("series: --override wants REF=keep|drop|clear|until:V, not '%s'",
			      spec),
		       -1;
	char *ref = xstrndup(spec, (size_t)(eq - spec));
	const char *what = eq + 1;
	long i = series_find(s, ref);
	struct clang_version until = {0};
	enum override_kind k = !strcmp(what, "keep")	? OV_KEEP
			       : !strcmp(what, "drop")	? OV_DROP
			       : !strcmp(what, "clear") ? OV_NONE
							: OV_UNTIL;
	struct kerr e;
	int rc = -1;
	if (i < 0)
		warnx_("series: --override: no single patch '%s' (index, commit or Change-Id)",
		       ref);
	else if (k == OV_UNTIL &&
		 (strncmp(what, "until:", 6) || clangver_parse(what + 6, &until) < 0))
		warnx_("series: --override: '%s' is not keep, drop, clear or until:V", what);
	else if ((rc = series_override(s, (size_t)i, k, &until, &e)) != 0)
		warnx_("series: %s", e.msg);
	if (rc > 0)
		rc = 0; /* a corrupt store was moved aside; the override is saved */
	free(ref);
	return rc;
}

static int do_apply(struct series *s, const struct args *a)
{
	struct apply_result res;
	struct kerr e;
	int rc = apply_series(s, a->apply, a->force, &res, &e);
	if (rc < 0) {
		warnx_("series: %s", e.msg);
		rc = EXIT_USAGE;
	} else if (rc == 1) {
		struct strbuf sb = STRBUF_INIT;
		apply_describe_conflict(s, &res, &sb);
		fprintf(stderr, "klang: series: branch '%s' not created:\n%s", a->apply,
			sb_str(&sb));
		sb_free(&sb);
		rc = EXIT_FOUND;
	} else {
		fprintf(stderr, "created branch %s at %.12s: base %s + %zu patch%s", a->apply,
			res.tip, s->st->base_ref, res.applied, res.applied == 1 ? "" : "es");
		for (size_t i = 0; i < res.nempty; i++)
			fprintf(stderr, "%s%zu", i ? ", " : " (empty, skipped: ", res.empty[i]);
		fputs(res.nempty ? ")\n" : "\n", stderr);
	}
	apply_result_free(&res);
	return rc;
}

static int do_export(struct series *s, const struct args *a)
{
	struct apply_result res;
	struct kerr e;
	char **files;
	size_t n;
	int rc = export_series(s, a->export_dir, (enum export_format)export_format_parse(a->as),
			       &res, &files, &n, &e);
	if (rc < 0) {
		warnx_("series: %s", e.msg);
		rc = EXIT_USAGE;
	} else if (rc == 1) {
		struct strbuf sb = STRBUF_INIT;
		apply_describe_conflict(s, &res, &sb);
		fprintf(stderr, "klang: series: nothing exported:\n%s", sb_str(&sb));
		sb_free(&sb);
		rc = EXIT_FOUND;
	} else {
		fprintf(stderr, "wrote %zu files to %s\n", n, a->export_dir);
		for (size_t i = 0; i < n; i++)
			free(files[i]);
		free(files);
	}
	apply_result_free(&res);
	return rc;
}

/* A stack read from files; malformed patches are listed, never dropped. */
static int open_files(const struct args *a, const struct patchset *ps, struct stack *st,
		      bool *malformed)
{
	struct patch_files bad;
	struct kerr e;
	if (stack_open_files_tags(st, a->files, a->kind, a->base,
				  a->repo ? a->repo
				  : ps	  ? ps->repo
					  : NULL,
				  ps ? (const char *const *)ps->tags : NULL, ps ? ps->ntags : 0,
				  &bad, &e) < 0) {
		warnx_("series: %s", e.msg);
		return -1;
	}
	patch_files_print_malformed(&bad, stderr);
	*malformed = bad.nmalformed > 0;
	patch_files_free(&bad);
	return 0;
}

/* Open the stack the patchset and the options name; hint at the fetch. */
static int open_stack(const struct args *a, const struct patchset *ps, struct stack *st)
{
	struct stack_opts o = {
	    .repo = a->repo ? a->repo
		    : ps    ? ps->repo
			    : NULL,
	    .base = a->base ? a->base
		    : ps    ? ps->base
			    : NULL,
	    .head = a->head ? a->head
		    : ps    ? ps->head
			    : NULL,
	    .extra_tags = ps ? (const char *const *)ps->tags : NULL,
	    .nextra_tags = ps ? ps->ntags : 0,
	};
	struct kerr e;
	if (stack_open(st, &o, &e) == 0)
		return 0;
	warnx_("series: %s", e.msg);
	if (ps && ps->fetch_url && ps->fetch_ref && o.head && strstr(e.msg, "not found"))
		fprintf(stderr, "  (fetch it with: git fetch %s %s:%s)\n", ps->fetch_url,
			ps->fetch_ref, o.head);
	return -1;
}

int cmd_series(int argc, char **argv)
{
	struct args a = {.fmt = SERIES_TEXT};
	struct patchset ps;
	struct stack st;
	struct series s;
	struct clang_version clang;
	struct kerr e;
	char *from = NULL;
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return free(a.overrides), rc > 0 ? EXIT_OK : EXIT_USAGE;
	bool have_ps = false, malformed = false;
	rc = EXIT_USAGE;
	if (a.patchset) {
		char *path = patchset_find(a.patchset);
		if (!path)
			warnx_("series: patchset '%s' not found", a.patchset);
		else if (patchset_load(&ps, path, &e) < 0)
			warnx_("%s", e.msg);
		else
			have_ps = true;
		free(path);
		if (!have_ps)
			goto out_args;
	}
	if (target_clang(&a, &clang, &from) < 0)
		goto out_ps;
	if (a.files ? open_files(&a, have_ps ? &ps : NULL, &st, &malformed) < 0
		    : open_stack(&a, have_ps ? &ps : NULL, &st) < 0)
		goto out_ps;
	int opened = series_open(&s, &st, have_ps ? &ps : NULL, &e);
	if (opened) /* an error, or a corrupt overrides file moved aside */
		warnx_("series: %s", e.msg);
	if (opened < 0)
		goto out_stack;
	series_decide(&s, &clang);
	rc = EXIT_OK;
	for (size_t i = 0; i < a.noverrides && rc == EXIT_OK; i++)
		if (set_override(&s, a.overrides[i]) < 0)
			rc = EXIT_USAGE;
	if (rc == EXIT_OK) {
		series_print(stdout, &s, a.fmt, from);
		if (a.fmt != SERIES_TEXT)
			series_print_warnings(stderr, &s);
		fflush(stdout);
		if (a.apply)
			rc = do_apply(&s, &a);
		if (rc == EXIT_OK && a.export_dir)
			rc = do_export(&s, &a);
		if (!output_written("series"))
			rc = rc == EXIT_OK ? EXIT_FOUND : rc;
	}
	if (rc == EXIT_OK && malformed)
		rc = EXIT_FOUND;
	series_free(&s);
out_stack:
	stack_free(&st);
out_ps:
	if (have_ps)
		patchset_free(&ps);
out_args:
	free(from);
	free(a.overrides);
	return rc;
}
