/* The workbench entry point: options, the stack, the theme, curses, the
 * views, then the event loop (or a headless script when $KLANG_SCRIPT is
 * set). Every way out restores the terminal. */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/patchset.h"
#include "core/stack.h"
#include "core/theme.h"
#include "core/mbox.h"
#include "core/stackfiles.h"
#include "tui/config.h"
#include "core/util.h"
#include "tui/links.h"
#include "tui/loop.h"
#include "tui/prompt.h"
#include "tui/script.h"
#include "tui/series.h"
#include "tui/term.h"
#include "tui/tour.h"
#include "tui/tui.h"
#include "tui/views.h"

struct tui_opts {
	const char *repo, *patchset, *theme, *base, *head, *gcc_log, *clang_log, *mbox, *quilt;
};

static void usage(FILE *f)
{
	fputs("usage: klang [--repo DIR] [--patchset FILE] [--theme NAME] [--base REV] [--head "
	      "REV]\n\n"
	      "Open the workbench on a patch stack: by default the repository in the current\n"
	      "directory, HEAD as head and the nearest v* tag as base.\n\n"
	      "  --repo DIR       the repository (default: the current directory)\n"
	      "  --patchset FILE  a patchset file (repository, range, extra tags, rules)\n"
	      "  --theme NAME     default, mono, projector, or a path to a theme file\n"
	      "                   (default: mono when NO_COLOR is set or without colours)\n"
	      "  --base REV       the base of the stack, --head REV its head\n"
	      "  --mbox FILE      open a stack read from an mbox or patch file, --quilt DIR\n"
	      "                   from a quilt series (with --base: applied in memory)\n"
	      "  --gcc-log FILE   the warnings view's GCC build log, --clang-log FILE its\n"
	      "                   Clang one (default: the newest in <repo>/.klang/out/)\n\n"
	      "Keys can be rebound in ~/.config/klang/keys with lines 'bind SCOPE KEY ACTION'\n"
	      "(scopes: generic, stack, patch, tags, clang, help, builds, warnings).\n"
	      "klang --dump-keys prints the default key table (scope, keys, action, help;\n"
	      "tab-separated), from which the man page's KEYS section is made.\n"
	      "Environment: NO_COLOR, KLANG_SCRIPT=FILE runs a key script without a terminal.\n\n"
	      "Keys (? inside shows them too):\n",
	      f);
	keys_init();
	for (int a = ACT_NONE + 1; a < ACT_END; a++) {
		struct strbuf sb = STRBUF_INIT;
		keys_describe(a, &sb);
		if (sb.len)
			fprintf(f, "  %-24s %-20s %s\n", sb.buf, action_info(a)->name,
				action_info(a)->help);
		sb_free(&sb);
	}
}

static int parse_args(int argc, char **argv, struct tui_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = !strcmp(a, "--repo")	       ? &o->repo
				   : !strcmp(a, "--patchset")  ? &o->patchset
				   : !strcmp(a, "--theme")     ? &o->theme
				   : !strcmp(a, "--base")      ? &o->base
				   : !strcmp(a, "--head")      ? &o->head
				   : !strcmp(a, "--gcc-log")   ? &o->gcc_log
				   : !strcmp(a, "--clang-log") ? &o->clang_log
				   : !strcmp(a, "--mbox")      ? &o->mbox
				   : !strcmp(a, "--quilt")     ? &o->quilt
							       : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		}
		if (!strcmp(a, "--dump-keys")) { /* the defaults: doc/klang.1's KEYS */
			keys_init();
			keys_dump(stdout);
			return 1;
		}
		if (!dst) {
			warnx_("unknown option '%s' (see klang --help)", a);
			return -1;
		}
		if (i + 1 >= argc) {
			warnx_("%s needs a value (see klang --help)", a);
			return -1;
		}
		*dst = argv[++i];
	}
	if (o->mbox && o->quilt) {
		warnx_("one --mbox FILE or --quilt DIR, not two sources");
		return -1;
	}
	if (o->mbox && !strcmp(o->mbox, "-")) {
		warnx_("--mbox -: the workbench reads its keys from the terminal; save the "
		       "patches to a file (or list them with klang stack --mbox -)");
		return -1;
	}
	return 0;
}

static const struct loop_ui loop_ui = {
    .redraw = ui_redraw,
    .input = ui_read_input,
    .resize = ui_resize,
    .resume = ui_resume,
};

/* Pick and apply the theme now that curses knows the terminal. */
static void setup_theme(const struct tui_opts *o, struct theme *requested)
{
	struct theme t;
	struct kerr e;
	const char *nc = getenv("NO_COLOR");
	int colors = has_colors() ? COLORS : 0;
	if (o->theme) {
		t = *requested;
	} else if (theme_load(&t, theme_choose(NULL, nc && *nc, colors), &e)) {
		theme_builtin(&t);
		report_error("%s (using the built-in theme)", e.msg);
	}
	if (!colors && t.colors)
		theme_strip_colors(&t);
	display_set_theme(&t);
	theme_free(&t);
}

static struct patchset patchset;
/* Patch files not read (--mbox, --quilt): said again once the screen is up. */
static char *files_error;
static size_t files_nbad;

const struct patchset *tui_patchset(void)
{
	return patchset.path ? &patchset : NULL;
}

/* The stack from the options, a patchset filling what they leave out (and
 * giving its extra tags to a stack read from files too). */
