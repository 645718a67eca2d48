/* Workbench entry: not written yet. */
#include "core/util.h"
#include "tui/tui.h"

int tui_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	warnx_("the workbench is not written yet");
	return EXIT_USAGE;
}
