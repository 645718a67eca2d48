/* Flag families, GCC-against-Clang matching and baseline comparison.
 *
 * The two compilers often report one defect at different places: through a
 * macro, GCC points at the spelling inside the definition and chains "in
 * expansion of macro" notes out to the use, while Clang points at the use.
 * Diagnostics are therefore matched on their outermost expansion site
 * (diag.loc, which the parser computes for both) and the flag family. */
#include "core/diagdiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/ydoc.h"

struct diag_families {
	struct strmap map; /* flag (without trailing '=') -> family name (owned) */
	char **names;
	size_t nnames, cap;
};

struct diag_families *diag_families_new(void)
{
	return xcalloc(1, sizeof(struct diag_families));
}

void diag_families_free(struct diag_families *f)
{
	if (!f)
		return;
	strmap_free(&f->map);
	for (size_t i = 0; i < f->nnames; i++)
		free(f->names[i]);
	free(f->names);
	free(f);
}

static void strip_eq(const char *flag, struct strbuf *out)
{
	size_t n = strlen(flag);
	if (n > 3 && flag[n - 1] == '=')
		n--;
	sb_reset(out);
	sb_add(out, flag, n);
}

static int load_family(void *ctx, const char *path, const struct ynode *fam, struct kerr *e)
{
	struct diag_families *f = ctx;
	if (fam->type != Y_SEQ || !fam->n)
		return kerr_set(e, "%s:%u:%u: expected a list of flags, like [-Wfoo, -Wbar]", path,
				fam->line, fam->col);
	for (size_t k = 0; k < fam->n; k++) {
		const struct ynode *fl = fam->items[k];
		if (fl->type != Y_SCALAR || !*fl->str)
			return kerr_set(e, "%s:%u:%u: expected a flag, found %s", path, fl->line,
					fl->col, ydoc_type_name(fl->type));
	}
	struct strbuf key = STRBUF_INIT;
	strip_eq(fam->items[0]->str, &key);
	ALLOC_GROW(f->names, f->nnames + 1, f->cap);
	char *name = f->names[f->nnames++] = xstrdup(key.buf);
	for (size_t k = 0; k < fam->n; k++) {
		strip_eq(fam->items[k]->str, &key);
		strmap_put(&f->map, key.buf, name);
	}
	sb_free(&key);
	return 0;
}

int diag_families_load(struct diag_families *f, const char *path, struct kerr *e)
{
	return ydoc_each(path, "flag lists", load_family, f, e);
}

struct diag_families *diag_families_default(const char *repo, const char *extra, struct kerr *e)
{
	struct diag_families *f = diag_families_new();
	char *shipped = data_path("rules/families.yaml");
	if (shipped && diag_families_load(f, shipped, e))
		goto fail;
	char *local = xasprintf("%s/.klang/families.yaml", repo ? repo : ".");
	if (file_exists(local) && diag_families_load(f, local, e)) {
		free(local);
		goto fail;
	}
	free(local);
	if (extra && diag_families_load(f, extra, e))
		goto fail;
	free(shipped);
	return f;
fail:
	free(shipped);
	diag_families_free(f);
	return NULL;
}

const char *diag_family(const struct diag_families *f, const char *flag, struct strbuf *tmp)
{
	if (!flag || !*flag)
		return "";
	strip_eq(flag, tmp);
	const char *name = f ? strmap_get(&f->map, tmp->buf) : NULL;
	return name ? name : tmp->buf;
}

void diag_families_apply(const struct diag_families *f, struct diag_set *s)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *last_flag = NULL, *last_family = NULL; /* flags are interned and few */
	for (size_t i = 0; i < diag_set_size(s); i++) {
		struct diag *d = diag_set_get(s, i);
		if (d->flag != last_flag || !last_family) {
			const char *fam = diag_family(f, d->flag, &tmp);
			last_family = diag_set_intern(s, fam, strlen(fam));
			last_flag = d->flag;
		}
		d->family = last_family;
	}
	sb_free(&tmp);
}

