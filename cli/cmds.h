/* The batch subcommands: each takes argc/argv after the subcommand name
 * (argv[0] is the subcommand) and returns an exit status (EXIT_OK, EXIT_FOUND,
 * EXIT_USAGE). One file per subcommand: cli/cmd_NAME.c. */
#ifndef KLANG_CLI_CMDS_H
#define KLANG_CLI_CMDS_H

#include <stdbool.h>

int cmd_stack(int argc, char **argv);
int cmd_series(int argc, char **argv);
int cmd_clang_version(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_diag(int argc, char **argv);
int cmd_demo(int argc, char **argv);

/* Did all of standard output get written (not a full disk, a closed pipe)?
 * If not, says so as "klang: CMD: cannot write the output". */
bool output_written(const char *cmd);

/* What getopt_long returned for a bad option (its optstring starts with ':',
 * opterr is 0), said in one line: "klang: CMD: --x needs a value (see klang
 * CMD --help)" for ':', "klang: CMD: unknown option '--y' (see ...)" else.
 * Returns EXIT_USAGE. */
int option_error(const char *cmd, int c, char **argv);

#endif
