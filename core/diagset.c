/* The diagnostic store: an arena for strings, an intern table for paths and
 * flags, and a hash table that folds equal diagnostics into one with all its
 * occurrences. Memory grows with distinct diagnostics, never with log size. */
#include "core/diag.h"

#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

#define ARENA_FIRST (64 * 1024)	    /* a set's first block; each next one doubles */
#define ARENA_MAX (4 * 1024 * 1024) /* up to this */

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	char data[];
};

/* A diagnostic with the private bookkeeping the set needs. */
struct entry {
	struct diag d;
	uint32_t tus_cap;
	bool tus_heap; /* the first units live in the arena, more on the heap */
};

struct diag_set {
	struct arena_block *arena;
	size_t next_block; /* size of the next block */
	/* intern table: open addressing, power of two */
	const char **istr;
	uint64_t *ihash;
	size_t icap, icount;
	/* diagnostics and their dedup table (the hash kept next to the
	 * pointer: a probe that does not match costs no second cache miss) */
	struct entry **items;
	size_t n, cap;
	struct slot {
		uint64_t hash;
		struct entry *e;
	} * table;
	size_t tcap;
	/* (diagnostic, translation unit) pairs already recorded */
	struct tu_pair {
		const struct entry *e;
		const char *tu;
	} * pairs;
	size_t pcap, pcount;
	/* entries whose units moved to the heap (freed without a pass over all) */
	struct entry **heaped;
	size_t nheaped, heapcap;
	/* the message of the last key looked up, its length and hash */
	const char *find_msg;
	size_t find_msg_len;
	uint64_t find_msg_hash;
	size_t fps_done; /* diag_set_fingerprints() ran with this many */
};

static inline uint64_t mix(uint64_t a, uint64_t b)
{
	__extension__ typedef unsigned __int128 u128;
	u128 r = (u128)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t diag_hash(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = seed ^ 0x9e3779b97f4a7c15ull ^ ((uint64_t)n * 0xff51afd7ed558ccdull);
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = mix(h ^ w, 0xa0761d6478bd642full);
		s += 8;
		n -= 8;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	return mix(h ^ w ^ 0xe7037ed1a0b428dbull, 0x8ebc6af09c88c6e3ull);
}

/* NULL and "" are the same string for keys. */
static uint64_t hash_str(const char *s, uint64_t seed)
{
	return s ? diag_hash(s, strlen(s), seed) : diag_hash("", 0, seed);
}

static struct arena_block *block_new(size_t cap)
{
	struct arena_block *b = xmalloc_big(sizeof(*b) + cap);
	b->cap = cap;
	b->used = 0;
	return b;
}

static void *arena_alloc(struct diag_set *s, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	struct arena_block *b = s->arena;
	if (!b || b->cap - b->used < n) {
		if (!s->next_block)
			s->next_block = ARENA_FIRST;
		bool big = n > s->next_block / 4;
		b = block_new(big ? n : s->next_block - sizeof(*b));
		if (big && s->arena) {
			/* a big one-off: keep filling the current block */
			b->next = s->arena->next;
			s->arena->next = b;
		} else {
			b->next = s->arena;
			s->arena = b;
			if (s->next_block < ARENA_MAX)
				s->next_block *= 2;
		}
	}
	void *p = b->data + b->used;
	b->used += n;
	return p;
}

char *diag_set_strndup(struct diag_set *s, const char *str, size_t len)
{
	char *p = arena_alloc(s, len + 1);
	memcpy(p, str, len);
	p[len] = '\0';
	return p;
}

static const char *sdup(struct diag_set *s, const char *str)
{
	return str ? diag_set_strndup(s, str, strlen(str)) : NULL;
}

static void intern_grow(struct diag_set *s)
{
	size_t ncap = s->icap ? s->icap * 2 : 1024;
	const char **nstr = xcalloc_big(ncap * sizeof(*nstr));
	uint64_t *nhash = xcalloc_big(ncap * sizeof(*nhash));
	for (size_t i = 0; i < s->icap; i++) {
		if (!s->istr[i])
			continue;
		size_t j = s->ihash[i] & (ncap - 1);
		while (nstr[j])
			j = (j + 1) & (ncap - 1);
		nstr[j] = s->istr[i];
		nhash[j] = s->ihash[i];
	}
	free(s->istr);
	free(s->ihash);
	s->istr = nstr;
	s->ihash = nhash;
	s->icap = ncap;
}

/* h: diag_hash(str, len, 0), the hash a key takes of its message */
static const char *intern_hashed(struct diag_set *s, const char *str, size_t len, uint64_t h)
{
	if ((s->icount + 1) * 2 > s->icap)
		intern_grow(s);
	size_t j = h & (s->icap - 1);
	for (; s->istr[j]; j = (j + 1) & (s->icap - 1))
		if (s->ihash[j] == h && !strncmp(s->istr[j], str, len) && !s->istr[j][len])
			return s->istr[j];
	s->istr[j] = diag_set_strndup(s, str, len);
	s->ihash[j] = h;
	s->icount++;
	return s->istr[j];
}

const char *diag_set_intern(struct diag_set *s, const char *str, size_t len)
{
	return str ? intern_hashed(s, str, len, diag_hash(str, len, 0)) : NULL;
}

static const char *intern(struct diag_set *s, const char *str)
{
	return str ? diag_set_intern(s, str, strlen(str)) : NULL;
}

struct diag_set *diag_set_new(void)
{
	return xcalloc(1, sizeof(struct diag_set));
}

void diag_set_free(struct diag_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nheaped; i++)
		free(s->heaped[i]->d.tus);
	free(s->heaped);
	while (s->arena) {
		struct arena_block *b = s->arena;
		s->arena = b->next;
		free(b);
	}
	free(s->istr);
	free(s->ihash);
	free(s->items);
	free(s->table);
	free(s->pairs);
	free(s);
}

