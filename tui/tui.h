/* The ncurses workbench: entry point used by cli/main.c. */
#ifndef KLANG_TUI_TUI_H
#define KLANG_TUI_TUI_H

/* Parse the workbench options (argv[0] is the program) and run the event loop. */
int tui_main(int argc, char **argv);

#endif
