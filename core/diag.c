/* The streaming build-log parser: a line-driven state machine that joins a
 * warning with its include chain, "In function" context, macro-expansion
 * notes, echoed source line and fix-it, and folds repeats as they come
 * (a raw set keyed on the paths as printed). On finish it detects the
 * compiler, the source root and the arch, normalises paths and merges into
 * the caller's set. Lines are (pointer, length): NULs and invalid UTF-8 are
 * data, never terminators. */
#include "core/diag.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/diaglex.h"
#include "core/diagnorm.h"
#include "core/diagparser.h"
#include "core/sarif.h"

#define MAX_LINE (8u << 20) /* longer lines are cut (the rest is dropped) */

static size_t pb_add(struct strbuf *b, const char *s, size_t n)
{
	size_t off = b->len;
	sb_grow(b, n + 1);
	char *d = b->buf + off;
	memcpy(d, s, n);
	d[n] = '\0';
	b->len += n + 1;
	return off;
}

/* Text of a log line (a message, an echoed source line): a NUL in it is
 * data, not its end. */
static size_t pb_raw(struct strbuf *b, const char *s, size_t n)
{
	size_t off = pb_add(b, s, n);
	char *d = b->buf + off;
	for (char *z = memchr(d, 0, n); z; z = memchr(z, 0, (size_t)(d + n - z)))
		*z = ' ';
	return off;
}

/* A message, part of a diagnostic's identity, normalised as it is kept
 * (lex_text), so a repeat is compared as read. The other texts are
 * normalised only when a diagnostic turns out to be new. */
static size_t pb_text(struct strbuf *b, const char *s, size_t n)
{
	size_t off = b->len;
	lex_text(s, n, b);
	b->len++; /* and its NUL */
	return off;
}

struct diag_parser *diag_parser_new(const struct diag_parser_opts *opts)
{
	struct diag_parser *p = xcalloc(1, sizeof(*p));
	if (opts)
		p->o = *opts;
	p->o.arch = p->o.arch ? xstrdup(p->o.arch) : NULL;
	p->o.src_root = p->o.src_root ? xstrdup(p->o.src_root) : NULL;
	p->o.build_dir = p->o.build_dir ? xstrdup(p->o.build_dir) : NULL;
	p->o.log_name = p->o.log_name ? xstrdup(p->o.log_name) : NULL;
	p->out = diag_set_new();
	if (p->o.src_root)
		p->root = xstrdup(p->o.src_root);
	else
		p->raw = diag_set_new();
	p->echo_note = NONE;
	return p;
}

void diag_parser_counts(const struct diag_parser *p, struct diag_counts *c)
{
	*c = p->counts;
}

static bool is_unit(const char *f)
{
	static const char *exts[] = {".c", ".S", ".s", ".cc", ".cpp", ".cxx", ".m", ".rs"};
	const char *dot = strrchr(f, '.');
	if (!dot)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++)
		if (!strcmp(dot, exts[i]))
			return true;
	return false;
}

static void commit(struct diag_parser *p)
{
	if (!p->have)
		return;
	p->have = false;
	struct diag d = {0};
	const struct strbuf *b = &p->pb;
	d.kind = p->kind;
	d.werror = p->werror;
	d.spell.file = pb_str(b, p->spell.file);
	d.spell.line = p->spell.line;
	d.spell.col = p->spell.col;
	d.loc = d.spell;
	d.source = pb_str(b, p->source);
	if (p->site_note != NONE) {
		const struct pnote *s = &p->notes[p->site_note];
		d.loc.file = pb_str(b, s->loc.file);
		d.loc.line = s->loc.line;
		d.loc.col = s->loc.col;
		d.source = pb_str(b, s->source);
	}
	d.flag = pb_str(b, p->flag);
	d.message = pb_str(b, p->msg);
	d.function = pb_str(b, p->func);
	d.fixit = pb_str(b, p->fixit);
	d.log = p->o.log_name;
	ALLOC_GROW(p->tmpnotes, p->nnotes, p->tmpcap);
	for (size_t i = 0; i < p->nnotes; i++) {
		const struct pnote *n = &p->notes[i];
		p->tmpnotes[i] = (struct diag_note){
		    .kind = n->kind,
		    .loc = {pb_str(b, n->loc.file), n->loc.line, n->loc.col},
		    .msg = pb_str(b, n->msg),
		    .macro = pb_str(b, n->macro),
		    .source = pb_str(b, n->source),
		};
	}
	d.notes = p->tmpnotes;
	d.nnotes = p->nnotes;
	d.nmacros = p->nmacros;
	ALLOC_GROW(p->tmpincs, p->nincs, p->tmpicap);
	for (size_t i = 0; i < p->nincs; i++)
		p->tmpincs[i] = (struct diag_loc){pb_str(b, p->incs[i].file), p->incs[i].line, 0};
	d.includes = p->tmpincs;
	d.nincludes = p->nincs;
	const char *tu = pb_str(b, p->tu);
	d.tus = &tu;
	d.ntus = tu ? 1 : 0;
	d.occurrences = 1;
	if (p->o.on_diag)
		p->o.on_diag(&d, p->o.ctx);
	p->hashed = d.message;
	parser_emit(p, &d, true);
	p->hashed = NULL;
}