size_t diag_set_size(const struct diag_set *s)
{
	return s->n;
}

struct diag *diag_set_get(const struct diag_set *s, size_t i)
{
	return i < s->n ? &s->items[i]->d : NULL;
}

/* Keys use the interned pointers of files, flag and arch; the compiler and
 * the arch are compared but not hashed (a parser relabels them on finish). */
uint64_t diag_key_hash(const struct diag *d, uint64_t msg_hash)
{
	uint64_t h = msg_hash;
	h = mix(h ^ (uintptr_t)d->loc.file, ((uint64_t)d->loc.line << 32 | d->loc.col) * 2 + 1);
	h = mix(h ^ (uintptr_t)d->spell.file,
		((uint64_t)d->spell.line << 32 | d->spell.col) * 2 + 1);
	return mix(h ^ (uintptr_t)d->flag, 0x9e3779b97f4a7c15ull);
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || !strcmp(a ? a : "", b ? b : "");
}

static bool loc_eq(const struct diag_loc *a, const struct diag_loc *b)
{
	return a->line == b->line && a->col == b->col && str_eq(a->file, b->file);
}

static bool key_eq(const struct diag *a, const struct diag *b)
{
	return a->cc == b->cc && a->loc.file == b->loc.file && a->loc.line == b->loc.line &&
	       a->loc.col == b->loc.col && a->spell.file == b->spell.file &&
	       a->spell.line == b->spell.line && a->spell.col == b->spell.col &&
	       a->flag == b->flag && a->arch == b->arch && str_eq(a->message, b->message);
}

static void table_grow(struct diag_set *s)
{
	size_t ncap = s->tcap ? s->tcap * 2 : 1024;
	struct slot *nt = xcalloc_big(ncap * sizeof(*nt));
	for (size_t i = 0; i < s->tcap; i++) {
		if (!s->table[i].e)
			continue;
		size_t j = s->table[i].hash & (ncap - 1);
		while (nt[j].e)
			j = (j + 1) & (ncap - 1);
		nt[j] = s->table[i];
	}
	free(s->table);
	s->table = nt;
	s->tcap = ncap;
}

