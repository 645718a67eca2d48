/* klang build: the cross product of arches and toolchains, built in parallel on
 * one jobserver, with one live line per build on a terminal (plain periodic
 * lines otherwise), a log per build and DIR/summary.json. */
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "core/build.h"
#include "core/buildlogs.h"
#include "core/config.h"
#include "core/diag.h"
#include "core/util.h"

static const char usage_text[] =
    "usage: klang build [--repo DIR] [--arch LIST] [--toolchain LIST] [--config TARGET|FILE]\n"
    "                   [--fragment FILE|CONFIG_X=V]... [--jobs N] [--out DIR]\n"
    "                   [--wrapper ccache|distcc|icecc] [--target GOAL] [--records DIR]\n"
    "                   [-- MAKEVAR=VALUE ...]\n"
    "\n"
    "Build the kernel in DIR (default: .) for every ARCH x TOOLCHAIN, in parallel, on\n"
    "one GNU make jobserver of N slots: all builds together never run more than N\n"
    "jobs. Each build runs `make O=OUT/<arch>-<toolchain>`: configure, then build.\n"
    "DIR may be a subdirectory of the tree: the tree (the nearest directory above\n"
    "with scripts/Kbuild.include) is built.\n"
    "\n"
    "  --arch LIST        kernel ARCH values, comma-separated: arm64,x86_64 (default:\n"
    "                     config.yaml's arches:, else arm64,x86_64)\n"
    "  --toolchain LIST   llvm (LLVM=1), llvm-N (LLVM=-N), clang (CC=clang with GNU\n"
    "                     binutils), clang-N, gcc (CROSS_COMPILE found for the arch),\n"
    "                     gcc-N, or a path to a compiler (default: config.yaml's\n"
    "                     toolchains:, else llvm,gcc)\n"
    "  --config X         a config target (defconfig, tinyconfig, allmodconfig, ...)\n"
    "                     or a .config file (default: config.yaml's config:, else\n"
    "                     defconfig)\n"
    "  --fragment F       a config fragment file or a CONFIG_X=y line, merged into\n"
    "                     .config before `make olddefconfig` (repeatable)\n"
    "  --jobs N           jobserver slots (default: config.yaml's jobs:, else the\n"
    "                     number of CPUs)\n"
    "  --out DIR          where builds go (default: the tree's .klang/out, as in the\n"
    "                     workbench; for a tree that cannot be written, out/ of\n"
    "                     $XDG_CACHE_HOME/klang/trees/<tree>-<hash of its path>)\n"
    "  --wrapper W        ccache, distcc or icecc in front of CC (HOSTCC untouched),\n"
    "                     or none (default: config.yaml's wrapper:, else none);\n"
    "                     DISTCC_HOSTS and the icecc scheduler are yours to set\n"
    "  --target GOAL      make goal (default: Kbuild's default, which builds vmlinux)\n"
    "  --records DIR      previous build records, for progress totals\n"
    "                     (default: .klang/builds of the tree, or builds/ beside\n"
    "                     the cache's out/)\n"
    "  -- MAKEVAR=VALUE   passed to every make (W=1, LLVM_IAS=0, CROSS_COMPILE=...),\n"
    "                     after config.yaml's make: list\n"
    "\n"
    "Writes OUT/<arch>-<toolchain>/build.log (the complete make output) and\n"
    "summary.json, and OUT/summary.json for all builds. The log of the build before\n"
    "is kept in earlier/ beside it until every unit it compiled is compiled again\n"
    "(Kbuild rebuilds only what changed); the warnings view and klang diag diff\n"
    "read it with the new one, each unit's warnings from the last log that\n"
    "compiled it. Ctrl-C cancels every build\n"
    "(SIGTERM to its process group, SIGKILL 5 s later; a second Ctrl-C kills at once).\n"
    "Exit status: 0 all builds ok, 1 a build failed or was cancelled (or this output\n"
    "could not be written), 2 bad usage.\n";

static volatile sig_atomic_t signals_seen;

static void on_signal(int sig)
{
	(void)sig;
	signals_seen++;
}

/* Adds the comma-separated names of `list`; false if one is empty ("",
 * "arm64,,x86_64", "arm64,"), and then adds none. */
