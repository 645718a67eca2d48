/* The demo's autoplay tour and screen dumps of the demo's main screens: the
 * real binary on a real demo workspace (core/demo.c), headless with
 * KLANG_SCRIPT at a fixed size. patchsets/demo/tour.keys plays to its end
 * at high speed with real builds; the stack, a diff and the series for two
 * Clang versions are dumped with fake clangs on PATH, the builds and
 * warnings views after the tour's real builds. Dumps are normalised (the
 * workspace path, build times, the build log tail whose line order depends
 * on make -j) and compared with tests/screen/tour-*.txt;
 * KLANG_UPDATE_SCREENS=1 rewrites them. */
#include <CUnit/CUnit.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/demo.h"
#include "tests/helpers.h"

static char *top, *demo_dir, *fake_bin;

/* A fake clang 14.0.6 as Debian's prints it: the picker reads the same on
 * every machine. */
static int setup(void)
{
	top = test_tmpdir();
	demo_dir = xasprintf("%s/demo", top);
	fake_bin = xasprintf("%s/bin", top);
	char *src = xasprintf("%s/patchsets/demo", test_src_dir());
	char *clang = xasprintf("%s/clang", fake_bin);
	const char *text = "#!/bin/sh\nprintf 'Debian clang version 14.0.6\\n"
			   "Target: x86_64-pc-linux-gnu\\n'\n";
	struct demo_info info;
	struct kerr e;
	int rc = demo_prepare(demo_dir, src, &info, &e) || mkdir_p(fake_bin, &e) ||
		 write_file_atomic(clang, text, strlen(text), &e) || chmod(clang, 0755);
	if (rc == 0)
		demo_info_free(&info);
	free(clang);
	free(src);
	return rc ? -1 : 0;
}

static int teardown(void)
{
	test_rmdir(top);
	free(top);
	free(demo_dir);
	free(fake_bin);
	return 0;
}

static char *tour_path(void)
{
	return xasprintf("%s/patchsets/demo/tour.keys", test_src_dir());
}

/* klang demo headless in a pinned environment; `path` NULL keeps PATH. */
static int run_demo(const char *outdir, const char *script, const char *args, const char *path,
		    char **err)
{
	char *path_env = path ? xasprintf("PATH='%s'", path) : xstrdup("");
	char *cmd = xasprintf("cd '%s' && env -u NO_COLOR -u LC_ALL -u LINES -u COLUMNS "
			      "-u KLANG_DATADIR -u XDG_CONFIG_HOME -u XDG_CACHE_HOME "
			      "TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME='%s' "
			      "KLANG_SCRIPT='%s' CC=clang %s '%s' demo '%s' %s",
			      outdir, outdir, script, path_env, test_klang_bin(), demo_dir,
			      args ? args : "");
	int rc = test_run(cmd, NULL, err);
	free(cmd);
	free(path_env);
	return rc;
}

static char *write_script(const char *dir, const char *text)
{
	char *path = xasprintf("%s/script", dir);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_atomic(path, text, strlen(text), &e), 0);
	return path;
}

/* Run klang demo with a script and options; its files land in the
 * directory returned (remove it with finish()). */
static char *play(const char *script_text, const char *args, const char *path)
{
	char *outdir = test_tmpdir(), *script = write_script(outdir, script_text), *err = NULL;
	int rc = run_demo(outdir, script, args, path, &err);
	if (rc)
		fprintf(stderr, "\nexit %d: %s\n", rc, err);
	CU_ASSERT_EQUAL(rc, 0);
	free(err);
	free(script);
	return outdir;
}

static void finish(char *outdir)
{
	test_rmdir(outdir);
	free(outdir);
}

static void replace_all(struct strbuf *sb, const char *text, const char *what, const char *with)
{
	const char *p;
	while ((p = strstr(text, what))) {
		sb_add(sb, text, (size_t)(p - text));
		sb_adds(sb, with);
		text = p + strlen(what);
	}
	sb_adds(sb, text);
}

/* The workspace path as DEMO, the test's directory as TMP, build times as M:SS, nothing after the
 * builds view's "-- log of" line. Caller frees. */
static char *normalise(const char *screen)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	replace_all(&b, screen, demo_dir, "DEMO");
	replace_all(&a, sb_str(&b), top, "TMP");
	sb_reset(&b);
	regex_t re;
	CU_ASSERT_EQUAL_FATAL(regcomp(&re, "err  [0-9]+:[0-9][0-9]", REG_EXTENDED), 0);
	const char *s = sb_str(&a);
	regmatch_t m;
	while (!regexec(&re, s, 1, &m, 0)) {
		sb_add(&b, s, (size_t)m.rm_so);
		sb_adds(&b, "err  M:SS");
		s += m.rm_eo;
	}
	sb_adds(&b, s);
	regfree(&re);
	char *tail = strstr(sb_str(&b), "\n-- log of ");
	if (tail) {
		char *eol = strchr(tail + 1, '\n');
		if (eol)
			b.len = (size_t)(eol + 1 - b.buf), b.buf[b.len] = '\0';
	}
	sb_free(&a);
	return sb_detach(&b);
}