/* The include chain printed before a diagnostic or note: hand it over
 * (translation unit first) and remember it as the current context. */
static void take_includes(struct diag_parser *p, const char *file, size_t filelen, bool attach)
{
	if (!p->nnext) {
		p->istate = I_NONE;
		return;
	}
	const char *outer = p->ib.buf + p->next[p->imulti ? p->nnext - 1 : 0].file;
	/* GCC may print a chain that stops at a header (it had printed the
	 * rest before): its unit is the one of the diagnostic before, if that
	 * was in this header, else the one its "In function" line names */
	if (!is_unit(outer) && !(p->sticky_file.len && !strcmp(p->sticky_file.buf, outer) &&
				 is_unit(sb_str(&p->sticky_tu)))) {
		bool ctx = p->ctx_fresh && is_unit(sb_str(&p->ctx_file));
		sb_reset(&p->sticky_tu);
		sb_adds(&p->sticky_tu, ctx ? p->ctx_file.buf : outer);
	} else if (is_unit(outer)) {
		sb_reset(&p->sticky_tu);
		sb_adds(&p->sticky_tu, outer);
	}
	sb_reset(&p->sticky_file);
	sb_add(&p->sticky_file, file, filelen);
	if (attach) {
		ALLOC_GROW(p->incs, p->nnext, p->icap);
		for (size_t i = 0; i < p->nnext; i++) {
			const struct ploc *l = &p->next[p->imulti ? p->nnext - 1 - i : i];
			const char *f = p->ib.buf + l->file;
			p->incs[i] = (struct ploc){pb_add(&p->pb, f, strlen(f)), l->line, 0};
		}
		p->nincs = p->nnext;
	}
	p->nnext = 0;
	sb_reset(&p->ib);
	p->istate = I_NONE;
}

static void start_diag(struct diag_parser *p, const struct lex_diag *l, enum diag_kind kind,
		       const char *flag, size_t flaglen)
{
	commit(p);
	p->have = true;
	sb_reset(&p->pb);
	p->nnotes = p->nmacros = p->nincs = 0;
	p->site_note = p->source = p->fixit = p->func = p->tu = p->flag = NONE;
	p->kind = kind;
	p->werror = l->werror;
	p->spell.file = pb_add(&p->pb, l->path, l->pathlen);
	p->spell.line = l->line;
	p->spell.col = l->col;
	p->msg = pb_text(&p->pb, l->msg, l->msglen);
	p->key_known = false;
	p->msg_len = p->pb.len - p->msg - 1;
	p->msg_hash = diag_hash(p->pb.buf + p->msg, p->msg_len, 0);
	if (flag)
		p->flag = pb_add(&p->pb, flag, flaglen);
	/* attached in a brief parse too: until the source root is decided,
	 * the chain's paths are evidence of it */
	take_includes(p, p->pb.buf + p->spell.file, l->pathlen, true);
	/* after take_includes: it adds to pb, which may move */
	const char *file = p->pb.buf + p->spell.file;
	if (p->nincs)
		p->tu = pb_add(&p->pb, p->sticky_tu.buf, p->sticky_tu.len);
	else if (l->line && p->sticky_file.len && !strcmp(p->sticky_file.buf, file))
		p->tu = pb_add(&p->pb, p->sticky_tu.buf, p->sticky_tu.len);
	else if (l->line && is_unit(file))
		p->tu = p->spell.file;
	/* the pb_add above may have moved pb again */
	if (p->ctx_func.len && !p->o.brief &&
	    !strcmp(sb_str(&p->ctx_file), p->pb.buf + p->spell.file))
		p->func = pb_raw(&p->pb, p->ctx_func.buf, p->ctx_func.len);
	p->ctx_fresh = false;
	if (kind == DIAG_ERROR)
		p->counts.errors++;
	else
		p->counts.warnings++;
	/* kernel-doc echoes only the comment line it could not read */
	p->echo = !l->line ? E_NONE : l->col || flag ? E_ECHO : E_KDOC;
	p->echo_note = NONE;
	if (p->gcc_votes < 1000 && memchr(l->msg, 0xe2, l->msglen))
		p->gcc_votes++;
	parser_prefetch(p);
}