void diag_diff_free(struct diag_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

static void add_row(struct diag_diff *out, size_t *cap, struct diag *d)
{
	ALLOC_GROW(out->rows, out->n + 1, *cap);
	out->rows[out->n++] = d;
}

static void sort_rows(struct diag_diff *out)
{
	diag_sort(out->rows, out->n);
}

/* The match key: arch, outermost site and family; a diagnostic without a
 * line (ld, objtool, modpost) is matched on its masked message as well.
 * The two sets intern their strings apart, so keys compare text. */
struct matcher {
	bool ignore_arch;
	struct mslot {
		uint64_t hash;
		struct diag *d;
	} * t;
	size_t cap;
	struct strbuf a, b;
	/* hashes of the (interned, so few) files, families and arches, by pointer */
	struct ptrmap memo;
};

static uint64_t str_hash(struct matcher *m, const char *s, uint64_t seed)
{
	bool added;
	uint64_t *h = ptrmap_add(&m->memo, s, &added);
	if (added)
		*h = diag_hash(s, strlen(s), 0);
	return *h ^ seed;
}

static const char *fam_of(const struct diag *d)
{
	return d->family ? d->family : d->flag;
}

static uint64_t match_hash(struct matcher *m, const struct diag *d)
{
	uint64_t h = str_hash(m, d->loc.file, d->loc.line * 0xff51afd7ed558ccdull);
	h = str_hash(m, fam_of(d), h * 0xc4ceb9fe1a85ec53ull);
	if (!m->ignore_arch)
		h = str_hash(m, d->arch, h * 0x9e3779b97f4a7c15ull);
	if (!d->loc.line) {
		sb_reset(&m->a);
		diag_mask_numbers(d->message, &m->a);
		h = diag_hash(m->a.buf, m->a.len, h);
	}
	return h;
}

static bool same(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

static bool match_eq(struct matcher *m, const struct diag *x, const struct diag *y)
{
	if (x->loc.line != y->loc.line || !same(x->loc.file, y->loc.file) ||
	    !same(fam_of(x), fam_of(y)) || (!m->ignore_arch && !same(x->arch, y->arch)))
		return false;
	if (x->loc.line)
		return true;
	sb_reset(&m->a);
	sb_reset(&m->b);
	diag_mask_numbers(x->message, &m->a);
	diag_mask_numbers(y->message, &m->b);
	return !strcmp(m->a.buf, m->b.buf);
}

static bool matchable(const struct diag *d)
{
	return strcmp(d->flag, "make") != 0;
}

/* Index one set: the first diagnostic of each key. */
static void matcher_index(struct matcher *m, struct diag_set *s)
{
	size_t n = diag_set_size(s);
	m->cap = 64;
	while (m->cap < 2 * n)
		m->cap *= 2;
	m->t = xcalloc_big(m->cap * sizeof(*m->t)); /* written at once: no fault a page */
	for (size_t i = 0; i < n; i++) {
		struct diag *d = diag_set_get(s, i);
		d->side = DIAG_SIDE_NONE;
		d->peer = NULL;
		if (!matchable(d))
			continue;
		uint64_t h = match_hash(m, d);
		size_t j = h & (m->cap - 1);
		for (; m->t[j].d; j = (j + 1) & (m->cap - 1))
			if (m->t[j].hash == h && match_eq(m, m->t[j].d, d))
				break;
		if (!m->t[j].d)
			m->t[j] = (struct mslot){h, d};
	}
}

static struct diag *matcher_find(struct matcher *m, const struct diag *d)
{
	uint64_t h = match_hash(m, d);
	for (size_t j = h & (m->cap - 1); m->t[j].d; j = (j + 1) & (m->cap - 1))
		if (m->t[j].hash == h && match_eq(m, m->t[j].d, d))
			return m->t[j].d;
	return NULL;
}

static void matcher_free(struct matcher *m)
{
	free(m->t);
	ptrmap_free(&m->memo);
	sb_free(&m->a);
	sb_free(&m->b);
}

/* One side of the compiler diff: `s`'s matchable diagnostics looked up
 * in the other side's index, the unmatched (and for Clang the matched too)
 * becoming rows. */
struct side_job {
	const struct diag_families *f;
	struct diag_set *s;
	struct matcher *own, *other;
	enum diag_side alone;
	struct diag_diff rows; /* rows and counts of this side */
	size_t cap;
};

static void *side_index(void *arg)
{
	struct side_job *j = arg;
	diag_families_apply(j->f, j->s);
	matcher_index(j->own, j->s);
	return NULL;
}

static void *side_find(void *arg)
{
	struct side_job *j = arg;
	for (size_t i = 0; i < diag_set_size(j->s); i++) {
		struct diag *d = diag_set_get(j->s, i);
		if (!matchable(d))
			continue;
		d->peer = matcher_find(j->other, d);
		d->side = d->peer ? DIAG_SIDE_BOTH : j->alone;
		if (d->peer)
			j->rows.both++;
		if (!d->peer || j->alone == DIAG_SIDE_CLANG_ONLY)
			add_row(&j->rows, &j->cap, d);
	}
	return NULL;
}

void diag_diff_compilers(struct diag_set *gcc, struct diag_set *clang,
			 const struct diag_families *f, bool ignore_arch, struct diag_diff *out)
{
	memset(out, 0, sizeof(*out));
	struct matcher gm = {.ignore_arch = ignore_arch}, cm = {.ignore_arch = ignore_arch};
	struct side_job c = {f, clang, &cm, &gm, DIAG_SIDE_CLANG_ONLY, {0}, 0},
			g = {f, gcc, &gm, &cm, DIAG_SIDE_GCC_ONLY, {0}, 0};
	/* both sides at once, in two steps (each side indexed, then each
	 * looked up in the other): a side's diagnostics are written by its
	 * own thread only */
	run_both(side_index, &c, &g);
	run_both(side_find, &c, &g);
	out->both = c.rows.both;
	out->clang_only = c.rows.n - c.rows.both;
	out->gcc_only = g.rows.n;
	out->n = c.rows.n + g.rows.n;
	out->rows = xmalloc((out->n + 1) * sizeof(*out->rows));
	if (c.rows.n) /* rows is NULL when there are none */
		memcpy(out->rows, c.rows.rows, c.rows.n * sizeof(*out->rows));
	if (g.rows.n)
		memcpy(out->rows + c.rows.n, g.rows.rows, g.rows.n * sizeof(*out->rows));
	diag_diff_free(&c.rows);
	diag_diff_free(&g.rows);
	matcher_free(&gm);
	matcher_free(&cm);
	sort_rows(out);
}

/* Old diagnostics sharing a key, for the baseline: the nearest unused one wins. */
struct bucket {
	struct diag **d;
	size_t n, cap;
};

static void bucket_add(struct strmap *m, const char *key, struct diag *d)
{
	struct bucket *b = strmap_get(m, key);
	if (!b) {
		b = xcalloc(1, sizeof(*b));
		strmap_put(m, key, b);
	}
	ALLOC_GROW(b->d, b->n + 1, b->cap);
	b->d[b->n++] = d;
}

static struct diag *bucket_take(struct strmap *m, const char *key, unsigned line)
{
	struct bucket *b = strmap_get(m, key);
	if (!b)
		return NULL;
	size_t best = b->n;
	unsigned bestd = 0;
	for (size_t i = 0; i < b->n; i++) {
		if (b->d[i]->base != DIAG_BASE_FIXED)
			continue; /* already taken */
		unsigned dist =
		    b->d[i]->loc.line > line ? b->d[i]->loc.line - line : line - b->d[i]->loc.line;
		if (best == b->n || dist < bestd) {
			best = i;
			bestd = dist;
		}
	}
	if (best == b->n)
		return NULL;
	b->d[best]->base = DIAG_BASE_OUTSTANDING;
	return b->d[best];
}

static void buckets_free(struct strmap *m)
{
	size_t i = 0;
	const char *k;
	void *v;
	while (strmap_next(m, &i, &k, &v)) {
		struct bucket *b = v;
		free(b->d);
		free(b);
	}
	strmap_free(m);
}

static void fp_key(const struct diag *d, bool ignore_arch, struct strbuf *k)
{
	sb_reset(k);
	sb_addf(k, "%d\x1f%s\x1f%016llx", d->cc, ignore_arch ? "" : d->arch,
		(unsigned long long)diag_fp(d));
}

/* Second chance when the line's text changed: same file, flag and masked message. */
static void near_key(const struct diag *d, bool ignore_arch, struct strbuf *k)
{
	sb_reset(k);
	sb_addf(k, "%d\x1f%s\x1f%s\x1f%s\x1f", d->cc, ignore_arch ? "" : d->arch, d->loc.file,
		d->flag);
	diag_mask_numbers(d->message, k);
}

void diag_diff_baseline(struct diag_set *old, struct diag_set *cur, bool ignore_arch,
			struct diag_diff *out)
{
	memset(out, 0, sizeof(*out));
	struct strmap byfp = STRMAP_INIT, bynear = STRMAP_INIT;
	struct strbuf k = STRBUF_INIT;
	size_t cap = 0;
	diag_set_fingerprints(old);
	diag_set_fingerprints(cur);
	for (size_t i = 0; i < diag_set_size(old); i++) {
		struct diag *d = diag_set_get(old, i);
		d->base = DIAG_BASE_FIXED;
		fp_key(d, ignore_arch, &k);
		bucket_add(&byfp, k.buf, d);
		near_key(d, ignore_arch, &k);
		bucket_add(&bynear, k.buf, d);
	}
	size_t n = diag_set_size(cur);
	for (size_t i = 0; i < n; i++) {
		struct diag *d = diag_set_get(cur, i);
		fp_key(d, ignore_arch, &k);
		d->peer = bucket_take(&byfp, k.buf, d->loc.line);
		d->base = d->peer ? DIAG_BASE_OUTSTANDING : DIAG_BASE_NEW;
	}
	for (size_t i = 0; i < n; i++) {
		struct diag *d = diag_set_get(cur, i);
		if (d->base == DIAG_BASE_NEW) {
			near_key(d, ignore_arch, &k);
			d->peer = bucket_take(&bynear, k.buf, d->loc.line);
			if (d->peer)
				d->base = DIAG_BASE_OUTSTANDING;
		}
		add_row(out, &cap, d);
		if (d->base == DIAG_BASE_NEW)
			out->added++;
		else
			out->outstanding++;
	}
	for (size_t i = 0; i < diag_set_size(old); i++) {
		struct diag *d = diag_set_get(old, i);
		if (d->base == DIAG_BASE_FIXED) {
			add_row(out, &cap, d);
			out->fixed++;
		}
	}
	sb_free(&k);
	buckets_free(&byfp);
	buckets_free(&bynear);
	sort_rows(out);
}
