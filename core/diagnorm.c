/* From raw to normalised paths: detect the source root (the prefix that
 * most absolute paths share before a kernel top-level directory) and the
 * arch (arch/<name>/), and make a path relative to the tree. The parser
 * (core/diagemit.c) asks once per distinct path, so it is cheap. */
#include "core/diag.h"

#include <stdlib.h>
#include <string.h>

#include "core/diaglex.h"
#include "core/strmap.h"

static const char *const top_dirs[] = {
    "arch",    "block",	   "certs",    "crypto", "Documentation", "drivers", "fs",   "include",
    "init",    "io_uring", "ipc",      "kernel", "lib",		  "mm",	     "net",  "rust",
    "samples", "scripts",  "security", "sound",	 "tools",	  "usr",     "virt",
};

/* The set's strings are interned: a path is one pointer. */
static void collect(struct ptrmap *seen, const char *path)
{
	bool added;
	if (path && *path)
		ptrmap_add(seen, path, &added);
}

static bool under(const char *path, const char *dir)
{
	size_t l = strlen(dir);
	while (l > 1 && dir[l - 1] == '/')
		l--;
	return !strncmp(path, dir, l) && path[l] == '/';
}

struct cand {
	const char *s;
	size_t len;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->s, y->s, x->len);
}

/* The candidate named most often (on a tie the first in sort order, or with
 * longer_on_tie the longer one, which sorts later); NULL if none. */
static char *most_voted(struct cand *c, size_t nc, bool longer_on_tie)
{
	if (!nc)
		return NULL;
	qsort(c, nc, sizeof(*c), cmp_cand);
	size_t best = 0, bestn = 0;
	for (size_t i = 0; i < nc;) {
		size_t j = i + 1;
		while (j < nc && !cmp_cand(&c[i], &c[j]))
			j++;
		if (j - i > bestn || (longer_on_tie && j - i == bestn)) {
			best = i;
			bestn = j - i;
		}
		i = j;
	}
	return xstrndup(c[best].s, c[best].len);
}

/* Does the prefix path[0..len) end in ".../arch/<name>"? (arch/x86/include
 * looks like a tree root by itself.) */
static bool ends_in_arch(const char *path, size_t len)
{
	size_t i = len;
	while (i > 0 && path[i - 1] != '/')
		i--;
	return i >= 6 && !strncmp(path + i - 6, "/arch/", 6);
}

static char *detect_root_paths(const struct ptrmap *seen, const char *const *builds, size_t nb)
{
	struct cand *c = NULL;
	size_t nc = 0, cap = 0;
	for (size_t i = 0; i < seen->cap; i++) {
		const char *p = seen->keys[i];
		if (!p || p[0] != '/')
			continue;
		bool skip = false;
		for (size_t b = 0; b < nb && !skip; b++)
			skip = under(p, builds[b]);
		if (skip)
			continue;
		for (size_t k = 1; p[k]; k++) {
			if (p[k] != '/')
				continue;
			for (size_t t = 0; t < ARRAY_SIZE(top_dirs); t++) {
				size_t tl = strlen(top_dirs[t]);
				if (strncmp(p + k + 1, top_dirs[t], tl) || p[k + 1 + tl] != '/')
					continue;
				if (!ends_in_arch(p, k)) {
					ALLOC_GROW(c, nc + 1, cap);
					c[nc++] = (struct cand){p, k};
				}
				break;
			}
		}
	}
	char *root = most_voted(c, nc, true);
	free(c);
	return root;
}

static char *detect_arch_paths(const struct ptrmap *seen)
{
	struct cand *c = NULL;
	size_t nc = 0, cap = 0;
	for (size_t i = 0; i < seen->cap; i++) {
		const char *p = seen->keys[i];
		if (!p || strncmp(p, "arch/", 5))
			continue;
		const char *e = strchr(p + 5, '/');
		if (!e)
			continue;
		ALLOC_GROW(c, nc + 1, cap);
		c[nc++] = (struct cand){p + 5, (size_t)(e - p - 5)};
	}
	char *arch = most_voted(c, nc, false);
	free(c);
	return arch;
}

/* Every distinct path a set mentions (its strings are interned: one per pointer). */
static void collect_set(const struct diag_set *s, struct ptrmap *seen)
{
	for (size_t i = 0; i < diag_set_size(s); i++) {
		const struct diag *d = diag_set_get(s, i);
		collect(seen, d->loc.file);
		collect(seen, d->spell.file);
		for (size_t k = 0; k < d->nincludes; k++)
			collect(seen, d->includes[k].file);
		for (size_t k = 0; k < d->nnotes; k++)
			collect(seen, d->notes[k].loc.file);
		for (size_t k = 0; k < d->ntus; k++)
			collect(seen, d->tus[k]);
	}
}

char *diagnorm_root(const struct diag_set *raw, const char *const *builds, size_t nb)
{
	struct ptrmap seen = {0};
	collect_set(raw, &seen);
	char *root = detect_root_paths(&seen, builds, nb);
	ptrmap_free(&seen);
	return root;
}

char *diagnorm_arch(const struct diag_set *s)
{
	/* the files of the first few thousand diagnostics are evidence enough */
	struct ptrmap seen = {0};
	for (size_t i = 0; i < diag_set_size(s) && i < 4096; i++) {
		collect(&seen, diag_set_get(s, i)->loc.file);
		collect(&seen, diag_set_get(s, i)->spell.file);
	}
	char *arch = detect_arch_paths(&seen);
	ptrmap_free(&seen);
	return arch;
}

const char *diagnorm_path(struct diag_set *into, const char *raw, const char *root,
			  const char *const *builds, size_t nb)
{
	char *n;
	if (!*raw || raw[0] == '<' || raw[0] == '{') {
		n = xstrdup(raw);
	} else {
		const char *build = NULL;
		for (size_t b = 0; b < nb && !build; b++)
			if (under(raw, builds[b]))
				build = builds[b];
		n = diag_normalize_path(raw, root, build);
	}
	struct strbuf sb = STRBUF_INIT;
	lex_text(n, strlen(n), &sb);
	const char *v = diag_set_intern(into, sb_str(&sb), sb.len);
	sb_free(&sb);
	free(n);
	return v;
}