static uint64_t pair_hash(const struct entry *e, const char *tu)
{
	return mix((uint64_t)(uintptr_t)e ^ 0x12345, (uint64_t)(uintptr_t)tu | 1);
}

/* Record that `tu` reported `e`; false if it was already recorded. */
static bool pair_add(struct diag_set *s, const struct entry *e, const char *tu)
{
	if ((s->pcount + 1) * 2 > s->pcap) {
		size_t ncap = s->pcap ? s->pcap * 2 : 1024;
		struct tu_pair *np = xcalloc_big(ncap * sizeof(*np));
		for (size_t i = 0; i < s->pcap; i++) {
			if (!s->pairs[i].e)
				continue;
			size_t j = pair_hash(s->pairs[i].e, s->pairs[i].tu) & (ncap - 1);
			while (np[j].e)
				j = (j + 1) & (ncap - 1);
			np[j] = s->pairs[i];
		}
		free(s->pairs);
		s->pairs = np;
		s->pcap = ncap;
	}
	size_t j = pair_hash(e, tu) & (s->pcap - 1);
	for (; s->pairs[j].e; j = (j + 1) & (s->pcap - 1))
		if (s->pairs[j].e == e && s->pairs[j].tu == tu)
			return false;
	s->pairs[j].e = e;
	s->pairs[j].tu = tu;
	s->pcount++;
	return true;
}

/* Join a translation unit (interned): a short list is searched in place,
 * from 8 units on a (diagnostic, unit) hash set takes over. */
#define FEW_TUS 8
static void add_tu(struct diag_set *s, struct entry *e, const char *tu)
{
	struct diag *d = &e->d;
	if (!tu)
		return;
	if (d->ntus < FEW_TUS) {
		for (size_t i = 0; i < d->ntus; i++)
			if (d->tus[i] == tu)
				return;
	} else if (!pair_add(s, e, tu)) {
		return;
	}
	if (d->ntus == e->tus_cap) {
		if (!e->tus_cap) {
			e->tus_cap = 2;
			d->tus = arena_alloc(s, 2 * sizeof(*d->tus));
		} else {
			const char **n = xmalloc(2 * e->tus_cap * sizeof(*n));
			memcpy(n, d->tus, e->tus_cap * sizeof(*n));
			if (e->tus_heap) {
				free(d->tus);
			} else {
				ALLOC_GROW(s->heaped, s->nheaped + 1, s->heapcap);
				s->heaped[s->nheaped++] = e;
			}
			d->tus = n;
			e->tus_cap *= 2;
			e->tus_heap = true;
		}
	}
	d->tus[d->ntus++] = tu;
	if (d->ntus == FEW_TUS)
		for (size_t i = 0; i < FEW_TUS; i++)
			pair_add(s, e, d->tus[i]);
}

static void copy_loc(struct diag_set *s, struct diag_loc *dst, const struct diag_loc *src)
{
	dst->file = src->file ? intern(s, src->file) : intern(s, "");
	dst->line = src->line;
	dst->col = src->col;
}

static struct entry *entry_new(struct diag_set *s, const struct diag *d)
{
	struct entry *e = arena_alloc(s, sizeof(*e));
	memset(e, 0, sizeof(*e));
	struct diag *n = &e->d;
	n->kind = d->kind;
	n->cc = d->cc;
	n->arch = d->arch;
	n->log = d->log;
	n->loc = d->loc;
	n->spell = d->spell;
	n->flag = d->flag;
	/* texts are interned too: macro-made warnings repeat their notes and
	 * echoed lines thousands of times (memory is most of a big parse) */
	n->message = !d->message ? ""
		     : d->message == s->find_msg
			 ? intern_hashed(s, d->message, s->find_msg_len, s->find_msg_hash)
			 : intern(s, d->message);
	n->function = d->function;
	n->source = intern(s, d->source);
	n->fixit = intern(s, d->fixit);
	n->werror = d->werror;
	if (d->nnotes) {
		n->notes = arena_alloc(s, d->nnotes * sizeof(*n->notes));
		for (size_t i = 0; i < d->nnotes; i++) {
			const struct diag_note *a = &d->notes[i];
			struct diag_note *b = &n->notes[i];
			b->kind = a->kind;
			b->loc = a->loc;
			b->msg = a->msg ? intern(s, a->msg) : "";
			b->macro = a->macro;
			b->source = intern(s, a->source);
		}
	}
	n->nnotes = d->nnotes;
	n->nmacros = d->nmacros;
	if (d->nincludes) {
		n->includes = arena_alloc(s, d->nincludes * sizeof(*n->includes));
		memcpy(n->includes, d->includes, d->nincludes * sizeof(*n->includes));
	}
	n->nincludes = d->nincludes;
	n->family = d->family;
	n->group = d->group;
	n->subgroup = d->subgroup;
	n->triage_note = sdup(s, d->triage_note);
	n->side = d->side;
	n->base = d->base;
	n->status = d->status;
	return e;
}

