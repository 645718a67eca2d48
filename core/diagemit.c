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

void parser_decide_root(struct diag_parser *p)
{
	if (!p->raw)
		return;
	size_t nb;
	const char *const *b = build_dirs(p, &nb);
	p->root = diagnorm_root(p->raw, b, nb);
	diag_normalize_into(p->raw, p->out, p->root, b, nb);
	diag_set_free(p->raw);
	p->raw = NULL;
}

static const char *npath(struct diag_parser *p, const char *raw)
{
	if (!raw)
		return NULL;
	/* warnings come in runs from one file */
	if (p->last_raw.len && !strcmp(p->last_raw.buf, raw))
		return p->last_norm;
	const char *v = strmap_get(&p->paths, raw);
	if (!v) {
		size_t nb;
		const char *const *b = build_dirs(p, &nb);
		v = diagnorm_path(p->out, raw, p->root, b, nb);
		strmap_put(&p->paths, raw, (void *)v);
	}
	sb_reset(&p->last_raw);
	sb_adds(&p->last_raw, raw);
	return p->last_norm = v;
}

static const char *nflag(struct diag_parser *p, const char *raw)
{
	const char *v = strmap_get(&p->flags, raw ? raw : "");
	if (!v) {
		struct strbuf sb = STRBUF_INIT;
		lex_text(raw ? raw : "", raw ? strlen(raw) : 0, &sb);
		v = diag_set_intern(p->out, sb_str(&sb), sb.len);
		sb_free(&sb);
		strmap_put(&p->flags, raw ? raw : "", (void *)v);
	}
	return v;
}

static size_t tb_text(struct strbuf *b, const char *s)
{
	if (!s)
		return NONE;
	size_t off = b->len;
	lex_text(s, strlen(s), b);
	sb_addc(b, '\0');
	return off;
}

/* Texts of structured input normalised (into the parser's scratch) as the
 * parser normalises what it reads. */
static const struct diag *clean_texts(struct diag_parser *p, const struct diag *r, struct diag *c)
{
	struct strbuf *tb = &p->tb;
	sb_reset(tb);
	size_t om = tb_text(tb, r->message ? r->message : ""), of = tb_text(tb, r->function),
	       os = tb_text(tb, r->source), ox = tb_text(tb, r->fixit);
	ALLOC_GROW(p->offs, 3 * r->nnotes + 1, p->offs_cap);
	size_t *offs = p->offs;
	for (size_t i = 0; i < r->nnotes; i++) {
		offs[3 * i] = tb_text(tb, r->notes[i].msg);
		offs[3 * i + 1] = tb_text(tb, r->notes[i].macro);
		offs[3 * i + 2] = tb_text(tb, r->notes[i].source);
	}
	*c = *r;
	c->message = pb_str(tb, om);
	c->function = pb_str(tb, of);
	c->source = pb_str(tb, os);
	c->fixit = pb_str(tb, ox);
	ALLOC_GROW(p->cnotes_buf, r->nnotes + 1, p->cnotes_cap);
	for (size_t i = 0; i < r->nnotes; i++) {
		p->cnotes_buf[i] = r->notes[i];
		p->cnotes_buf[i].msg = pb_str(tb, offs[3 * i]);
		p->cnotes_buf[i].macro = pb_str(tb, offs[3 * i + 1]);
		p->cnotes_buf[i].source = pb_str(tb, offs[3 * i + 2]);
	}
	c->notes = p->cnotes_buf;
	return c;
}

static const char *intern0(struct diag_parser *p, const char *s)
{
	return s ? diag_set_intern(p->out, s, strlen(s)) : NULL;
}

/* A diagnostic with paths as printed and normalised texts, into the
 * normalised set: a repeat costs a path lookup and a hash probe; only a new
 * one has its notes and chains normalised and copied. */
static void emit_norm(struct diag_parser *p, const struct diag *r)
{
	struct diag d = *r;
	d.cc = DIAG_CC_UNKNOWN;
	d.arch = diag_set_intern(p->out, "", 0);
	d.spell.file = npath(p, r->spell.file ? r->spell.file : "");
	d.loc.file =
	    r->loc.file == r->spell.file ? d.spell.file : npath(p, r->loc.file ? r->loc.file : "");
	d.flag = nflag(p, r->flag);
	d.message = r->message ? r->message : "";
	const char *tus[1] = {!r->ntus			   ? NULL
			      : r->tus[0] == r->spell.file ? d.spell.file
							   : npath(p, r->tus[0])};
	uint64_t h;
	struct diag *e = diag_set_find(p->out, &d, &h);
	if (e) {
		diag_set_bump(p->out, e, d.kind, d.occurrences, tus, tus[0] ? 1 : 0);
		return;
	}
	d.function = intern0(p, r->function);
	d.log = intern0(p, r->log);
	ALLOC_GROW(p->nnotes_buf, r->nnotes + 1, p->nnotes_cap);
	for (size_t i = 0; i < r->nnotes; i++) {
		struct diag_note *n = &p->nnotes_buf[i];
		*n = r->notes[i];
		n->loc.file = npath(p, r->notes[i].loc.file ? r->notes[i].loc.file : "");
		n->macro = intern0(p, r->notes[i].macro);
	}
	d.notes = p->nnotes_buf;
	ALLOC_GROW(p->nincs_buf, r->nincludes + 1, p->nincs_cap);
	for (size_t i = 0; i < r->nincludes; i++) {
		p->nincs_buf[i] = r->includes[i];
		p->nincs_buf[i].file = npath(p, r->includes[i].file);
	}
	d.includes = p->nincs_buf;
	d.tus = tus;
	d.ntus = tus[0] ? 1 : 0;
	diag_set_insert(p->out, &d, h);
}

void parser_emit(struct diag_parser *p, const struct diag *in, bool clean)
{
	struct diag c;
	if (!clean)
		in = clean_texts(p, in, &c);
	struct diag d = *in;
	d.cc = DIAG_CC_UNKNOWN; /* both are known on finish */
	d.arch = NULL;
	if (!p->raw) {
		emit_norm(p, &d);
		return;
	}
	diag_set_add(p->raw, &d);
	if (diag_set_size(p->raw) >= ROOT_AFTER)
		parser_decide_root(p);
}