static bool split_list(const char *list, char ***out, size_t *n)
{
	char *copy = xstrdup(list), *end;
	size_t n0 = *n;
	bool ok = true;
	for (char *t = copy; ok && t; t = end ? end + 1 : NULL) {
		if ((end = strchr(t, ',')))
			*end = '\0';
		t = str_trim(t);
		ok = *t;
		if (ok) {
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = xstrdup(t);
		}
	}
	free(copy);
	while (!ok && *n > n0)
		free((*out)[--*n]);
	return ok;
}

static int cpu_count(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

#define S(n) ((n) == 1 ? "" : "s") /* the plural's s */

static void fmt_time(char *buf, size_t n, double secs)
{
	long s = secs < 0 ? 0 : (long)secs;
	if (s >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, n, "%ld:%02ld", s / 60, s % 60);
}

static int term_width(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
		return ws.ws_col;
	return 80;
}

/* "arm64-llvm building [======>         ]  45%   312/690  W 3   E 0    1:23 ETA 1:40  CC x.o" */
static void live_line(struct strbuf *sb, const struct build *b, int namew)
{
	char el[32], eta[32] = "";
	fmt_time(el, sizeof(el), build_elapsed(b));
	long e = build_eta(b);
	if (e > 0)
		fmt_time(eta, sizeof(eta), (double)e);
	double f = build_fraction(b);
	char bar[19];
	memset(bar, ' ', sizeof(bar) - 1);
	bar[0] = '[';
	bar[17] = ']';
	bar[18] = '\0';
	if (f >= 0) {
		int fill = (int)(f * 16 + 0.5);
		memset(bar + 1, '=', (size_t)fill);
		if (fill > 0 && fill < 16)
			bar[fill] = '>';
	} else if (!build_status_done(b->status) && b->status != BUILD_QUEUED) {
		int pos = (int)(build_now() * 8) % 26; /* indeterminate: a bouncing block */
		pos = pos < 13 ? pos : 25 - pos;
		memcpy(bar + 1 + pos, "<=>", 3);
	}
	sb_addf(sb, "%-*s %-11s %s", namew, b->name, build_status_name(b->status), bar);
	if (f >= 0)
		sb_addf(sb, " %3d%%", (int)(f * 100));
	else
		sb_adds(sb, "    ?");
	if (kbuild_total_known(&b->progress) && !build_status_done(b->status))
		sb_addf(sb, " %5lu/%-5lu", b->progress.objects, b->progress.expected);
	else
		sb_addf(sb, " %5lu obj  ", b->progress.objects);
	sb_addf(sb, " W %-3lu E %-3lu %5s", b->warnings, b->errors, el);
	if (*eta)
		sb_addf(sb, " ETA %s", eta);
	if (b->status == BUILD_BUILDING || b->status == BUILD_CONFIGURING)
		sb_addf(sb, "  %s", b->progress.last);
}

struct view {
	bool tty;
	int namew, drawn;
	double last_plain, last_draw;
	enum build_status *seen; /* status last printed, per build */
};

static void draw(struct view *v, struct build_mgr *m, bool force)
{
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	if (v->tty) {
		int w = term_width() - 1;
		if (v->drawn)
			sb_addf(&sb, "\r\033[%dA", v->drawn);
		for (size_t i = 0; i < m->nbuilds; i++) {
			sb_reset(&line);
			live_line(&line, m->builds[i], v->namew);
			if ((int)line.len > w)
				line.len = (size_t)w;
			sb_addf(&sb, "\r\033[K%.*s\n", (int)line.len, sb_str(&line));
		}
		v->drawn = (int)m->nbuilds;
	} else {
		double now = build_now();
		bool periodic = force || now - v->last_plain >= 10;
		for (size_t i = 0; i < m->nbuilds; i++) {
			const struct build *b = m->builds[i];
			bool running =
			    b->status == BUILD_CONFIGURING || b->status == BUILD_BUILDING;
			if (b->status == v->seen[i] && !(periodic && running))
				continue;
			v->seen[i] = b->status;
			char el[32];
			fmt_time(el, sizeof(el), build_elapsed(b));
			sb_addf(&sb, "klang: %s: %s, %lu", b->name, build_status_name(b->status),
				b->progress.objects);
			if (kbuild_total_known(&b->progress) && !build_status_done(b->status))
				sb_addf(&sb, "/%lu", b->progress.expected);
			sb_addf(&sb, " object%s, %lu warning%s, %lu error%s, %s\n",
				S(b->progress.objects), b->warnings, S(b->warnings), b->errors,
				S(b->errors), el);
		}
		if (periodic)
			v->last_plain = now;
	}
	fputs(sb_str(&sb), stdout);
	fflush(stdout);
	sb_free(&sb);
	sb_free(&line);
}

static void print_tail(const char *path, int lines)
{
	struct kerr e;
	size_t len;
	char *text = read_file(path, &len, &e);
	if (!text)
		return;
	const char *p = text + len;
	while (p > text && lines >= 0)
		if (*--p == '\n' && p + 1 != text + len)
			lines--;
	if (*p == '\n')
		p++;
	for (const char *l = p; *l;) {
		size_t n = strcspn(l, "\n");
		printf("    | %.*s\n", (int)n, l);
		l += n + (l[n] == '\n');
	}
	free(text);
}

static void report(const struct build_mgr *m, const char *summary, bool summary_written)
{
	for (size_t i = 0; i < m->nbuilds; i++) {
		const struct build *b = m->builds[i];
		char code[32] = " (not started)";
		if (b->exit_code >= 0)
			snprintf(code, sizeof(code), " (exit %d)", b->exit_code);
		printf("%s: %s%s, %lu object%s, %lu warning%s, %lu error%s, %.1fs, %s\n", b->name,
		       build_status_name(b->status), code, b->progress.objects,
		       S(b->progress.objects), b->warnings, S(b->warnings), b->errors, S(b->errors),
		       build_elapsed(b), b->log_path);
		if (b->error)
			printf("    klang: %s\n", b->error);
		size_t kept = b->status == BUILD_OK ? buildlogs_earlier(b->log_path) : 0;
		if (kept)
			printf("    klang: %s in the %zu log%s kept in %s/earlier/ (the warnings "
			       "view and klang diag diff read them)\n",
			       b->progress.objects ? "the warnings of what this build did not "
						     "compile again are"
						   : "up to date, nothing compiled: the tree's "
						     "warnings are",
			       kept, S(kept), b->outdir);
		else if (b->status == BUILD_OK && !b->progress.objects)
			printf("    klang: up to date, nothing compiled: this log has none of the "
			       "warnings of the build before (build into a fresh --out to see "
			       "them)\n");
		if (b->status == BUILD_FAILED && b->exit_code >= 0) /* make ran: its log */
			print_tail(b->log_path, 10);
	}
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	if (summary_written)
		printf("summary: %s\n", summary);
	printf("cpu: klang %.3fs, builds %.2fs\n",
	       (double)self.ru_utime.tv_sec + (double)self.ru_stime.tv_sec +
		   (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6,
	       (double)kids.ru_utime.tv_sec + (double)kids.ru_stime.tv_sec +
		   (double)(kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) / 1e6);
}

struct opts {
	const char *repo, *config, *out, *wrapper, *target, *records;
	char **arches, **toolchains;
	size_t narch, ntc;
	const char **fragments;
	size_t nfrag;
	int jobs;
};

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
	    {"repo", required_argument, NULL, 'r'},
	    {"arch", required_argument, NULL, 'a'},
	    {"toolchain", required_argument, NULL, 't'},
	    {"config", required_argument, NULL, 'c'},
	    {"fragment", required_argument, NULL, 'f'},
	    {"jobs", required_argument, NULL, 'j'},
	    {"out", required_argument, NULL, 'o'},
	    {"wrapper", required_argument, NULL, 'w'},
	    {"target", required_argument, NULL, 'g'},
	    {"records", required_argument, NULL, 'R'},
	    {"help", no_argument, NULL, 'h'},
	    {0},
	};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":j:h", longopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'r':
			o->repo = optarg;
			break;
		case 'a':
		case 't':
			if (!split_list(optarg, c == 'a' ? &o->arches : &o->toolchains,
					c == 'a' ? &o->narch : &o->ntc)) {
				warnx_("build: %s '%s': an empty name in the list",
				       c == 'a' ? "--arch" : "--toolchain", optarg);
				return -1;
			}
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'f':
			o->fragments = xrealloc(o->fragments, (o->nfrag + 1) * sizeof(char *));
			o->fragments[o->nfrag++] = optarg;
			break;
		case 'j':
			o->jobs = (int)strtol(optarg, &end, 10);
			if (*end || o->jobs < 1 || o->jobs > 4096) {
				warnx_("build: --jobs '%s': want a number from 1 to 4096", optarg);
				return -1;
			}
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'w':
			o->wrapper = optarg;
			break;
		case 'g':
			o->target = optarg;
			break;
		case 'R':
			o->records = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			option_error("build", c, argv);
			return -1;
		}
	}
	return 0;
}

