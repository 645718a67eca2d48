/* klang's entry point: dispatch to a batch subcommand or open the workbench. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "core/theme.h"
#include "core/util.h"
#include "tui/config.h"
#include "tui/keys.h"
#include "tui/tui.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
    {"stack", cmd_stack, "list the patches of a stack, oldest first"},
    {"series", cmd_series, "decide keep/drop per patch for a Clang version; apply or export"},
    {"clang-version", cmd_clang_version, "print the detected Clang version"},
    {"build", cmd_build, "build kernels for arches x toolchains on one jobserver"},
    {"diag", cmd_diag, "parse build logs and diff GCC against Clang warnings"},
    {"demo", cmd_demo, "create the demo workspace and open the workbench on it"},
};

bool output_written(const char *cmd)
{
	/* an earlier flush may have failed already (a full disk): ferror */
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	warnx_("%s: cannot write the output", cmd);
	return false;
}

int option_error(const char *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	char shrt[3] = {'-', (char)optopt, '\0'};
	const char *opt = str_startswith(arg, "--") || !optopt ? arg : shrt;
	if (c == ':')
		warnx_("%s: %s needs a value (see klang %s --help)", cmd, opt, cmd);
	else
		warnx_("%s: unknown option '%s' (see klang %s --help)", cmd, opt, cmd);
	return EXIT_USAGE;
}

static void usage(FILE *f)
{
	fputs("usage: klang [--repo DIR] [--patchset FILE] [--theme NAME]\n"
	      "       klang COMMAND [ARGS...]   (klang COMMAND --help for details)\n\n"
	      "A terminal workbench for building the Linux kernel with Clang/LLVM.\n\n"
	      "Commands:\n",
	      f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fputs("\nWithout a command, klang opens the workbench on the current repository.\n"
	      "klang [--repo DIR] --dump-config prints the effective configuration.\n",
	      f);
}

/* klang [--repo DIR] --dump-config: the settings the workbench and klang
 * build would use there, after the same checks (actions, keys, theme). */
static int dump_config(int argc, char **argv)
{
	const char *repo = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dump-config"))
			continue;
		if (strcmp(argv[i], "--repo")) {
			warnx_("--dump-config: unexpected '%s' (--repo DIR is the one option it "
			       "takes)",
			       argv[i]);
			return EXIT_USAGE;
		}
		if (++i == argc) {
			warnx_("--repo needs a value (see klang --help)");
			return EXIT_USAGE;
		}
		repo = argv[i];
		if (!is_dir(repo)) {
			warnx_("--repo %s: %s", repo,
			       file_exists(repo) ? strerror(ENOTDIR) : strerror(ENOENT));
			return EXIT_USAGE;
		}
	}
	struct config c;
	struct theme t;
	struct kerr e;
	keys_init();
	int rc = tui_config_load(&c, repo, &e) || tui_config_apply_keys(&c, &e) ||
		 (c.theme && theme_load(&t, c.theme, &e));
	if (rc) {
		warnx_("%s", e.msg);
		config_free(&c);
		return EXIT_USAGE;
	}
	if (c.theme)
		theme_free(&t);
	char *text = config_dump(&c);
	fputs(text, stdout);
	free(text);
	config_free(&c);
	return output_written("--dump-config") ? EXIT_OK : EXIT_FOUND;
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
		    !strcmp(argv[1], "help")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[1], "--version")) {
			puts("klang " KLANG_VERSION);
			return EXIT_OK;
		}
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].run(argc - 1, argv + 1);
		for (int i = 1; i < argc && argv[1][0] == '-'; i++)
			if (!strcmp(argv[i], "--dump-config"))
				return dump_config(argc, argv);
		if (argv[1][0] != '-') {
			warnx_("unknown command '%s' (see klang --help)", argv[1]);
			return EXIT_USAGE;
		}
	}
	return tui_main(argc, argv);
}
