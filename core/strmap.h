/* Hash maps (open addressing) for the tables of the diagnostics modules:
 * string keys, copied (flag families, match keys, triage fingerprints), and
 * pointer keys for interned strings, one pointer per text (path sets, file
 * ranks, hashes worked out once). */
#ifndef KLANG_CORE_STRMAP_H
#define KLANG_CORE_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strmap {
	char **keys;
	void **vals;
	size_t cap, n;
};
#define STRMAP_INIT                                                                                \
	{                                                                                          \
		NULL, NULL, 0, 0                                                                   \
	}

void *strmap_get(const struct strmap *m, const char *key);
/* Insert or replace; returns the previous value (or NULL). */
void *strmap_put(struct strmap *m, const char *key, void *val);
/* Iterate: for (size_t i = 0; strmap_next(m, &i, &k, &v);) */
int strmap_next(const struct strmap *m, size_t *i, const char **key, void **val);
/* Free the keys and the table; values are the caller's. */
void strmap_free(struct strmap *m);

/* Pointer to number; NULL is not a key. Zeroed is empty. Iterate over the
 * keys array: empty slots are NULL. */
struct ptrmap {
	const void **keys;
	uint64_t *vals;
	size_t cap, n;
};
/* key's value, added as 0 when missing (then *added is true); the pointer
 * is good until the next ptrmap_add. */
uint64_t *ptrmap_add(struct ptrmap *m, const void *key, bool *added);
/* key's value, or NULL when missing. */
const uint64_t *ptrmap_get(const struct ptrmap *m, const void *key);
void ptrmap_free(struct ptrmap *m);

#endif
