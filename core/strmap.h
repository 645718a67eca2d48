/* A string-keyed hash map (open addressing; keys copied) for the tables of
 * the diagnostics modules: flag families, match keys, triage fingerprints. */
#ifndef KLANG_CORE_STRMAP_H
#define KLANG_CORE_STRMAP_H

#include <stddef.h>

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

#endif