static void free_opts(struct opts *o)
{
	for (size_t i = 0; i < o->narch; i++)
		free(o->arches[i]);
	for (size_t i = 0; i < o->ntc; i++)
		free(o->toolchains[i]);
	free(o->arches);
	free(o->toolchains);
	free(o->fragments);
}

/* cfg_arches, cfg_tcs: those of the matrix config.yaml gave, not the
 * command line (or the defaults): an error naming one of them says so */
static int add_builds(struct build_mgr *m, struct opts *o, const char *out, char **vars,
		      size_t nvars, bool cfg_arches, bool cfg_tcs)
{
	struct kerr e;
	for (size_t a = 0; a < o->narch; a++)
		for (size_t t = 0; t < o->ntc; t++) {
			struct build_spec s = {
			    .srcdir = o->repo,
			    .outroot = out,
			    .arch = o->arches[a],
			    .toolchain = o->toolchains[t],
			    .config = o->config,
			    .fragments = o->fragments,
			    .nfragments = o->nfrag,
			    .makevars = (const char **)vars,
			    .nmakevars = nvars,
			    .wrapper = o->wrapper,
			    .target = o->target,
			};
			struct build *b = bmgr_add(m, &s, &e);
			if (!b) {
				const char *from = cfg_arches && strstr(e.msg, s.arch)
						       ? " (arches: of config.yaml)"
						   : cfg_tcs && strstr(e.msg, s.toolchain)
						       ? " (toolchains: of config.yaml)"
						       : "";
				warnx_("build: %s%s", e.msg, from);
				return -1;
			}
			for (size_t i = 0; i + 1 < m->nbuilds; i++)
				if (!strcmp(m->builds[i]->name, b->name)) {
					warnx_("build: %s given twice", b->name);
					return -1;
				}
		}
	return 0;
}

