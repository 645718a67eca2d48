/* The triage store: load and save .klang/triage.yaml, look up by fingerprint. */
#include "core/triage.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buildlogs.h"
#include "core/lockfile.h"
#include "core/strmap.h"
#include "core/yamldoc.h"
#include "core/ydoc.h"

#define TRIAGE_NAME(id, name) name,
static const char *const status_names[] = {TRIAGE_STATUSES(TRIAGE_NAME)};
#undef TRIAGE_NAME

struct triage {
	struct strmap map; /* "%016x" fingerprint -> struct triage_entry * */
};

const char *triage_status_name(int s)
{
	return s >= 0 && s < TRIAGE__COUNT ? status_names[s] : "new";
}

int triage_status_parse(const char *name)
{
	for (int i = 0; i < TRIAGE__COUNT; i++)
		if (!strcmp(name, status_names[i]))
			return i;
	return -1;
}

int triage_fp_parse(const char *s, uint64_t *fp)
{
	size_t n = 0;
	while (isxdigit((unsigned char)s[n]))
		n++;
	if (n != 16 || s[n])
		return -1;
	*fp = strtoull(s, NULL, 16);
	return 0;
}

bool triage_settled(int s)
{
	return s == TRIAGE_WONTFIX || s == TRIAGE_FALSE_POSITIVE || s == TRIAGE_FIXED;
}

struct triage *triage_new(void)
{
	return xcalloc(1, sizeof(struct triage));
}

static void entry_free(struct triage_entry *e)
{
	free(e->note);
	free(e->file);
	free(e->flag);
	free(e->message);
	free(e);
}

/* Empty the store (after a load that failed half-way). */
static void clear(struct triage *t)
{
	size_t i = 0;
	const char *k;
	void *v;
	while (strmap_next(&t->map, &i, &k, &v))
		entry_free(v);
	strmap_free(&t->map);
	memset(&t->map, 0, sizeof(t->map));
}

void triage_free(struct triage *t)
{
	if (!t)
		return;
	clear(t);
	free(t);
}

char *triage_path(const char *repo)
{
	return buildlogs_state_file(repo ? repo : ".", "triage.yaml");
}

static void fp_key(uint64_t fp, char key[17])
{
	snprintf(key, 17, "%016" PRIx64, fp);
}

const struct triage_entry *triage_get(const struct triage *t, uint64_t fp)
{
	char key[17];
	fp_key(fp, key);
	return strmap_get(&t->map, key);
}

size_t triage_count(const struct triage *t)
{
	return t->map.n;
}

static void replace(char **dst, const char *src)
{
	if (!src)
		return;
	free(*dst);
	*dst = xstrdup(src);
}

void triage_set(struct triage *t, uint64_t fp, int status, const char *note, const struct diag *d)
{
	char key[17];
	fp_key(fp, key);
	struct triage_entry *e = strmap_get(&t->map, key);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->fingerprint = fp;
		strmap_put(&t->map, key, e);
	}
	e->status = status;
	e->changed = true;
	if (note) { /* NULL keeps the note, "" removes it */
		e->note_changed = true;
		free(e->note);
		e->note = *note ? xstrdup(note) : NULL;
	}
	if (d) {
		replace(&e->file, d->loc.file);
		replace(&e->flag, d->flag);
		replace(&e->message, d->message);
	}
}

static int load_entry(void *ctx, const char *path, const struct ynode *m, struct kerr *e)
{
	struct triage *t = ctx;
	if (m->type != Y_MAP)
		return kerr_set(e, "%s:%u:%u: expected an entry {fingerprint, status, ...}", path,
				m->line, m->col);
	const struct ynode *fp = ydoc_get(m, "fingerprint"), *st = ydoc_get(m, "status");
	if (!fp || fp->type != Y_SCALAR)
		return kerr_set(e, "%s:%u:%u: entry needs a 'fingerprint'", path, m->line, m->col);
	uint64_t v;
	if (triage_fp_parse(fp->str, &v))
		return kerr_set(e, "%s:%u:%u: fingerprint '%s' is not 16 hex digits", path,
				fp->line, fp->col, fp->str);
	int s = st && st->type == Y_SCALAR ? triage_status_parse(st->str) : -1;
	if (s < 0)
		return kerr_set(e,
				"%s:%u:%u: status must be one of new, confirmed, wontfix, "
				"false-positive, fixed",
				path, st ? st->line : m->line, st ? st->col : m->col);
	const struct ynode *note = ydoc_get(m, "note");
	triage_set(t, v, s, note && note->type == Y_SCALAR ? note->str : NULL, NULL);
	struct triage_entry *en = (struct triage_entry *)triage_get(t, v);
	static const char *keys[] = {"file", "flag", "message"};
	char **dst[] = {&en->file, &en->flag, &en->message};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct ynode *n = ydoc_get(m, keys[i]);
		if (n && n->type == Y_SCALAR)
			replace(dst[i], n->str);
	}
	return 0;
}