static void add_note(struct diag_parser *p, const struct lex_diag *l)
{
	take_includes(p, l->path, l->pathlen, false);
	if (!p->have)
		return;
	const char *m = l->msg, *macro;
	size_t n = l->msglen, macrolen;
	enum diag_note_kind k = lex_note_kind(m, n, &macro, &macrolen);
	if (k == DIAG_NOTE_IN_EXPANSION || k == DIAG_NOTE_IN_DEFINITION)
		p->gcc_votes++;
	else if (k != DIAG_NOTE_PLAIN)
		p->clang_votes++;
	ALLOC_GROW(p->notes, p->nnotes + 1, p->ncap);
	struct pnote *note = &p->notes[p->nnotes];
	note->kind = k;
	note->loc = (struct ploc){pb_add(&p->pb, l->path, l->pathlen), l->line, l->col};
	note->source = note->msg = note->macro = NONE;
	if (!p->o.brief) {
		note->msg = pb_raw(&p->pb, m, n);
		note->macro = macro ? pb_raw(&p->pb, macro, macrolen) : NONE;
	}
	if (k != DIAG_NOTE_PLAIN && p->nmacros == p->nnotes) {
		p->nmacros++;
		if (k == DIAG_NOTE_IN_EXPANSION) {
			p->site_note = p->nnotes;
			parser_prefetch(p);
		}
	}
	p->nnotes++;
	p->echo = l->line ? E_ECHO : E_NONE;
	p->echo_note = p->nnotes - 1;
}

static void set_echo(struct diag_parser *p, const char *s, size_t n)
{
	/* brief: only the site's source line is kept */
	if (p->o.brief && p->echo_note != NONE && p->echo_note != p->site_note)
		return;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	size_t off = pb_raw(&p->pb, s, n);
	if (p->echo_note == NONE)
		p->source = off;
	else
		p->notes[p->echo_note].source = off;
}

static void echo_line(struct diag_parser *p, const char *s, size_t n)
{
	const char *t;
	size_t tl;
	switch (p->echo) {
	case E_NONE:
		return;
	case E_KDOC:
		if (n > 2 && s[0] == ' ' && s[1] == '*')
			set_echo(p, s, n);
		p->echo = E_NONE;
		return;
	case E_ECHO:
		if (!p->have || lex_is_generated(s, n)) {
			p->echo = E_NONE;
		} else if (lex_gcc_box(s, n, &t, &tl)) {
			p->gcc_votes++;
			if (t)
				set_echo(p, t, tl);
			p->echo = E_GCC_BOX;
		} else if (lex_is_caret(s, n)) {
			p->echo = E_CLANG_FIXIT;
		} else {
			set_echo(p, s, n);
			p->echo = E_CLANG_CARET;
		}
		return;
	case E_GCC_BOX:
		if (!lex_gcc_box(s, n, &t, &tl))
			p->echo = E_NONE;
		return;
	case E_CLANG_CARET:
		if (lex_is_caret(s, n)) {
			p->clang_votes++;
			p->echo = E_CLANG_FIXIT;
		} else {
			p->echo = E_NONE;
		}
		return;
	case E_CLANG_FIXIT:
		if (p->have && p->echo_note == NONE && n && !lex_is_generated(s, n) &&
		    p->fixit == NONE)
			p->fixit = pb_raw(&p->pb, s, n);
		p->echo = E_NONE;
		return;
	}
}