void diag_set_prefetch(const struct diag_set *s, uint64_t hash)
{
	if (s->tcap)
		__builtin_prefetch(&s->table[hash & (s->tcap - 1)]);
}

struct diag *diag_set_find(struct diag_set *s, const struct diag *key, uint64_t *hash)
{
	size_t len = key->message ? strlen(key->message) : 0;
	uint64_t mh = diag_hash(key->message ? key->message : "", len, 0);
	*hash = diag_key_hash(key, mh);
	return diag_set_find_hashed(s, key, len, mh, *hash);
}

struct diag *diag_set_find_hashed(struct diag_set *s, const struct diag *key, size_t msg_len,
				  uint64_t msg_hash, uint64_t h)
{
	/* kept for diag_set_insert: the message of a new key is interned */
	s->find_msg = key->message;
	s->find_msg_len = msg_len;
	s->find_msg_hash = msg_hash;
	if (!s->tcap)
		return NULL;
	for (size_t j = h & (s->tcap - 1); s->table[j].e; j = (j + 1) & (s->tcap - 1))
		if (s->table[j].hash == h && key_eq(&s->table[j].e->d, key))
			return &s->table[j].e->d;
	return NULL;
}

void diag_set_bump(struct diag_set *s, struct diag *d, enum diag_kind kind, unsigned occurrences,
		   const char *const *tus, size_t ntus)
{
	struct entry *e = (struct entry *)d;
	if (kind == DIAG_ERROR)
		d->kind = DIAG_ERROR;
	d->occurrences += occurrences ? occurrences : 1;
	for (size_t i = 0; i < ntus; i++)
		add_tu(s, e, tus[i]);
}

struct diag *diag_set_insert(struct diag_set *s, const struct diag *d, uint64_t hash)
{
	if ((s->n + 1) * 2 > s->tcap)
		table_grow(s);
	struct entry *e = entry_new(s, d);
	s->find_msg = NULL; /* good for the insert right after its find only */
	size_t j = hash & (s->tcap - 1);
	while (s->table[j].e)
		j = (j + 1) & (s->tcap - 1);
	s->table[j].hash = hash;
	s->table[j].e = e;
	ALLOC_GROW(s->items, s->n + 1, s->cap);
	e->d.index = s->n;
	s->items[s->n++] = e;
	for (size_t i = 0; i < d->ntus; i++)
		add_tu(s, e, d->tus[i]);
	e->d.occurrences = d->occurrences ? d->occurrences : 1;
	return &e->d;
}

/* A copy of d whose names (paths, flag, arch, log, function, macros, ...)
 * are interned in s, as diag_set_insert wants them. */
struct interned {
	struct diag d;
	struct diag_note *notes;
	struct diag_loc *incs;
	const char **tus;
};

