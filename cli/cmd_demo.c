/* klang demo: create the demo workspace (core/demo.c) and open the
 * workbench on it, or with --no-tui print where it is. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "core/demo.h"
#include "core/util.h"
#include "tui/tui.h"

static void usage(FILE *f)
{
	fputs("usage: klang demo [DIR] [--no-tui] [--theme NAME]\n\n"
	      "Create the demo workspace and open the workbench on it: a git repository\n"
	      "(branch " DEMO_BRANCH " on tag " DEMO_BASE_TAG ") holding a small kernel-like\n"
	      "tree that builds in seconds for arm64 and x86_64 with GCC and Clang, and a\n"
	      "stack of tagged patches whose HACK and OBSOLETE patches depend on the Clang\n"
	      "version.\n\n"
	      "  DIR            where to put it (default: $XDG_CACHE_HOME/klang/demo,\n"
	      "                 else ~/.cache/klang/demo)\n"
	      "  --no-tui       only prepare it, and print its path on stdout\n"
	      "  --theme NAME   the workbench's colour theme (e.g. projector)\n"
	      "  --help         this text\n\n"
	      "Running it again reuses the workspace. Files or commits you changed there\n"
	      "are kept as they are (and listed); to start afresh, remove DIR.\n",
	      f);
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
		{ "no-tui", no_argument, NULL, 'n' },
		{ "theme", required_argument, NULL, 't' },
		{ "play", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *theme = NULL, *play = NULL;
	bool no_tui = false;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': no_tui = true; break;
		case 't': theme = optarg; break;
		case 'p': play = optarg; break;
		case 'h': usage(stdout); return EXIT_OK;
		default:
			warnx_("demo: unknown option '%s' (see klang demo --help)", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		warnx_("demo: one DIR at most (see klang demo --help)");
		return EXIT_USAGE;
	}
	if (play) {
		/* The autoplay tour (patchsets/demo/tour.keys) needs the workbench's
		 * key scripts; it will be passed on as tui_main(... --play FILE). */
		warnx_("demo: --play is not available yet");
		return EXIT_USAGE;
	}
	char *dir = optind < argc ? xstrdup(argv[optind]) : demo_default_dir();
	if (!dir) {
		warnx_("demo: neither XDG_CACHE_HOME nor HOME is set: give a DIR");
		return EXIT_USAGE;
	}
	struct demo_info info;
	struct kerr e;
	if (demo_prepare(dir, NULL, &info, &e) < 0) {
		warnx_("demo: %s", e.msg);
		free(dir);
		return EXIT_USAGE;
	}
	free(dir);
	fprintf(stderr, "klang demo: %s %s (%zu patches on %s, branch %s)\n",
		state_names[info.state], info.dir, info.npatches, DEMO_BASE_TAG, DEMO_BRANCH);
	if (info.notes)
		fputs(info.notes, stderr);
	int rc = EXIT_OK;
	if (no_tui) {
		puts(info.dir);
	} else {
		char *tv[] = { "klang", "--repo", info.dir, "--patchset", info.patchset,
			       theme ? "--theme" : NULL, (char *)theme, NULL };
		int tc = theme ? 7 : 5;
		fflush(stderr);
		rc = tui_main(tc, tv);
	}
	demo_info_free(&info);
	return rc;
}