/* state_load/state_update's parser: the text is the file at `path` (read
 * under the lock), which ydoc reads again by its name. */
static int parse(void *data, const char *path, const char *text, size_t len, struct kerr *e)
{
	struct triage *t = data;
	(void)len;
	if (!text)
		return 0;
	if (ydoc_each(path, "entries", load_entry, t, e) < 0) {
		clear(t);
		return STATE_CORRUPT;
	}
	size_t i = 0;
	const char *k;
	void *v;
	while (strmap_next(&t->map, &i, &k, &v))
		((struct triage_entry *)v)->changed = false;
	return 0;
}

int triage_load(struct triage *t, const char *path, struct kerr *e)
{
	return state_load(path, parse, t, e);
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct triage_entry *a = *(struct triage_entry *const *)pa;
	const struct triage_entry *b = *(struct triage_entry *const *)pb;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	if (c)
		return c;
	return a->fingerprint < b->fingerprint ? -1 : a->fingerprint > b->fingerprint;
}

static void serialise(const struct triage *t, struct strbuf *b)
{
	struct triage_entry **all = xmalloc((t->map.n + 1) * sizeof(*all));
	size_t n = 0, i = 0;
	const char *k;
	void *v;
	while (strmap_next(&t->map, &i, &k, &v)) {
		struct triage_entry *en = v;
		if (en->status != TRIAGE_NEW || en->note)
			all[n++] = en;
	}
	if (n)
		qsort(all, n, sizeof(*all), cmp_entry);
	sb_adds(
	    b,
	    "# klang warning triage: a status per warning fingerprint (klang diag triage --help).\n"
	    "# Statuses: new, confirmed, wontfix, false-positive, fixed. Keep this file in git.\n");
	for (i = 0; i < n; i++) {
		const struct triage_entry *en = all[i];
		sb_addf(b, "- fingerprint: %016" PRIx64 "\n  status: %s\n", en->fingerprint,
			triage_status_name(en->status));
		const char *keys[] = {"file", "flag", "message", "note"};
		const char *vals[] = {en->file, en->flag, en->message, en->note};
		for (size_t j = 0; j < ARRAY_SIZE(keys); j++) {
			if (!vals[j])
				continue;
			sb_addf(b, "  %s: ", keys[j]);
			yamldoc_add_quoted(b, vals[j]);
			sb_addc(b, '\n');
		}
	}
	free(all);
}

struct merge {
	const struct triage *mine;
	struct triage *now; /* the file as it is, plus my changes */
};

/* Under the lock: re-read the file, put my changes on top, write that. */
static int merge(void *data, const char *path, const char *text, size_t len, struct strbuf *out,
		 struct kerr *e)
{
	struct merge *m = data;
	clear(m->now);
	int rc = parse(m->now, path, text, len, e);
	if (rc)
		return rc;
	size_t i = 0;
	const char *k;
	void *v;
	while (strmap_next(&m->mine->map, &i, &k, &v)) {
		const struct triage_entry *en = v;
		if (!en->changed)
			continue;
		triage_set(m->now, en->fingerprint, en->status,
			   en->note_changed ? (en->note ? en->note : "") : NULL, NULL);
		struct triage_entry *dst =
		    (struct triage_entry *)triage_get(m->now, en->fingerprint);
		replace(&dst->file, en->file);
		replace(&dst->flag, en->flag);
		replace(&dst->message, en->message);
	}
	serialise(m->now, out);
	return 0;
}

int triage_save(struct triage *t, const char *path, struct kerr *e)
{
	struct merge m = {t, triage_new()};
	int rc = state_update(path, merge, &m, e);
	if (rc >= 0) { /* t becomes the merged store, nothing pending */
		struct strmap tmp = t->map;
		t->map = m.now->map;
		m.now->map = tmp;
		size_t i = 0;
		const char *k;
		void *v;
		while (strmap_next(&t->map, &i, &k, &v))
			((struct triage_entry *)v)->changed = false;
	}
	triage_free(m.now);
	return rc;
}

void triage_apply(const struct triage *t, struct diag_set *s)
{
	if (!t->map.n)
		return;
	diag_set_fingerprints(s);
	for (size_t i = 0; i < diag_set_size(s); i++) {
		struct diag *d = diag_set_get(s, i);
		const struct triage_entry *en = triage_get(t, diag_fp(d));
		d->status = en ? en->status : TRIAGE_NEW;
		d->triage_note =
		    en && en->note ? diag_set_strndup(s, en->note, strlen(en->note)) : NULL;
	}
}
