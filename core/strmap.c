/* String-keyed and pointer-keyed hash maps with linear probing. */
#include "core/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/util.h"

static size_t slot(const struct strmap *m, const char *key)
{
	size_t j = diag_hash(key, strlen(key), 3) & (m->cap - 1);
	while (m->keys[j] && strcmp(m->keys[j], key))
		j = (j + 1) & (m->cap - 1);
	return j;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t j = slot(m, key);
	return m->keys[j] ? m->vals[j] : NULL;
}

void *strmap_put(struct strmap *m, const char *key, void *val)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct strmap nm = {0};
		nm.cap = m->cap ? m->cap * 2 : 64;
		nm.keys = xcalloc(nm.cap, sizeof(*nm.keys));
		nm.vals = xcalloc(nm.cap, sizeof(*nm.vals));
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->keys[i])
				continue;
			size_t j = slot(&nm, m->keys[i]);
			nm.keys[j] = m->keys[i];
			nm.vals[j] = m->vals[i];
			nm.n++;
		}
		free(m->keys);
		free(m->vals);
		*m = nm;
	}
	size_t j = slot(m, key);
	void *old = m->keys[j] ? m->vals[j] : NULL;
	if (!m->keys[j]) {
		m->keys[j] = xstrdup(key);
		m->n++;
	}
	m->vals[j] = val;
	return old;
}

int strmap_next(const struct strmap *m, size_t *i, const char **key, void **val)
{
	for (; *i < m->cap; (*i)++) {
		if (m->keys[*i]) {
			*key = m->keys[*i];
			if (val)
				*val = m->vals[*i];
			(*i)++;
			return 1;
		}
	}
	return 0;
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	*m = (struct strmap)STRMAP_INIT;
}

static size_t ptr_slot(const void *const *keys, size_t cap, const void *key)
{
	size_t j =
	    (size_t)((((uint64_t)(uintptr_t)key >> 3) * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
	while (keys[j] && keys[j] != key)
		j = (j + 1) & (cap - 1);
	return j;
}

uint64_t *ptrmap_add(struct ptrmap *m, const void *key, bool *added)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct ptrmap nm = {NULL, NULL, m->cap ? m->cap * 2 : 256, m->n};
		nm.keys = xcalloc(nm.cap, sizeof(*nm.keys));
		nm.vals = xmalloc(nm.cap * sizeof(*nm.vals));
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->keys[i])
				continue;
			size_t j = ptr_slot(nm.keys, nm.cap, m->keys[i]);
			nm.keys[j] = m->keys[i];
			nm.vals[j] = m->vals[i];
		}
		free(m->keys);
		free(m->vals);
		*m = nm;
	}
	size_t j = ptr_slot(m->keys, m->cap, key);
	*added = !m->keys[j];
	if (*added) {
		m->keys[j] = key;
		m->vals[j] = 0;
		m->n++;
	}
	return &m->vals[j];
}

const uint64_t *ptrmap_get(const struct ptrmap *m, const void *key)
{
	if (!m->cap)
		return NULL;
	size_t j = ptr_slot(m->keys, m->cap, key);
	return m->keys[j] ? &m->vals[j] : NULL;
}

void ptrmap_free(struct ptrmap *m)
{
	free(m->keys);
	free(m->vals);
	*m = (struct ptrmap){0};
}
