/* Helpers shared by the build tests: compiler wrappers that count or stall,
 * ELF checks, and looking for processes left behind. */
#ifndef KLANG_TESTS_BUILDTEST_H
#define KLANG_TESTS_BUILDTEST_H

/* e_machine of an ELF file (62 x86_64, 183 aarch64), -1 if not ELF. */
int buildtest_elf_machine(const char *path);
/* A CC wrapper in DIR that records how many compiles (-c) run at once
 * (under flock, in DIR/log), sleeping `secs` in each so they overlap, then
 * runs ${CROSS_COMPILE}gcc. Returns its path; caller frees. */
char *buildtest_counting_cc(const char *dir, double secs);
/* The highest count in DIR/log. */
int buildtest_max_concurrency(const char *dir);
/* A CC wrapper whose compiles stall for a minute in DIR/stall-sleep (a copy
 * of sleep, so it can be found); with `ignore_term` they ignore SIGTERM. */
char *buildtest_stalling_cc(const char *dir, int ignore_term);
/* Processes (other than this one) whose command line contains `needle`. */
int buildtest_count_procs(const char *needle);

#endif