/* "In file included from a.c:1," (gcc, then "from b.h:2:" lines) or one
 * "In file included from a.c:1:" per level (clang). */
static void include_line(struct diag_parser *p, const char *s, size_t n, bool cont)
{
	const char *path;
	size_t pl;
	unsigned line;
	if (!lex_path_line(s, n, &path, &pl, &line))
		return;
	if (!cont && p->istate != I_CLANG) {
		p->nnext = 0;
		sb_reset(&p->ib);
		p->imulti = false;
	}
	if (cont)
		p->imulti = true;
	ALLOC_GROW(p->next, p->nnext + 1, p->nextcap);
	p->next[p->nnext++] = (struct ploc){pb_add(&p->ib, path, pl), line, 0};
	p->istate = s[n - 1] == ',' ? I_GCC : I_CLANG;
	if (p->istate == I_GCC)
		p->gcc_votes++;
	p->echo = E_NONE;
}

static void context_line(struct diag_parser *p, const struct lex_diag *l)
{
	sb_reset(&p->ctx_file);
	sb_add(&p->ctx_file, l->path, l->pathlen);
	sb_reset(&p->ctx_func);
	p->ctx_fresh = true;
	if (l->func) {
		sb_add(&p->ctx_func, l->func, l->funclen);
		p->gcc_votes++;
	}
	p->echo = E_NONE;
}

/* "ld: warning: ...", "vmlinux.o: warning: objtool: ...", "cc1: error: ..." */
static void tool_line(struct diag_parser *p, struct lex_diag *l, enum diag_kind kind)
{
	const char *tool = l->path;
	size_t tl = l->pathlen;
	const char *base = tool;
	for (size_t i = 0; i < tl; i++)
		if (tool[i] == '/')
			base = tool + i + 1;
	size_t bl = (size_t)(tool + tl - base);
	const char *flag = l->flag;
	size_t flaglen = l->flaglen;
	if (l->msglen > 9 && !memcmp(l->msg, "objtool: ", 9)) {
		flag = "objtool", flaglen = 7;
		l->msg += 9, l->msglen -= 9;
	} else if ((bl >= 2 && !memcmp(base + bl - 2, "ld", 2)) ||
		   (bl >= 3 && memmem(base, bl, "ld.", 3)) ||
		   (bl == 3 && !memcmp(base, "lld", 3))) {
		if (memmem(base, bl, "lld", 3))
			p->clang_votes++;
		flag = "ld", flaglen = 2;
		l->pathlen = 0;
	} else if ((bl >= 3 && !memcmp(base, "cc1", 3)) || memmem(base, bl, "gcc", 3) ||
		   memmem(base, bl, "clang", 5)) {
		l->pathlen = 0;
	}
	start_diag(p, l, kind, flag, flaglen);
}

