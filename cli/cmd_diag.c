/* klang diag: not written yet. */
#include "cli/cmds.h"
#include "core/util.h"

int cmd_diag(int argc, char **argv)
{
	(void)argc;
	warnx_("%s: not implemented yet", argv[0]);
	return EXIT_USAGE;
}