static char *saved(const char *outdir, const char *name)
{
	char *path = xasprintf("%s/%s", outdir, name);
	struct kerr e;
	char *text = read_file(path, NULL, &e);
	free(path);
	return text;
}

/* Compare a dump, normalised, with tests/screen/NAME.txt (or rewrite it). */
static void check_screen(const char *outdir, const char *name)
{
	char *raw = saved(outdir, name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(raw);
	char *got = normalise(raw);
	char *want_path = xasprintf("%s/tests/screen/%s.txt", test_src_dir(), name);
	struct kerr e;
	if (getenv("KLANG_UPDATE_SCREENS") && *getenv("KLANG_UPDATE_SCREENS")) {
		CU_ASSERT_EQUAL(write_file_atomic(want_path, got, strlen(got), &e), 0);
	} else {
		char *want = read_file(want_path, NULL, &e);
		if (!want || strcmp(want, got))
			fprintf(stderr, "\nscreen %s differs from %s:\n%s\n", name, want_path, got);
		CU_ASSERT(want && !strcmp(want, got));
		free(want);
	}
	free(want_path);
	free(got);
	free(raw);
}

/* A broken tour is refused with FILE:LINE before anything is prepared or
 * drawn; so are --speed 0 and --play with --no-tui. */
static void test_bad_tour(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"# ok\nj Down\nFoo\n", "bad.keys:3: unknown key 'Foo'"},
	    {":caption hello\n:frobnicate 3\n", "bad.keys:2: unknown command ':frobnicate'"},
	    {":pause soon\n", "bad.keys:1: :pause needs SECONDS (a number >= 0), not 'soon'"},
	    {":delay -1\n", "bad.keys:1: :delay needs SECONDS"},
	    {"\n\"fix\n", "bad.keys:2: a \" is not closed"},
	    {":wait-builds x\n", "bad.keys:1: :wait-builds takes SECONDS"},
	    {"# nothing\n\n", "bad.keys: no steps"},
	    {"C-n C-x F12 PageDown <Down> <C-f>\n<Nope>\n", "bad.keys:2: unknown key '<Nope>'"},
	};
	char *dir = test_tmpdir(), *keys = xasprintf("%s/bad.keys", dir);
	char *ws = xasprintf("%s/ws", dir);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kerr e;
		CU_ASSERT_EQUAL(write_file_atomic(keys, cases[i].text, strlen(cases[i].text), &e),
				0);
		/* no KLANG_SCRIPT and no terminal: it must stop at the tour */
		char *cmd = xasprintf("cd '%s' && '%s' demo --play bad.keys '%s'", dir,
				      test_klang_bin(), ws);
		char *err = NULL;
		CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 2);
		if (!err || !strstr(err, cases[i].want))
			fprintf(stderr, "\ncase %zu: %s\n", i, err ? err : "(null)");
		CU_ASSERT(err && strstr(err, cases[i].want) &&
			  !strchr(strchr(err, '\n') + 1, '\n'));
		CU_ASSERT_FALSE(file_exists(ws));
		free(err);
		free(cmd);
	}
	const char *bad_args[] = {"--speed 0", "--speed fast", "--no-tui"};
	for (size_t i = 0; i < ARRAY_SIZE(bad_args); i++) {
		char *tour = tour_path();
		char *cmd = xasprintf("'%s' demo --play '%s' %s '%s'", test_klang_bin(), tour,
				      bad_args[i], ws);
		char *err = NULL;
		CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 2);
		CU_ASSERT(err && strstr(err, i < 2 ? "--speed needs a number from 0.01 to 10000"
						   : "--play needs"));
		CU_ASSERT_FALSE(file_exists(ws));
		free(err);
		free(cmd);
		free(tour);
	}
	char *out = NULL;
	char *cmd = xasprintf("'%s' demo --help", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT(out && strstr(out, "--play FILE") && strstr(out, "--speed N"));
	free(out);
	free(cmd);
	free(ws);
	free(keys);
	test_rmdir(dir);
	free(dir);
}

/* The stack, a patch's diff, and the series for Clang 9 and Clang 19 tried
 * in the picker: keep/drop change with the Clang. */