static bool special_line(struct diag_parser *p, const char *s, size_t n)
{
	struct lex_diag l = {0};
	if (n > 17 &&
	    (!memcmp(s, "WARNING: modpost: ", 18) || !memcmp(s, "ERROR: modpost: ", 16))) {
		bool err = s[0] == 'E';
		l.msg = s + (err ? 16 : 18);
		l.msglen = n - (err ? 16 : 18);
		l.path = "";
		/* "vmlinux.o: section mismatch ..." names the object first */
		const char *c = memchr(l.msg, ':', l.msglen);
		const char *sp = memchr(l.msg, ' ', l.msglen);
		if (c && (!sp || c < sp) && c > l.msg && c[-1] == 'o' &&
		    (size_t)(c - l.msg) + 2 <= l.msglen) {
			l.path = l.msg;
			l.pathlen = (size_t)(c - l.msg);
			l.msglen -= l.pathlen + 2;
			l.msg = c + 2;
		}
		start_diag(p, &l, err ? DIAG_ERROR : DIAG_WARNING, "modpost", 7);
		p->echo = E_NONE;
	} else if (n > 48 && !memcmp(s, "WARNING: unmet direct dependencies detected for ", 48)) {
		/* Kconfig's, followed by indented "Depends on" lines */
		l.msg = s + 9;
		l.msglen = n - 9;
		l.path = "";
		start_diag(p, &l, DIAG_WARNING, "kconfig", 7);
		p->echo = E_NONE;
	} else if (n > 8 && !memcmp(s, "make", 4) && memmem(s, n, ": *** ", 6)) {
		const char *m = memmem(s, n, ": *** ", 6) + 6;
		l.msg = m;
		l.msglen = n - (size_t)(m - s);
		l.path = "";
		/* [path:line: target] Error N */
		if (*m == '[' && lex_path_line(m + 1, l.msglen - 1, &l.path, &l.pathlen, &l.line)) {
		} else {
			l.path = "", l.pathlen = 0, l.line = 0;
		}
		if (!memmem(m, l.msglen, "Waiting for unfinished jobs", 27))
			start_diag(p, &l, DIAG_ERROR, "make", 4);
		p->echo = E_NONE;
	} else if (n > 30 && !memcmp(s, "make", 4) && memmem(s, n, ": Entering directory ", 21)) {
		const char *q = memmem(s, n, ": Entering directory ", 21) + 21;
		size_t ql = n - (size_t)(q - s);
		bool seen = ql <= 2;
		for (size_t i = 0; i < p->ndirs && !seen; i++)
			seen = strlen(p->dirs[i]) == ql - 2 && !memcmp(p->dirs[i], q + 1, ql - 2);
		if (!seen) {
			ALLOC_GROW(p->dirs, p->ndirs + 1, p->dcap);
			p->dirs[p->ndirs++] = xstrndup(q + 1, ql - 2);
		}
	} else if (n > 4 && !memcmp(s, ">>> ", 4) && p->have && p->kind == DIAG_ERROR) {
		l.path = "";
		l.msg = s + 4;
		l.msglen = n - 4;
		size_t nm = p->nmacros;
		add_note(p, &l);
		p->notes[p->nnotes - 1].kind = DIAG_NOTE_REFERENCE;
		p->nmacros = nm;
		p->echo = E_NONE;
	} else if (n > 8 && !memcmp(s, "fix-it:\"", 8) && p->have && p->fixit == NONE) {
		p->fixit = pb_raw(&p->pb, s + 7, n - 7);
	} else if (n > 2 && s[0] == '[' && s[1] == '{') {
		commit(p);
		diag_gcc_json_line(p, s, n);
	} else {
		return false;
	}
	return true;
}

static bool line_structured(struct diag_parser *p, const char *s, size_t n)
{
	struct lex_diag l;
	if (s[0] == 'I' && n > 22 && !memcmp(s, "In file included from ", 22)) {
		include_line(p, s + 22, n - 22, false);
		return true;
	}
	if (s[0] >= '0' && s[0] <= '9' && lex_is_generated(s, n)) {
		p->clang_votes++;
		p->echo = E_NONE;
		return true;
	}
	if (!lex_diag_line(s, n, &l))
		return special_line(p, s, n);
	switch (l.kind) {
	case LEX_CONTEXT:
		context_line(p, &l);
		return true;
	case LEX_NOTE:
		add_note(p, &l);
		return true;
	case LEX_AS_WARNING:
	case LEX_AS_ERROR:
		start_diag(p, &l, l.kind == LEX_AS_ERROR ? DIAG_ERROR : DIAG_WARNING, "as", 2);
		return true;
	case LEX_LD_ERROR:
		start_diag(p, &l, DIAG_ERROR, "ld", 2);
		p->echo = E_NONE;
		return true;
	case LEX_KCONFIG_WARNING:
	case LEX_KCONFIG_ERROR:
		/* a line of the generated .config means nothing to the reader
		 * and differs between compilers' configs: matched by message */
		if (l.pathlen >= 7 && !memcmp(l.path + l.pathlen - 7, ".config", 7) &&
		    (l.pathlen == 7 || l.path[l.pathlen - 8] == '/'))
			l.line = 0;
		start_diag(p, &l, l.kind == LEX_KCONFIG_ERROR ? DIAG_ERROR : DIAG_WARNING,
			   "kconfig", 7);
		p->echo = E_NONE;
		return true;
	default:
		break;
	}
	enum diag_kind kind = l.kind == LEX_ERROR ? DIAG_ERROR : DIAG_WARNING;
	lex_split_flag(&l);
	const char *flag = l.flag;
	size_t flaglen = l.flaglen;
	char fbuf[256];
	if (flag && flag[0] == '=') {
		/* -Werror=foo: report it as -Wfoo */
		flaglen = flaglen < sizeof(fbuf) - 2 ? flaglen : sizeof(fbuf) - 3;
		fbuf[0] = '-', fbuf[1] = 'W';
		memcpy(fbuf + 2, flag + 1, flaglen - 1);
		flaglen += 1;
		flag = fbuf;
		p->gcc_votes++;
	} else if (l.werror && flag) {
		p->clang_votes++;
	}
	if (!l.line) {
		tool_line(p, &l, kind);
		return true;
	}
	if (!flag && !l.col && kind == DIAG_WARNING)
		flag = "kernel-doc", flaglen = 10;
	start_diag(p, &l, kind, flag, flaglen);
	return true;
}

