/* The rows of the bad-input table (doc/bad-inputs.md): each bad input, the
 * command that feeds it to klang, and klang's exact message and exit
 * status. Run by tests/test_badinput.c, one test per row. */
#ifndef KLANG_TESTS_BADINPUT_H
#define KLANG_TESTS_BADINPUT_H

#include <stddef.h>

/* What a row needs from the machine beyond a shell. */
enum badinput_needs {
	NEEDS_NOTHING,
	NEEDS_NO_DAC, /* an unreadable file: as root, run without DAC override */
	NEEDS_TMPFS,  /* a 12 KB tmpfs mounted on T/full (a full disk) */
};

struct badinput_row {
	const char *what;  /* the bad input: first column, and the test's name */
	const char *setup; /* shell run in T first (not shown in the table) */
	const char *cmd;   /* the command as the table shows it, run in T */
	int exit;
	const char *msg;   /* all of stderr ("" = nothing); "/path/to" stands for T,
			    * "<id>" for a commit id */
	const char *check; /* shell that must succeed afterwards, or NULL */
	enum badinput_needs needs;
};

extern const struct badinput_row badinput_rows[];
extern const size_t badinput_nrows;

#endif
