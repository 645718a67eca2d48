/* The triage store: a status and a note per warning fingerprint, kept in
 * .klang/triage.yaml of the repository. The file is sorted by file and
 * fingerprint and written atomically, so a team can keep it in git and
 * review its diffs. */
#ifndef KLANG_CORE_TRIAGE_H
#define KLANG_CORE_TRIAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"

#define TRIAGE_STATUSES(X)                                                                         \
	X(TRIAGE_NEW, "new")                                                                       \
	X(TRIAGE_CONFIRMED, "confirmed")                                                           \
	X(TRIAGE_WONTFIX, "wontfix")                                                               \
	X(TRIAGE_FALSE_POSITIVE, "false-positive")                                                 \
	X(TRIAGE_FIXED, "fixed")

#define TRIAGE_ENUM(id, name) id,
enum triage_status { TRIAGE_STATUSES(TRIAGE_ENUM) TRIAGE__COUNT };
#undef TRIAGE_ENUM

const char *triage_status_name(int s);
/* -1 if the name is not a status. */
int triage_status_parse(const char *name);
/* A fingerprint as the store writes it, exactly 16 hex digits; -1 if s is not one. */
int triage_fp_parse(const char *s, uint64_t *fp);
/* Statuses that settle a warning: a CI gate does not count them. */
bool triage_settled(int s);

struct triage_entry {
	uint64_t fingerprint;
	int status;
	char *note;		     /* or NULL */
	char *file, *flag, *message; /* for people reading the file */
	bool changed;		     /* set since load: merged into the file on save */
	bool note_changed;	     /* the note was set (or removed) since load */
};

struct triage;
struct triage *triage_new(void);
void triage_free(struct triage *t);
/* <repo>/.klang/triage.yaml; for a tree that cannot be written, triage.yaml
 * in its home in the cache (buildlogs_home), started from the tree's own
 * if it has one. Caller frees. */
char *triage_path(const char *repo);
/* Load a store; a missing file is an empty store. A file that does not
 * parse is moved aside as FILE.corrupt and the store is empty: returns 1
 * with "FILE:LINE:COL: what; moved aside to FILE.corrupt" in e. -1 when the
 * file cannot be read. */
int triage_load(struct triage *t, const char *path, struct kerr *e);
/* Merge the entries set since load into the file as it is now (another
 * klang may have written it), under .klang/triage.lock, and write it
 * atomically (creating .klang/); t then holds the merged store. Entries
 * back at "new" with no note are dropped. Returns as triage_load(). */
int triage_save(struct triage *t, const char *path, struct kerr *e);
const struct triage_entry *triage_get(const struct triage *t, uint64_t fingerprint);
size_t triage_count(const struct triage *t);
/* Set a status (and a note unless NULL; "" removes it) for a fingerprint;
 * d (may be NULL) fills in file, flag and message. */
void triage_set(struct triage *t, uint64_t fingerprint, int status, const char *note,
		const struct diag *d);
/* Copy statuses and notes into the diagnostics of a set. */
void triage_apply(const struct triage *t, struct diag_set *s);

#endif