/* One line, by its first byte: lines that start with a blank matter only
 * right after a diagnostic (echo, caret, fix-it) or inside gcc's include
 * chain, so most of a log (Kbuild's progress, source boxes) is skipped at
 * once. Colours, carriage returns and NULs are cleaned only where a line
 * would otherwise not parse. */
static void dispatch(struct diag_parser *p, const char *s, size_t n, bool cleaned)
{
	unsigned char c = (unsigned char)s[0];
	if (c == ' ' || c == '\t') {
		if ((p->echo == E_NONE && p->istate != I_GCC) || lex_is_progress(s, n))
			return;
		if (p->istate == I_GCC) {
			size_t i = 0;
			while (i < n && s[i] == ' ')
				i++;
			if (n - i > 5 && !memcmp(s + i, "from ", 5)) {
				include_line(p, s + i + 5, n - i - 5, true);
				return;
			}
		}
		echo_line(p, s, n);
		return;
	}
	if (!cleaned && (c < 0x20 || c == 0x7f))
		goto clean;
	if (c == '^' || c == '~') { /* a caret line */
		echo_line(p, s, n);
		return;
	}
	if ((c >= '0' && c <= '9') || c == 'B' || c == '[') {
		size_t k = lex_prefix_len(s, n);
		if (k) {
			if (k < n)
				dispatch(p, s + k, n - k, cleaned);
			return;
		}
	}
	if (line_structured(p, s, n))
		return;
	/* a line that does not parse may hide a diagnostic behind colours or a
	 * carriage return; right after a diagnostic it is its source line */
	if (!cleaned && p->echo == E_NONE && lex_needs_clean(s, n))
		goto clean;
	echo_line(p, s, n);
	return;
clean:
	lex_clean(s, n, &p->clean);
	if (p->clean.len)
		dispatch(p, p->clean.buf, p->clean.len, true);
}

static void process_line(struct diag_parser *p, const char *s, size_t n)
{
	if (!n)
		return;
	p->counts.lines++;
	dispatch(p, s, n, false);
}

static inline void line_at(struct diag_parser *p, const char *start, const char *nl)
{
	size_t n = (size_t)(nl - start);
	process_line(p, start, n < MAX_LINE ? n : MAX_LINE);
}

/* A line ends at a newline or a carriage return: "progress\rfile.c:1:2:
 * warning: ..." holds two lines, as a terminal shows them. */
static const char *find_eol(const char *s, size_t n)
{
	const char *nl = memchr(s, '\n', n);
	const char *cr = memchr(s, '\r', nl ? (size_t)(nl - s) : n);
	return cr ? cr : nl;
}

/* Process the complete lines of [buf, end); returns the start of the
 * unfinished last one. With SSE2 the newlines of 64 bytes are found at once
 * (most lines are short, so a memchr call per line costs more than the scan). */