static void intern_all(struct diag_set *s, const struct diag *d, struct interned *k)
{
	k->d = *d;
	struct diag *n = &k->d;
	n->loc.file = intern(s, d->loc.file ? d->loc.file : "");
	n->spell.file = intern(s, d->spell.file ? d->spell.file : "");
	n->flag = intern(s, d->flag ? d->flag : "");
	n->arch = intern(s, d->arch ? d->arch : "");
	n->log = intern(s, d->log);
	n->function = intern(s, d->function);
	n->family = intern(s, d->family);
	n->group = intern(s, d->group);
	n->subgroup = intern(s, d->subgroup);
	k->notes = xmalloc((d->nnotes + 1) * sizeof(*k->notes));
	for (size_t i = 0; i < d->nnotes; i++) {
		k->notes[i] = d->notes[i];
		copy_loc(s, &k->notes[i].loc, &d->notes[i].loc);
		k->notes[i].macro = intern(s, d->notes[i].macro);
	}
	n->notes = k->notes;
	k->incs = xmalloc((d->nincludes + 1) * sizeof(*k->incs));
	for (size_t i = 0; i < d->nincludes; i++)
		copy_loc(s, &k->incs[i], &d->includes[i]);
	n->includes = k->incs;
	k->tus = xmalloc((d->ntus + 1) * sizeof(*k->tus));
	for (size_t i = 0; i < d->ntus; i++)
		k->tus[i] = intern(s, d->tus[i]);
	n->tus = k->tus;
}

struct diag *diag_set_add(struct diag_set *s, const struct diag *d)
{
	struct interned k;
	intern_all(s, d, &k);
	uint64_t h;
	struct diag *e = diag_set_find(s, &k.d, &h);
	if (!e)
		e = diag_set_insert(s, &k.d, h);
	else
		diag_set_bump(s, e, d->kind, d->occurrences, k.tus, d->ntus);
	free(k.notes);
	free(k.incs);
	free(k.tus);
	return e;
}

void diag_set_relabel(struct diag_set *s, enum diag_cc cc, const char *arch)
{
	const char *a = intern(s, arch ? arch : "");
	for (size_t i = 0; i < s->n; i++) {
		s->items[i]->d.cc = cc;
		s->items[i]->d.arch = a;
	}
}

void diag_set_merge(struct diag_set *into, struct diag_set *from)
{
	if (!into->n && !into->icount) {
		struct diag_set tmp = *into;
		*into = *from;
		*from = tmp;
		return;
	}
	for (size_t i = 0; i < from->n; i++)
		diag_set_add(into, &from->items[i]->d);
}

static int strcmp0(const char *a, const char *b)
{
	/* interned names: the same pointer is the same text, not worth reading */
	return a == b ? 0 : strcmp(a ? a : "", b ? b : "");
}

int diag_cmp(const struct diag *a, const struct diag *b)
{
	int c = strcmp0(a->loc.file, b->loc.file);
	if (c)
		return c;
	if (a->loc.line != b->loc.line)
		return a->loc.line < b->loc.line ? -1 : 1;
	if (a->loc.col != b->loc.col)
		return a->loc.col < b->loc.col ? -1 : 1;
	if ((c = strcmp0(a->flag, b->flag)) || (c = strcmp0(a->message, b->message)))
		return c;
	if (a->cc != b->cc)
		return a->cc < b->cc ? -1 : 1;
	if ((c = strcmp0(a->arch, b->arch)))
		return c;
	if ((c = strcmp0(a->spell.file, b->spell.file)))
		return c;
	if (a->spell.line != b->spell.line)
		return a->spell.line < b->spell.line ? -1 : 1;
	return a->spell.col < b->spell.col ? -1 : a->spell.col > b->spell.col;
}

/* Sorting by a 64-bit key (file rank, line, column) with a radix sort:
 * each distinct file name is ranked once, so a sort of many diagnostics
 * compares few strings; runs of equal keys are then put in full order. */
struct sort_key {
	uint64_t key;
	struct diag *d;
};