static void test_demo_screens(void)
{
	char *outdir = play(":resize 120x60\n"
			    ":save-display tour-stack\n"
			    "jjj<Enter>\n"
			    ":save-display tour-diff\n"
			    "q\n"
			    "c/^9$<Enter><Space>\n"
			    ":save-display tour-series-9\n"
			    "/^19$<Enter><Space>\n"
			    ":save-display tour-series-19\n",
			    NULL, fake_bin);
	const char *names[] = {"tour-stack", "tour-diff", "tour-series-9", "tour-series-19"};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		check_screen(outdir, names[i]);
	/* what the dumps must show, whatever they were regenerated as */
	char *s9 = saved(outdir, "tour-series-9"), *s19 = saved(outdir, "tour-series-19");
	char *diff = saved(outdir, "tour-diff");
	CU_ASSERT(diff && strstr(diff, "[patch] 4/23") && strstr(diff, "Clang-Fixed: 13"));
	CU_ASSERT(s9 && strstr(s9, "Clang 9: 20 kept, 3 dropped"));
	CU_ASSERT(s19 && strstr(s19, "Clang 19: 19 kept, 4 dropped"));
	CU_ASSERT(s9 && strstr(s9, " 4 keep ") && s19 && strstr(s19, " 4 drop "));
	CU_ASSERT(s9 && strstr(s9, "15 drop ") && s19 && strstr(s19, "15 keep "));
	free(s9);
	free(s19);
	free(diff);
	finish(outdir);
}

/* tour.keys plays to its end at 100x speed over real builds (GCC and
 * Clang, arm64 and x86_64); then the builds and warnings views. klang runs
 * make with --output-sync=line, so the logs, and so the warnings, are the
 * same on every run. */
static void test_tour_plays(void)
{
	char *tour = tour_path();
	char *args = xasprintf("--play '%s' --speed 100 --theme projector", tour);
	char *outdir = play(":resize 120x36\n"
			    ":wait 300\n"
			    ":save-display started\n"
			    ":save-attrs started-attrs\n"
			    ":wait-tour 240000\n"
			    ":save-display tour-end\n"
			    "3\n"
			    ":save-display tour-builds\n"
			    "4ss\n"
			    ":save-display tour-warnings\n"
			    "j<Enter>\n"
			    ":save-display tour-source\n",
			    args, NULL);
	char *started = saved(outdir, "started"), *builds = saved(outdir, "tour-builds");
	char *attrs = saved(outdir, "started-attrs");
	CU_ASSERT(started && strstr(started, " klang tour "));
	/* the caption box is drawn in its own theme element */
	CU_ASSERT(attrs && strstr(attrs, " caption@"));
	free(attrs);
	CU_ASSERT(builds && strstr(builds, "LD      vmlinux"));
	const char *names[] = {"tour-end", "tour-builds", "tour-warnings", "tour-source"};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		check_screen(outdir, names[i]);
	free(started);
	free(builds);
	free(args);
	free(tour);
	finish(outdir);
}

/* A key pauses the tour, another resumes it, q stops it and the workbench
 * takes keys again. */
static void test_pause_resume_quit(void)
{
	char *tour = tour_path();
	char *args = xasprintf("--play '%s' --speed 5", tour);
	char *outdir = play(":resize 100x30\n"
			    ":wait 200\n"
			    "x\n"
			    ":wait 1500\n"
			    ":save-display paused\n"
			    "x\n"
			    ":wait 2000\n"
			    ":save-display resumed\n"
			    "q\n"
			    ":save-display stopped\n"
			    "g\n"
			    ":wait 1500\n"
			    ":save-display after\n",
			    args, fake_bin);
	char *paused = saved(outdir, "paused"), *resumed = saved(outdir, "resumed");
	char *stopped = saved(outdir, "stopped"), *after = saved(outdir, "after");
	/* the first caption lasts 1.6 s at 5x: paused for 1.5 s, still the
	 * first; 2 s after it resumes, the second (H comes at 3.3 s) */
	CU_ASSERT(paused && strstr(paused, " klang tour 1/") &&
		  strstr(paused, "paused: any key resumes"));
	CU_ASSERT(resumed && strstr(resumed, " klang tour 2/") && !strstr(resumed, "paused:"));
	CU_ASSERT(stopped && !strstr(stopped, " klang tour ") && strstr(stopped, "tour stopped"));
	/* g went to the workbench: the first patch, and no caption came back */
	CU_ASSERT(after && strstr(after, "patch 1 of 23") && !strstr(after, " klang tour "));
	free(paused);
	free(resumed);
	free(stopped);
	free(after);
	free(args);
	free(tour);
	finish(outdir);
}

void suite_tour(void)
{
	CU_pSuite s = CU_add_suite("tour", setup, teardown);
	CU_add_test(s, "a bad tour file or option is refused before the screen", test_bad_tour);
	CU_add_test(s, "demo screens: stack, diff, series for two Clangs", test_demo_screens);
	CU_add_test(s, "tour.keys plays to its end, then builds and warnings", test_tour_plays);
	CU_add_test(s, "a key pauses and resumes, q stops the tour", test_pause_resume_quit);
}