static const char *split_lines(struct diag_parser *p, const char *buf, const char *end)
{
	const char *start = buf;
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
	const char *s = buf;
	for (; end - s >= 64; s += 64) {
		uint64_t m = 0;
		for (int k = 0; k < 4; k++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * k));
			__m128i eol = _mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr));
			m |= (uint64_t)(uint32_t)_mm_movemask_epi8(eol) << (16 * k);
		}
		while (m) {
			const char *at = s + __builtin_ctzll(m);
			line_at(p, start, at);
			start = at + 1;
			m &= m - 1;
		}
	}
	buf = s;
#endif
	for (;;) {
		const char *at = find_eol(buf, (size_t)(end - buf));
		if (!at)
			return start;
		line_at(p, start, at);
		start = buf = at + 1;
	}
}

void diag_parser_feed(struct diag_parser *p, const char *buf, size_t len)
{
	const char *end = buf + len;
	if (p->part.len || p->part_over) {
		const char *nl = find_eol(buf, len);
		size_t take = nl ? (size_t)(nl - buf) : len;
		if (p->part.len + take > MAX_LINE) {
			take = p->part.len < MAX_LINE ? MAX_LINE - p->part.len : 0;
			p->part_over = true;
		}
		sb_add(&p->part, buf, take);
		if (!nl)
			return;
		process_line(p, p->part.buf, p->part.len);
		sb_reset(&p->part);
		p->part_over = false;
		buf = nl + 1;
	}
	buf = split_lines(p, buf, end);
	if (buf < end) {
		size_t take = (size_t)(end - buf);
		if (take > MAX_LINE) {
			take = MAX_LINE;
			p->part_over = true;
		}
		sb_add(&p->part, buf, take);
	}
}

void diag_parser_add(struct diag_parser *p, const struct diag *d)
{
	commit(p);
	if (d->kind == DIAG_ERROR)
		p->counts.errors++;
	else
		p->counts.warnings++;
	parser_emit(p, d, false);
}

void diag_parser_vote(struct diag_parser *p, enum diag_cc cc)
{
	if (cc == DIAG_CC_GCC)
		p->gcc_votes += 100;
	else if (cc == DIAG_CC_CLANG)
		p->clang_votes += 100;
}

static void parser_free(struct diag_parser *p)
{
	diag_set_free(p->raw);
	diag_set_free(p->out);
	free(p->root);
	strmap_free(&p->paths);
	for (size_t i = 0; i < RECENT; i++) {
		sb_free(&p->recent[i].raw);
		sb_free(&p->recent_flags[i].raw);
	}
	strmap_free(&p->flags);
	sb_free(&p->mb);
	sb_free(&p->tb);
	free(p->nnotes_buf);
	free(p->lens);
	free(p->txts);
	free(p->nincs_buf);
	free(p->ntus_buf);
	sb_free(&p->part);
	sb_free(&p->clean);
	sb_free(&p->pb);
	sb_free(&p->ib);
	sb_free(&p->sticky_file);
	sb_free(&p->sticky_tu);
	sb_free(&p->ctx_file);
	sb_free(&p->ctx_func);
	free(p->notes);
	free(p->incs);
	free(p->next);
	free(p->tmpnotes);
	free(p->tmpincs);
	for (size_t i = 0; i < p->ndirs; i++)
		free(p->dirs[i]);
	free(p->dirs);
	free((char *)p->o.arch);
	free((char *)p->o.src_root);
	free((char *)p->o.build_dir);
	free((char *)p->o.log_name);
	free(p);
}

enum diag_cc diag_parser_finish(struct diag_parser *p, struct diag_set *into)
{
	if (p->part.len)
		process_line(p, p->part.buf, p->part.len);
	commit(p);
	parser_decide_root(p);
	enum diag_cc cc = p->o.cc;
	if (cc == DIAG_CC_UNKNOWN && (p->gcc_votes || p->clang_votes))
		cc = p->gcc_votes >= p->clang_votes ? DIAG_CC_GCC : DIAG_CC_CLANG;
	char *arch = p->o.arch ? xstrdup(p->o.arch) : diagnorm_arch(p->out);
	diag_set_relabel(p->out, cc, arch ? arch : "");
	free(arch);
	if (into)
		diag_set_merge(into, p->out);
	parser_free(p);
	return cc;
}