/* Returns whether it said that the summary could not be written. */
static bool run(struct build_mgr *m, struct view *v, const char *summary)
{
	int cancels = 0;
	size_t finished = 0;
	bool summary_warned = false;
	struct kerr e;
	while (bmgr_busy(m)) {
		if (signals_seen > cancels) {
			if (!cancels) {
				fprintf(stderr, "klang: cancelling (Ctrl-C again to kill now)\n");
				v->drawn = 0; /* the live lines start again below */
			} else
				m->grace = 0;
			cancels = signals_seen;
			bmgr_cancel_all(m);
		}
		bmgr_step(m, v->tty ? 250 : 1000);
		size_t done = 0;
		for (size_t i = 0; i < m->nbuilds; i++)
			done += build_status_done(m->builds[i]->status);
		if (done != finished && bmgr_write_summary(m, summary, &e) < 0 && !summary_warned) {
			warnx_("build: %s", e.msg); /* once, not per finished build */
			summary_warned = true;
		}
		finished = done;
		/* a terminal gets at most 8 frames a second, and one at least */
		double now = build_now();
		bool changed = bmgr_changed(m);
		if (v->tty ? (changed && now - v->last_draw >= 0.125) || now - v->last_draw >= 1
			   : changed || now - v->last_plain >= 10) {
			draw(v, m, false);
			v->last_draw = now;
		}
	}
	return summary_warned;
}