static int cmp_name(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static int cmp_full(const void *pa, const void *pb)
{
	return diag_cmp(((const struct sort_key *)pa)->d, ((const struct sort_key *)pb)->d);
}

void diag_rank_strings(const char *const *strs, size_t n, uint32_t *out)
{
	struct ptrmap seen = {0}; /* distinct pointer -> rank */
	const char **names = xmalloc((n + 1) * sizeof(*names));
	size_t nn = 0;
	bool added;
	for (size_t i = 0; i < n; i++) {
		const char *s = strs[i] ? strs[i] : "";
		if (i && strs[i] == strs[i - 1])
			continue; /* runs of one name: one lookup */
		ptrmap_add(&seen, s, &added);
		if (added)
			names[nn++] = s;
	}
	qsort(names, nn, sizeof(*names), cmp_name);
	uint32_t r = 0;
	for (size_t u = 0; u < nn; u++) {
		if (u && strcmp(names[u - 1], names[u]))
			r++;
		*ptrmap_add(&seen, names[u], &added) = r;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = i && strs[i] == strs[i - 1]
			     ? out[i - 1]
			     : (uint32_t)*ptrmap_get(&seen, strs[i] ? strs[i] : "");
	free(names);
	ptrmap_free(&seen);
}

static void radix_sort(struct sort_key *k, size_t n)
{
	struct sort_key *tmp = xmalloc_big(n * sizeof(*tmp)), *src = k, *dst = tmp;
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = {0};
		for (size_t i = 0; i < n; i++)
			count[((src[i].key >> shift) & 0xff) + 1]++;
		if (count[((src[0].key >> shift) & 0xff) + 1] == n)
			continue; /* all equal in this byte */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
		struct sort_key *t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
	free(tmp);
}

void diag_sort(struct diag **rows, size_t n)
{
	if (n < 2)
		return;
	const char **files = xmalloc(n * sizeof(*files));
	uint32_t *rank = xmalloc(n * sizeof(*rank));
	for (size_t i = 0; i < n; i++)
		files[i] = rows[i]->loc.file;
	diag_rank_strings(files, n, rank);
	struct sort_key *k = xmalloc_big(n * sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = rows[i];
		uint64_t line = d->loc.line < 0xffffff ? d->loc.line : 0xffffff;
		uint64_t col = d->loc.col < 0xffff ? d->loc.col : 0xffff;
		k[i].key = (uint64_t)rank[i] << 40 | line << 16 | col;
		k[i].d = rows[i];
	}
	radix_sort(k, n);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && k[j].key == k[i].key)
			j++;
		if (j - i > 16) {
			qsort(k + i, j - i, sizeof(*k), cmp_full);
		} else { /* most runs are a few: insertion sort, no calls */
			for (size_t m = i + 1; m < j; m++) {
				struct sort_key t = k[m];
				size_t q = m;
				for (; q > i && diag_cmp(k[q - 1].d, t.d) > 0; q--)
					k[q] = k[q - 1];
				k[q] = t;
			}
		}
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = k[i].d;
	free(k);
	free(rank);
	free(files);
}

void diag_set_sort(struct diag_set *s)
{
	/* items are entries whose first member is the diagnostic */
	diag_sort((struct diag **)s->items, s->n);
	for (size_t i = 0; i < s->n; i++)
		s->items[i]->d.index = i;
}

void diag_set_totals(const struct diag_set *s, struct diag_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < s->n; i++) {
		const struct diag *d = &s->items[i]->d;
		if (d->kind == DIAG_ERROR) {
			t->errors += d->occurrences;
			t->distinct_errors++;
		} else {
			t->warnings += d->occurrences;
			t->distinct_warnings++;
		}
	}
}

static bool is_ident(char c)
{
	return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9');
}

static bool is_hexish(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') ||
	       (c | 0x20) == 'x' || c == '.';
}

/* Masking numbers: a digit at p (in m) that does not continue a word starts
 * a number, which goes on over hex digits, x and dots. */
static bool number_at(const char *m, const char *p)
{
	return *p >= '0' && *p <= '9' && !(p > m && is_ident(p[-1]));
}

static const char *number_last(const char *p)
{
	while (p[1] && is_hexish(p[1]))
		p++;
	return p;
}

void diag_mask_numbers(const char *m, struct strbuf *out)
{
	const char *run = m;
	for (const char *p = m; *p; p++) {
		if (!number_at(m, p))
			continue;
		sb_add(out, run, (size_t)(p - run));
		p = number_last(p);
		sb_addc(out, '#');
		run = p + 1;
	}
	sb_adds(out, run);
}

