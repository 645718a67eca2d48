/* From raw to normalised diagnostics: detect the source root (the prefix
 * that most absolute paths share before a kernel top-level directory) and
 * the arch (arch/<name>/), make paths relative, clean message text, and
 * merge into a set. Works on distinct diagnostics only, so it is cheap. */
#include "core/diag.h"

#include <stdlib.h>
#include <string.h>

#include "core/diaglex.h"

static const char *const top_dirs[] = {
    "arch",    "block",	   "certs",    "crypto", "Documentation", "drivers", "fs",   "include",
    "init",    "io_uring", "ipc",      "kernel", "lib",		  "mm",	     "net",  "rust",
    "samples", "scripts",  "security", "sound",	 "tools",	  "usr",     "virt",
};

struct pathmap {
	const char **keys;
	const char **vals;
	size_t cap, n;
};

static size_t ptr_slot(const struct pathmap *m, const char *k)
{
	size_t h = ((uintptr_t)k >> 3) * 0x9e3779b97f4a7c15ull;
	size_t j = h & (m->cap - 1);
	while (m->keys[j] && m->keys[j] != k)
		j = (j + 1) & (m->cap - 1);
	return j;
}

static void map_put(struct pathmap *m, const char *k, const char *v)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct pathmap nm = {xcalloc(m->cap ? m->cap * 2 : 256, sizeof(char *)),
				     xcalloc(m->cap ? m->cap * 2 : 256, sizeof(char *)),
				     m->cap ? m->cap * 2 : 256, 0};
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				map_put(&nm, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = nm;
	}
	size_t j = ptr_slot(m, k);
	if (!m->keys[j])
		m->n++;
	m->keys[j] = k;
	m->vals[j] = v;
}

static const char *map_get(const struct pathmap *m, const char *k)
{
	if (!m->cap)
		return NULL;
	size_t j = ptr_slot(m, k);
	return m->keys[j] ? m->vals[j] : NULL;
}

static void collect(struct pathmap *seen, const char *path)
{
	if (path && *path && !map_get(seen, path))
		map_put(seen, path, path);
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

static char *detect_root_paths(const struct pathmap *seen, const char *const *builds, size_t nb)
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

static char *detect_arch_paths(const struct pathmap *seen)
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
static void collect_set(const struct diag_set *s, struct pathmap *seen, size_t *maxn, size_t *maxi,
			size_t *maxt)
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
		if (maxn) {
			*maxn = d->nnotes > *maxn ? d->nnotes : *maxn;
			*maxi = d->nincludes > *maxi ? d->nincludes : *maxi;
			*maxt = d->ntus > *maxt ? d->ntus : *maxt;
		}
	}
}

char *diagnorm_root(const struct diag_set *raw, const char *const *builds, size_t nb)
{
	struct pathmap seen = {0};
	collect_set(raw, &seen, NULL, NULL, NULL);
	char *root = detect_root_paths(&seen, builds, nb);
	free(seen.keys);
	free(seen.vals);
	return root;
}

char *diagnorm_arch(const struct diag_set *s)
{
	/* the files of the first few thousand diagnostics are evidence enough */
	struct pathmap seen = {0};
	for (size_t i = 0; i < diag_set_size(s) && i < 4096; i++) {
		collect(&seen, diag_set_get(s, i)->loc.file);
		collect(&seen, diag_set_get(s, i)->spell.file);
	}
	char *arch = detect_arch_paths(&seen);
	free(seen.keys);
	free(seen.vals);
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

struct norm_ctx {
	struct pathmap paths; /* raw path -> normalised, interned in `into` */
	struct diag_set *into;
	const char *root;
	const char *const *builds;
	size_t nb;
};

static const char *norm_path(struct norm_ctx *x, const char *raw)
{
	if (!raw)
		return NULL;
	const char *v = map_get(&x->paths, raw);
	if (!v) {
		v = diagnorm_path(x->into, raw, x->root, x->builds, x->nb);
		map_put(&x->paths, raw, v);
	}
	return v;
}

static size_t text_off(struct strbuf *b, const char *s)
{
	if (!s)
		return (size_t)-1;
	size_t off = b->len;
	lex_text(s, strlen(s), b);
	sb_addc(b, '\0');
	return off;
}

static const char *at(const struct strbuf *b, size_t off)
{
	return off == (size_t)-1 ? NULL : b->buf + off;
}

static void norm_one(struct norm_ctx *x, const struct diag *r, struct strbuf *tb,
		     struct diag_note *notes, struct diag_loc *incs, const char **tus, size_t *offs)
{
	struct diag d = *r;
	sb_reset(tb);
	size_t om = text_off(tb, r->message), of = text_off(tb, r->function);
	size_t os = text_off(tb, r->source), ox = text_off(tb, r->fixit),
	       ofl = text_off(tb, r->flag);
	for (size_t i = 0; i < r->nnotes; i++) {
		offs[2 * i] = text_off(tb, r->notes[i].msg);
		offs[2 * i + 1] = text_off(tb, r->notes[i].source);
	}
	d.message = at(tb, om);
	d.function = at(tb, of);
	d.source = at(tb, os);
	d.fixit = at(tb, ox);
	d.flag = at(tb, ofl);
	for (size_t i = 0; i < r->nnotes; i++) {
		notes[i] = r->notes[i];
		notes[i].loc.file = norm_path(x, r->notes[i].loc.file);
		notes[i].msg = at(tb, offs[2 * i]);
		notes[i].source = at(tb, offs[2 * i + 1]);
	}
	d.notes = notes;
	for (size_t i = 0; i < r->nincludes; i++) {
		incs[i] = r->includes[i];
		incs[i].file = norm_path(x, r->includes[i].file);
	}
	d.includes = incs;
	for (size_t i = 0; i < r->ntus; i++)
		tus[i] = norm_path(x, r->tus[i]);
	d.tus = tus;
	d.loc.file = norm_path(x, r->loc.file);
	d.spell.file = norm_path(x, r->spell.file);
	diag_set_add(x->into, &d);
}

void diag_normalize_into(const struct diag_set *raw, struct diag_set *into, const char *root,
			 const char *const *builds, size_t nb)
{
	size_t maxn = 0, maxi = 0, maxt = 0;
	struct pathmap seen = {0};
	collect_set(raw, &seen, &maxn, &maxi, &maxt);
	free(seen.keys);
	free(seen.vals);
	struct norm_ctx x = {{0}, into, root, builds, nb};
	struct diag_note *notes = xmalloc((maxn + 1) * sizeof(*notes));
	struct diag_loc *incs = xmalloc((maxi + 1) * sizeof(*incs));
	const char **tus = xmalloc((maxt + 1) * sizeof(*tus));
	size_t *offs = xmalloc((2 * maxn + 1) * sizeof(*offs));
	struct strbuf tb = STRBUF_INIT;
	for (size_t i = 0; i < diag_set_size(raw); i++)
		norm_one(&x, diag_set_get(raw, i), &tb, notes, incs, tus, offs);
	sb_free(&tb);
	free(notes);
	free(incs);
	free(tus);
	free(offs);
	free(x.paths.keys);
	free(x.paths.vals);
}