int cmd_build(int argc, char **argv)
{
	struct opts o = {.repo = "."};
	int r = parse(argc, argv, &o);
	if (r) {
		free_opts(&o);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	/* run from a subdirectory (cd drivers/gpu; klang build): the tree's top */
	char *top = kernel_top(o.repo);
	if (top)
		o.repo = top;
	char **vars = argv + optind;
	size_t nvars = (size_t)(argc - optind);
	struct build_mgr m;
	struct kerr e;
	/* config.yaml (the user's, the tree's) fills in what was not given */
	struct config cfg = {0};
	config_defaults(&cfg);
	if (config_load(&cfg, o.repo, NULL, &e) < 0) {
		warnx_("build: %s", e.msg);
		config_free(&cfg);
		free_opts(&o);
		free(top);
		return EXIT_USAGE;
	}
	/* the same matrix as the workbench's b: config.yaml's, else arm64,x86_64 x llvm,gcc */
	bool cfg_arches = !o.narch, cfg_tcs = !o.ntc;
	for (size_t i = 0; cfg_arches && i < cfg.narches; i++)
		split_list(cfg.arches[i], &o.arches, &o.narch);
	for (size_t i = 0; cfg_tcs && i < cfg.ntoolchains; i++)
		split_list(cfg.toolchains[i], &o.toolchains, &o.ntc);
	o.config = o.config ? o.config : cfg.config_target;
	o.jobs = o.jobs ? o.jobs : (int)cfg.jobs;
	o.wrapper = config_wrapper(o.wrapper ? o.wrapper : cfg.wrapper);
	/* its make: variables first, the command line's after them (they win) */
	char **allvars = xcalloc(cfg.nmakevars + nvars + 1, sizeof(*allvars));
	for (size_t i = 0; i < cfg.nmakevars; i++)
		allvars[i] = cfg.makevars[i];
	for (size_t i = 0; i < nvars; i++)
		allvars[cfg.nmakevars + i] = vars[i];
	vars = allvars;
	nvars += cfg.nmakevars;
	/* by default where the builds view's b puts them, so the warnings
	 * view finds them */
	char *why = NULL, *home = o.out && o.records ? NULL : buildlogs_home(o.repo, &why);
	bool fell_back = why;
	if (why)
		fprintf(stderr, "klang: build: %s: building in %s\n", why, home);
	char *out = o.out ? xstrdup(o.out) : xasprintf("%s/out", home);
	char *records = o.records ? xstrdup(o.records) : xasprintf("%s/builds", home);
	free(why);
	free(home);
	char *summary = xasprintf("%s/summary.json", out);
	int status = EXIT_USAGE;
	if (!is_dir(o.repo)) {
		warnx_("build: --repo %s: not a directory", o.repo);
		goto out;
	}
	if (file_exists(out) && !is_dir(out)) {
		warnx_("build: --out %s: not a directory", out);
		goto out;
	}
	if (bmgr_init(&m, o.jobs ? o.jobs : cpu_count(), &e) < 0) {
		warnx_("build: %s", e.msg);
		goto out;
	}
	bmgr_set_records_dir(&m, records);
	if (add_builds(&m, &o, out, vars, nvars, cfg_arches && cfg.file_arches,
		       cfg_tcs && cfg.file_toolchains) < 0) {
		bmgr_free(&m);
		goto out;
	}
	if ((!o.records || !o.out) && !fell_back)
		state_dir_ignore_scratch(o.repo);
	if (mkdir_p(out, &e) < 0) {
		warnx_("build: %s", e.msg);
		bmgr_free(&m);
		goto out;
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: poll() returns at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a closed stdout must not orphan the builds */

	struct view v = {.tty = isatty(STDOUT_FILENO) && getenv("TERM") &&
				strcmp(getenv("TERM"), "dumb")};
	v.seen = xcalloc(m.nbuilds, sizeof(*v.seen));
	for (size_t i = 0; i < m.nbuilds; i++) {
		v.seen[i] = (enum build_status) - 1;
		int n = (int)strlen(m.builds[i]->name);
		v.namew = n > v.namew ? n : v.namew;
	}
	printf("klang: %zu build%s on %d job%s, in %s\n", m.nbuilds, S(m.nbuilds), m.js.slots,
	       S(m.js.slots), out);
	draw(&v, &m, true);
	bool warned = run(&m, &v, summary);
	draw(&v, &m, true);
	bool written = bmgr_write_summary(&m, summary, &e) == 0;
	if (!written && !warned)
		warnx_("build: %s", e.msg);
	report(&m, summary, written);
	/* a lost log or summary (a full disk) fails the run as a failed build does */
	status = written ? EXIT_OK : EXIT_FOUND;
	for (size_t i = 0; i < m.nbuilds; i++)
		if (m.builds[i]->status != BUILD_OK || m.builds[i]->error)
			status = EXIT_FOUND;
	if (!output_written("build"))
		status = EXIT_FOUND;
	free(v.seen);
	bmgr_free(&m);
out:
	free(summary);
	free(records);
	free(out);
	free_opts(&o);
	free(allvars);
	free(top);
	config_free(&cfg);
	return status;
}