/* Fingerprint texts are hashed in chunks of exactly 256 (message) or 512
 * (source) bytes, chained: the chunking is part of the fingerprints kept in
 * triage stores. */
/* The masked message hashed as it is made: a number not inside a word
 * (and its hex digits, x and dots) becomes '#'. */
static uint64_t hash_masked(const char *m, uint64_t h)
{
	char buf[256];
	size_t n = 0;
	for (const char *p = m; *p; p++) {
		char c = *p;
		if (number_at(m, p)) {
			p = number_last(p);
			c = '#';
		}
		buf[n++] = c;
		if (n == sizeof(buf)) {
			h = diag_hash(buf, n, h);
			n = 0;
		}
	}
	return diag_hash(buf, n, h);
}

/* Source text with runs of white space folded (gcc and clang expand tabs
 * differently); a blank at the start of a chunk or at the end is dropped. */
static uint64_t hash_code(const char *src, uint64_t h)
{
	char buf[512];
	size_t n = 0;
	const char *p = src ? src : "";
	while (*p) {
		if (*p == ' ' || *p == '\t') {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!n || !*p)
				continue;
			buf[n++] = ' ';
		} else {
			buf[n++] = *p++;
		}
		if (n == sizeof(buf)) {
			h = diag_hash(buf, n, h);
			n = 0;
		}
	}
	return diag_hash(buf, n, h);
}

uint64_t diag_fingerprint(const struct diag *d)
{
	uint64_t h = hash_str(d->loc.file, 0x6b6c616e67ull);
	h = hash_str(d->flag, h);
	h = hash_masked(d->message ? d->message : "", h);
	h = hash_code(d->source, h);
	if (!loc_eq(&d->loc, &d->spell))
		h = hash_str(d->spell.file, h);
	return h;
}

struct fp_place {
	uint64_t fp;
	unsigned line, col;
	struct diag *d;
};

static int cmp_fp_place(const void *pa, const void *pb)
{
	const struct fp_place *a = pa, *b = pb;
	if (a->fp != b->fp)
		return a->fp < b->fp ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return (a->col > b->col) - (a->col < b->col);
}

void diag_set_fingerprints(struct diag_set *s)
{
	if (!s || s->fps_done == s->n)
		return;
	struct fp_place *v = xmalloc((s->n + 1) * sizeof(*v));
	for (size_t i = 0; i < s->n; i++) {
		struct diag *d = &s->items[i]->d;
		v[i] = (struct fp_place){diag_fingerprint(d), d->loc.line, d->loc.col, d};
	}
	qsort(v, s->n, sizeof(*v), cmp_fp_place);
	uint64_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!i || v[i].fp != v[i - 1].fp)
			k = 0;
		else if (v[i].line != v[i - 1].line || v[i].col != v[i - 1].col)
			k++;
		v[i].d->fp_cache = k ? mix(v[i].fp ^ k, 0x9e3779b97f4a7c15ull) : v[i].fp;
		v[i].d->fp_known = true;
	}
	free(v);
	s->fps_done = s->n;
}

uint64_t diag_fp(const struct diag *d)
{
	if (!d->fp_known) {
		struct diag *w = (struct diag *)d; /* a cache, not a change */
		w->fp_cache = diag_fingerprint(d);
		w->fp_known = true;
	}
	return d->fp_cache;
}

const char *diag_kind_name(enum diag_kind k)
{
	return k == DIAG_ERROR ? "error" : "warning";
}

const char *diag_cc_name(enum diag_cc c)
{
	return c == DIAG_CC_GCC ? "gcc" : c == DIAG_CC_CLANG ? "clang" : "unknown";
}

const char *diag_side_name(enum diag_side s)
{
	static const char *names[] = {"-", "clang-only", "gcc-only", "both"};
	return names[s];
}

const char *diag_base_name(enum diag_base b)
{
	static const char *names[] = {"-", "new", "fixed", "outstanding"};
	return names[b];
}
