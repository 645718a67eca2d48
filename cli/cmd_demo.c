/* klang demo: create the demo workspace (core/demo.c) and open the
 * workbench on it, or with --no-tui print where it is; with --play, replay
 * an autoplay tour over it (tui/tour.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "core/demo.h"
#include "core/util.h"
#include "tui/tour.h"
#include "tui/tui.h"

static void usage(FILE *f)
{
	fputs("usage: klang demo [DIR] [--no-tui] [--theme NAME] [--play FILE [--speed N]]\n\n"
	      "Create the demo workspace and open the workbench on it: a git repository\n"
	      "(branch " DEMO_BRANCH " on tag " DEMO_BASE_TAG ") holding a small kernel-like\n"
	      "tree that builds in seconds for arm64 and x86_64 with GCC and Clang, and a\n"
	      "stack of tagged patches whose HACK and OBSOLETE patches depend on the Clang\n"
	      "version.\n\n"
	      "  DIR            where to put it (default: $XDG_CACHE_HOME/klang/demo,\n"
	      "                 else ~/.cache/klang/demo)\n"
	      "  --no-tui       only prepare it, and print its path on stdout\n"
	      "  --theme NAME   the workbench's colour theme (e.g. projector)\n"
	      "  --play FILE    play an autoplay tour over the workbench: keys with pauses\n"
	      "                 and captions. --play tour.keys (shipped in patchsets/demo/)\n"
	      "                 walks through the four jobs in about three minutes. A key\n"
	      "                 pauses it, another resumes it; q stops the tour and leaves\n"
	      "                 the workbench to you where it is (q again quits).\n"
	      "                 Tour files: one step per line, keys by their tmux names\n"
	      "                 (Enter Down C-n j ...), \"strings\", :caption TEXT,\n"
	      "                 :pause SECONDS, :delay SECONDS, :wait-builds, # comments\n"
	      "                 (see klang(1))\n"
	      "  --speed N      play the tour N times faster (0.01 to 10000, e.g. 0.5 or 50;\n"
	      "                 default 1)\n"
	      "  --help         this text\n\n"
	      "Running it again reuses the workspace. Files or commits you changed there\n"
	      "are kept as they are (and listed); to start afresh, remove DIR.\n",
	      f);
}

/* A tour by path, else a bare name shipped in patchsets/demo/ ("tour.keys"). */
static int tour_load_shipped(const char *name, struct kerr *e)
{
	char *rel = xasprintf("patchsets/demo/%s", name);
	char *shipped = file_exists(name) || strchr(name, '/') ? NULL : data_path(rel);
	int rc = tour_load(shipped ? shipped : name, e);
	free(shipped);
	free(rel);
	return rc;
}

static const char *const state_names[] = {
    [DEMO_CREATED] = "created",
    [DEMO_REUSED] = "reusing",
    [DEMO_REFRESHED] = "refreshed",
    [DEMO_KEPT] = "reusing",
};

int cmd_demo(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"no-tui", no_argument, NULL, 'n'},	    {"theme", required_argument, NULL, 't'},
	    {"play", required_argument, NULL, 'p'}, {"speed", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},	    {0},
	};
	const char *theme = NULL, *play = NULL;
	double speed = 1;
	bool no_tui = false;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			no_tui = true;
			break;
		case 't':
			theme = optarg;
			break;
		case 'p':
			play = optarg;
			break;
		case 's': {
			char *end;
			speed = strtod(optarg, &end);
			if (end == optarg || *end || !(speed >= 0.01 && speed <= 10000)) {
				warnx_("demo: --speed needs a number from 0.01 to 10000, not '%s'",
				       optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return option_error("demo", c, argv);
		}
	}
	if (argc - optind > 1) {
		warnx_("demo: one DIR at most (see klang demo --help)");
		return EXIT_USAGE;
	}
	struct kerr e;
	if (play && no_tui) {
		warnx_("demo: --play needs the workbench (not --no-tui)");
		return EXIT_USAGE;
	}
	/* a broken tour is refused before anything is prepared or drawn */
	if (play && tour_load_shipped(play, &e)) {
		warnx_("%s", e.msg);
		return EXIT_USAGE;
	}
	tour_set_speed(speed);
	char *dir = optind < argc ? xstrdup(argv[optind]) : demo_default_dir();
	if (!dir) {
		warnx_("demo: neither XDG_CACHE_HOME nor HOME is set: give a DIR");
		tour_free();
		return EXIT_USAGE;
	}
	struct demo_info info;
	if (demo_prepare(dir, NULL, &info, &e) < 0) {
		warnx_("demo: %s", e.msg);
		free(dir);
		tour_free();
		return EXIT_USAGE;
	}
	free(dir);
	fprintf(stderr, "klang demo: %s %s (%zu patches on %s, branch %s)\n",
		state_names[info.state], info.dir, info.npatches, DEMO_BASE_TAG, DEMO_BRANCH);
	if (info.notes)
		fputs(info.notes, stderr);
	int rc = EXIT_OK;
	if (no_tui) {
		puts(info.dir); /* what scripts take from it */
		rc = output_written("demo") ? EXIT_OK : EXIT_FOUND;
	} else {
		char *tv[] = {"klang",	     "--repo",	    info.dir,
			      "--patchset",  info.patchset, theme ? "--theme" : NULL,
			      (char *)theme, NULL};
		int tc = theme ? 7 : 5;
		fflush(stderr);
		rc = tui_main(tc, tv);
	}
	demo_info_free(&info);
	return rc;
}
