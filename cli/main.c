/* klang's entry point: dispatch to a batch subcommand or open the workbench. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
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
	      "klang --dump-config prints the effective configuration.\n",
	      f);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
		    !strcmp(argv[1], "help")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[1], "--dump-config")) {
			struct config c;
			struct kerr e;
			keys_init();
			if (tui_config_load(&c, NULL, &e)) {
				warnx_("%s", e.msg);
				config_free(&c);
				return EXIT_USAGE;
			}
			char *text = config_dump(&c);
			fputs(text, stdout);
			free(text);
			config_free(&c);
			return EXIT_OK;
		}
		if (!strcmp(argv[1], "--version")) {
			puts("klang " KLANG_VERSION);
			return EXIT_OK;
		}
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].run(argc - 1, argv + 1);
		if (argv[1][0] != '-') {
			warnx_("unknown command '%s' (see klang --help)", argv[1]);
			return EXIT_USAGE;
		}
	}
	return tui_main(argc, argv);
}
