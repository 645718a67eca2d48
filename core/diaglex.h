/* Line-level lexing of build-log lines for the diagnostics parser: cleaning
 * (colours, carriage returns, timestamps, CI prefixes), recognising a
 * "path:line:col: kind: message [-Wflag]" line, and text normalisation. */
#ifndef KLANG_CORE_DIAGLEX_H
#define KLANG_CORE_DIAGLEX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/util.h"

enum lex_kind {
	LEX_NONE,
	LEX_WARNING,
	LEX_ERROR,
	LEX_NOTE,
	LEX_AS_WARNING, /* gas: "Warning:" */
	LEX_AS_ERROR,
	LEX_CONTEXT,  /* gcc: "file: In function 'f':" / "At top level:" */
	LEX_LD_ERROR, /* ld: "file:line: undefined reference to ..." */
	/* Kconfig: "file:line:warning: ..." and ":error:", no blank before */
	LEX_KCONFIG_WARNING,
	LEX_KCONFIG_ERROR,
};

/* A recognised line; pointers into the line, lengths explicit. */
struct lex_diag {
	enum lex_kind kind;
	const char *path;
	size_t pathlen;
	unsigned line, col;
	const char *msg; /* message without the trailing [-Wflag] */
	size_t msglen;
	const char *flag; /* "-Wfoo" (an -Werror=foo is returned as -Wfoo), or NULL */
	size_t flaglen;
	bool werror;
	const char
	    *func; /* LEX_CONTEXT: function name (quotes stripped), NULL for "At top level" */
	size_t funclen;
};

/* Recognise a diagnostic line. The line must not start with white space. */
bool lex_diag_line(const char *s, size_t n, struct lex_diag *d);
/* Split "message [-Wflag]" (also [-Werror,-Wflag], [-Werror=flag], [-Wflag=]). */
void lex_split_flag(struct lex_diag *d);

/* The kind of a note from its message; *macro gets the macro name (quotes
 * stripped) for the macro kinds, else NULL. */
enum diag_note_kind lex_note_kind(const char *m, size_t n, const char **macro, size_t *macrolen);

/* Kbuild's quiet progress lines: "  CC      kernel/fork.o". */
bool lex_is_progress(const char *s, size_t n);
/* gcc's source box: "  12 | code" (sets *text) or "     | ^~~~". */
bool lex_gcc_box(const char *s, size_t n, const char **text, size_t *textlen);
/* A caret line: only blanks, '^' and '~'. */
bool lex_is_caret(const char *s, size_t n);
/* "3 warnings generated.", "1 warning and 2 errors generated." */
bool lex_is_generated(const char *s, size_t n);
/* Parse "path:line[:col]" at s (up to n bytes, ending at ',' ':' or the end). */
bool lex_path_line(const char *s, size_t n, const char **path, size_t *pathlen, unsigned *line);

/* Does the line need cleaning (control bytes other than tab)? */
bool lex_needs_clean(const char *s, size_t n);
/* Clean a line into out: drop ANSI escapes, keep what follows the last
 * carriage return, NUL and other control bytes become spaces. */
void lex_clean(const char *s, size_t n, struct strbuf *out);
/* Skip "hh:mm:ss ", ISO timestamps and "BUILDSTDERR: " prefixes. */
size_t lex_prefix_len(const char *s, size_t n);

/* Normalise message text: gcc's Unicode quotes to ASCII, invalid UTF-8 to
 * U+FFFD, control bytes to spaces. Appends to out. */
void lex_text(const char *s, size_t n, struct strbuf *out);
/* Would lex_text give the text back as it is (printable ASCII and tabs)? */
bool lex_text_clean(const char *s, size_t n);

#endif