static int open_stack(const struct tui_opts *o, struct stack *st, struct kerr *e)
{
	struct stack_opts so = {.repo = o->repo, .base = o->base, .head = o->head};
	if (o->patchset) {
		char *path = patchset_find(o->patchset);
		if (!path)
			return kerr_set(e,
					"unknown patchset '%s' (a file, or a name in patchsets/)",
					o->patchset);
		int rc = patchset_load(&patchset, path, e);
		free(path);
		if (rc)
			return -1;
		so.repo = so.repo ? so.repo : patchset.repo;
		so.extra_tags = (const char *const *)patchset.tags;
		so.nextra_tags = patchset.ntags;
		if (!o->mbox && !o->quilt) {
			so.base = so.base ? so.base : patchset.base;
			so.head = so.head ? so.head : patchset.head;
		}
	}
	if (o->mbox || o->quilt) {
		struct patch_files bad;
		int rc =
		    stack_open_files_tags(st, o->mbox ? o->mbox : o->quilt,
					  o->mbox ? STACK_FILES_MBOX : STACK_FILES_QUILT, o->base,
					  so.repo, so.extra_tags, so.nextra_tags, &bad, e);
		if (rc == 0 && bad.nmalformed) {
			/* listed before the screen opens; never dropped silently */
			patch_files_print_malformed(&bad, stderr);
			files_error = patch_files_first_error(&bad);
			files_nbad = bad.nmalformed;
		}
		patch_files_free(&bad);
		return rc;
	}
	return stack_open(st, &so, e);
}

/* The user's key file: $XDG_CONFIG_HOME/klang/keys (~/.config/klang/keys),
 * "bind SCOPE KEY ACTION" lines as in the compiled-in defaults. */
static int load_user_keys(struct kerr *e)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path = xdg && *xdg     ? xasprintf("%s/klang/keys", xdg)
		     : home && *home ? xasprintf("%s/.config/klang/keys", home)
				     : NULL;
	int rc = 0;
	if (path && file_exists(path)) {
		char *text = read_file(path, NULL, e);
		rc = text ? keys_load_text(text, path, e) : -1;
		free(text);
	}
	free(path);
	return rc;
}

static void register_views(void)
{
	view_bind_key(ACT_VIEW_STACK, &stack_view);
	view_bind_key(ACT_VIEW_PATCH, &patch_view);
	view_bind_key(ACT_HELP, &help_view);
	view_bind_key(ACT_VIEW_BUILDS, &builds_view);
	builds_view_init();
	view_bind_key(ACT_VIEW_WARNINGS, &warnings_view);
	links_tui_init();
}

int tui_main(int argc, char **argv)
{
	struct tui_opts o = {0};
	setlocale(LC_ALL, "");
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	struct kerr e;
	keys_init();
	struct config cfg;
	if (tui_config_load(&cfg, o.repo, &e) || tui_config_apply_keys(&cfg, &e) ||
	    load_user_keys(&e)) {
		warnx_("%s", e.msg);
		config_free(&cfg);
		return EXIT_USAGE;
	}
	if (!o.theme && cfg.theme)
		o.theme = xstrdup(cfg.theme); /* lives as long as the process */
	struct theme requested;
	if (o.theme && theme_load(&requested, o.theme, &e)) {
		warnx_("%s", e.msg);
		config_free(&cfg);
		return EXIT_USAGE;
	}
	struct stack st;
	if (open_stack(&o, &st, &e)) {
		warnx_("%s", e.msg);
		if (o.gcc_log && o.clang_log && !o.repo && !o.patchset &&
		    str_startswith(e.msg, "not a git repository"))
			warnx_("to compare the logs without a repository: klang diag diff --gcc %s "
			       "--clang %s",
			       o.gcc_log, o.clang_log);
		if (o.theme)
			theme_free(&requested);
		patchset_free(&patchset);
		config_free(&cfg);
		return EXIT_USAGE;
	}
	const char *script = getenv("KLANG_SCRIPT");
	bool headless = script && *script;
	loop_signals_init();
	if (term_init(headless, &e)) {
		warnx_("%s", e.msg);
		stack_free(&st);
		config_free(&cfg);
		return EXIT_USAGE;
	}
	setup_theme(&o, &requested);
	register_views();
	/* the editor and the builds view's matrix: cfg lives until the end */
	warnings_set_editor(cfg.editor);
	builds_view_configure(&cfg);
	warnings_set_logs(o.gcc_log, o.clang_log, st.repo_path);
	stack_view_set_stack(&st);
	series_tui_init(&st);
	view_open(&stack_view, OPEN_FULL);
	if (files_error) /* the full list is on stderr */
		report_error("%zu patch%s not read: %s%s", files_nbad, files_nbad == 1 ? "" : "es",
			     files_error, files_nbad > 1 ? " ..." : "");
	free(files_error);
	tour_start(); /* klang demo --play: keys from the loop's timers */
	int sig = 0;
	rc = EXIT_OK;
	if (headless) {
		if (script_run(script, &loop_ui, &e)) {
			rc = EXIT_USAGE;
		}
		sig = loop_signal();
	} else {
		sig = loop_run(&loop_ui, STDIN_FILENO);
	}
	loop_run_exit_hooks(sig);
	tour_free();
	ui_free();
	term_restore();
	if (rc == EXIT_USAGE)
		warnx_("%s", e.msg);
	series_tui_free();
	clang_view_free();
	stack_view_free();
	patch_view_free();
	warnings_view_free();
	help_view_free();
	display_free();
	stack_free(&st);
	patchset_free(&patchset);
	config_free(&cfg);
	if (sig) {
		/* die of the signal, as the shell expects */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}
