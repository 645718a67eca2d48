/* Reading a Kbuild build as it runs: quiet command lines ("  CC      kernel/fork.o",
 * "  CC [M]  drivers/x.o", "  LD      vmlinux"), the progress they add up to,
 * and a stand-in warning/error counter until the diagnostics parser plugs in. */
#ifndef KLANG_CORE_KBUILD_H
#define KLANG_CORE_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

struct kbuild_line {
	char tag[16];	    /* "CC", "LD", "AR", "HOSTCC", ... */
	bool module;	    /* "[M]" */
	bool object;	    /* a compiled translation unit: CC or AS (with or without [M]) */
	const char *target; /* points into the parsed line */
	size_t target_len;
};

/* Parse one line (without its newline). True if it is a Kbuild quiet line. */
bool kbuild_parse_line(const char *line, size_t len, struct kbuild_line *out);

/* Counting progress as the lines stream in. */
struct kbuild_progress {
	unsigned long steps;	/* every quiet line */
	unsigned long objects;	/* CC/AS lines */
	unsigned long expected; /* objects expected in total; 0 = unknown */
	char last[128];		/* the last quiet line, trimmed: "CC kernel/fork.o" */
};
void kbuild_progress_line(struct kbuild_progress *p, const char *line, size_t len);
/* The expected total still holds: known, and not passed (it comes from
 * the build before, which may have compiled less: an incremental one). */
bool kbuild_total_known(const struct kbuild_progress *p);
/* Fraction done in [0, 1], or -1 when the total is unknown (indeterminate). */
double kbuild_progress_fraction(const struct kbuild_progress *p);
/* Seconds left given `elapsed` seconds spent on `objects`; -1 if unknown. */
long kbuild_eta(const struct kbuild_progress *p, double elapsed);

/* How warnings and errors are counted, live, per build. The default counts
 * lines with ": warning:" / ": error:" / ": fatal error:"; the diagnostics
 * parser replaces it by filling the same table. */
struct diag_counter_ops {
	void *(*open)(const char *arch, const char *toolchain);
	/* one output line (no newline): add what it reports to *warnings / *errors */
	void (*line)(void *state, const char *line, size_t len, unsigned long *warnings,
		     unsigned long *errors);
	void (*close)(void *state);
};
extern const struct diag_counter_ops kbuild_simple_counter;

/* The line (1-based) of CONFIG (a .config's text) that sets a symbol a
 * Kconfig message names ("override: UNWINDER_GUESS changes choice state":
 * "CONFIG_UNWINDER_GUESS=y" or "# CONFIG_UNWINDER_GUESS is not set"), the
 * first one named that the config has; 0 if none. */
unsigned kbuild_config_line(const char *config, const char *message);

#endif
