/* From the parser to the normalised set. Until the source root is known
 * (ROOT_AFTER distinct diagnostics, or the end of the log) diagnostics wait
 * in a raw set with their paths as printed; then they go straight to the
 * parser's set through a path cache, a repeat costing one lookup. */
#include <stdlib.h>
#include <string.h>

#include "core/diagnorm.h"
#include "core/diagparser.h"

static const char *const *build_dirs(const struct diag_parser *p, size_t *n)
{
	*n = p->o.build_dir ? 1 : p->ndirs;
	return p->o.build_dir ? &p->o.build_dir : (const char *const *)p->dirs;
}

/* The few strings normalised last, compared by length first. */
static const char *recent_get(const struct recent *r, const char *raw, size_t len)
{
	for (size_t i = 0; i < RECENT; i++)
		if (r[i].raw.len == len && r[i].raw.buf && !memcmp(r[i].raw.buf, raw, len))
			return r[i].norm;
	return NULL;
}

static const char *recent_put(struct recent *r, unsigned *next, const char *raw, size_t len,
			      const char *norm)
{
	struct recent *e = &r[(*next)++ % RECENT];
	sb_reset(&e->raw);
	sb_add(&e->raw, raw, len);
	return e->norm = norm;
}

static const char *npath(struct diag_parser *p, const char *raw)
{
	if (!raw)
		return NULL;
	size_t len = strlen(raw);
	const char *v = recent_get(p->recent, raw, len);
	if (v)
		return v;
	v = strmap_get(&p->paths, raw);
	if (!v) {
		size_t nb;
		const char *const *b = build_dirs(p, &nb);
		v = diagnorm_path(p->out, raw, p->root, b, nb);
		strmap_put(&p->paths, raw, (void *)v);
	}
	return recent_put(p->recent, &p->recent_next, raw, len, v);
}

static const char *nflag(struct diag_parser *p, const char *raw)
{
	raw = raw ? raw : "";
	size_t len = strlen(raw);
	const char *v = recent_get(p->recent_flags, raw, len);
	if (v)
		return v;
	v = strmap_get(&p->flags, raw);
	if (!v) {
		struct strbuf sb = STRBUF_INIT;
		lex_text(raw, len, &sb);
		v = diag_set_intern(p->out, sb_str(&sb), sb.len);
		sb_free(&sb);
		strmap_put(&p->flags, raw, (void *)v);
	}
	return recent_put(p->recent_flags, &p->recent_flags_next, raw, len, v);
}

/* Texts of a new diagnostic normalised: those lex_text would change go
 * through it into the scratch buffer (sized first, so it does not move),
 * the others are taken as they are. */
static void clean_texts(struct diag_parser *p, const char **t, size_t n)
{
	ALLOC_GROW(p->lens, n, p->lens_cap);
	size_t *len = p->lens, total = 0;
	for (size_t i = 0; i < n; i++) {
		if (!t[i])
			continue;
		len[i] = strlen(t[i]);
		if (lex_text_clean(t[i], len[i]))
			len[i] = NONE;
		else
			total += 3 * len[i] + 1;
	}
	struct strbuf *tb = &p->tb;
	sb_reset(tb);
	sb_grow(tb, total);
	for (size_t i = 0; i < n; i++) {
		if (!t[i] || len[i] == NONE)
			continue;
		size_t off = tb->len;
		lex_text(t[i], len[i], tb);
		tb->len++; /* and its NUL */
		t[i] = tb->buf + off;
	}
}

static const char *intern0(struct diag_parser *p, const char *s)
{
	return s ? diag_set_intern(p->out, s, strlen(s)) : NULL;
}

/* A diagnostic with paths as printed and its message normalised, into the
 * normalised set: a repeat costs a path lookup and a hash probe; only a
 * new one has its other texts, notes and chains normalised and copied. */
static void emit_norm(struct diag_parser *p, const struct diag *r)
{
	struct diag d = *r;
	/* the parser's pending diagnostic: its key was worked out to prefetch */
	bool pending = r->message == p->hashed && p->key_known;
	d.cc = DIAG_CC_UNKNOWN;
	if (!p->no_arch)
		p->no_arch = diag_set_intern(p->out, "", 0);
	d.arch = p->no_arch;
	if (pending) {
		d.spell.file = p->key.spell.file;
		d.loc.file = p->key.loc.file;
		d.flag = p->key.flag;
	} else {
		d.spell.file = npath(p, r->spell.file ? r->spell.file : "");
		d.loc.file = r->loc.file == r->spell.file
				 ? d.spell.file
				 : npath(p, r->loc.file ? r->loc.file : "");
		d.flag = nflag(p, r->flag);
	}
	d.message = r->message ? r->message : "";
	/* brief: no units, notes, include chain, function or fix-it */
	bool brief = p->o.brief;
	d.ntus = brief ? 0 : r->ntus;
	d.nnotes = brief ? 0 : r->nnotes;
	d.nmacros = brief ? 0 : r->nmacros;
	d.nincludes = brief ? 0 : r->nincludes;
	/* one unit as read, all a raw entry gathered */
	ALLOC_GROW(p->ntus_buf, d.ntus + 1, p->ntus_cap);
	const char **tus = p->ntus_buf;
	for (size_t i = 0; i < d.ntus; i++)
		tus[i] = r->tus[i] == r->spell.file ? d.spell.file : npath(p, r->tus[i]);
	uint64_t h = p->key_hash;
	struct diag *e = pending ? diag_set_find_hashed(p->out, &d, p->msg_len, p->msg_hash, h)
				 : diag_set_find(p->out, &d, &h);
	if (e) {
		diag_set_bump(p->out, e, d.kind, d.occurrences, tus, d.ntus);
		return;
	}
	/* function, source, fix-it, then each note's message, macro, source */
	ALLOC_GROW(p->txts, 3 * d.nnotes + 3, p->txts_cap);
	const char **t = p->txts;
	t[0] = brief ? NULL : r->function, t[1] = r->source, t[2] = brief ? NULL : r->fixit;
	for (size_t i = 0; i < d.nnotes; i++) {
		t[3 + 3 * i] = r->notes[i].msg;
		t[4 + 3 * i] = r->notes[i].macro;
		t[5 + 3 * i] = r->notes[i].source;
	}
	clean_texts(p, t, 3 * d.nnotes + 3);
	d.function = intern0(p, t[0]);
	if (!r->log || !p->log_norm || strcmp(r->log, p->log_norm)) /* one log at a time */
		p->log_norm = intern0(p, r->log);
	d.log = p->log_norm;
	d.source = t[1];
	d.fixit = t[2];
	ALLOC_GROW(p->nnotes_buf, d.nnotes + 1, p->nnotes_cap);
	for (size_t i = 0; i < d.nnotes; i++) {
		struct diag_note *n = &p->nnotes_buf[i];
		*n = r->notes[i];
		n->loc.file = npath(p, r->notes[i].loc.file ? r->notes[i].loc.file : "");
		/* family, group and subgroup come later */
		n->msg = t[3 + 3 * i];
		n->macro = intern0(p, t[4 + 3 * i]);
		n->source = t[5 + 3 * i];
	}
	d.notes = p->nnotes_buf;
	ALLOC_GROW(p->nincs_buf, d.nincludes + 1, p->nincs_cap);
	for (size_t i = 0; i < d.nincludes; i++) {
		p->nincs_buf[i] = r->includes[i];
		p->nincs_buf[i].file = npath(p, r->includes[i].file);
	}
	d.includes = p->nincs_buf;
	d.tus = tus;
	diag_set_insert(p->out, &d, h);
}

void parser_prefetch(struct diag_parser *p)
{
	if (p->raw)
		return;
	const struct strbuf *b = &p->pb;
	struct diag *k = &p->key;
	k->spell.file = npath(p, b->buf + p->spell.file);
	k->spell.line = p->spell.line;
	k->spell.col = p->spell.col;
	k->loc = k->spell;
	if (p->site_note != NONE) {
		const struct pnote *s = &p->notes[p->site_note];
		k->loc.file = npath(p, b->buf + s->loc.file);
		k->loc.line = s->loc.line;
		k->loc.col = s->loc.col;
	}
	k->flag = nflag(p, pb_str(b, p->flag));
	p->key_hash = diag_key_hash(k, p->msg_hash);
	p->key_known = true;
	diag_set_prefetch(p->out, p->key_hash);
}

/* Decide the source root from the raw set, then put what it holds into the
 * normalised set the way every later diagnostic goes. */
void parser_decide_root(struct diag_parser *p)
{
	if (!p->raw)
		return;
	size_t nb;
	const char *const *b = build_dirs(p, &nb);
	p->root = diagnorm_root(p->raw, b, nb);
	struct diag_set *raw = p->raw;
	p->raw = NULL;
	for (size_t i = 0; i < diag_set_size(raw); i++)
		emit_norm(p, diag_set_get(raw, i));
	diag_set_free(raw);
}

void parser_emit(struct diag_parser *p, const struct diag *in, bool clean)
{
	struct diag d = *in;
	d.cc = DIAG_CC_UNKNOWN; /* both are known on finish */
	d.arch = NULL;
	if (!clean) {
		sb_reset(&p->mb);
		lex_text(in->message ? in->message : "", in->message ? strlen(in->message) : 0,
			 &p->mb);
		d.message = p->mb.buf;
	}
	if (!p->raw) {
		emit_norm(p, &d);
		return;
	}
	diag_set_add(p->raw, &d);
	if (diag_set_size(p->raw) >= ROOT_AFTER)
		parser_decide_root(p);
}
