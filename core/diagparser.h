/* The parser's state, shared by core/diag.c (reading lines) and
 * core/diagemit.c (putting what was read into the normalised set). Not for
 * other modules: they use core/diag.h. */
#ifndef KLANG_CORE_DIAGPARSER_H
#define KLANG_CORE_DIAGPARSER_H

#include "core/diag.h"
#include "core/diaglex.h"
#include "core/strmap.h"

#define ROOT_AFTER 64 /* distinct diagnostics read before the source root is decided */
#define NONE ((size_t)-1)
#define RECENT 4 /* strings normalised last, kept to skip a lookup */

struct ploc {
	size_t file; /* offset in the pending buffer */
	unsigned line, col;
};

struct pnote {
	enum diag_note_kind kind;
	struct ploc loc;
	size_t msg, macro, source;
};

enum echo_state { E_NONE, E_ECHO, E_KDOC, E_GCC_BOX, E_CLANG_CARET, E_CLANG_FIXIT };
enum inc_state { I_NONE, I_GCC, I_CLANG };

struct diag_parser {
	struct diag_parser_opts o;
	/* Diagnostics go to `raw` (paths as printed) until the source root is
	 * known, then straight to `out` through the path cache. */
	struct diag_set *raw, *out;
	char *root;
	struct strmap paths, flags; /* as printed -> normalised, interned in out */
	/* the last paths and flags normalised: a diagnostic's file and its
	 * macro site, the unit and its headers, a few flags alternate */
	struct recent {
		struct strbuf raw;
		const char *norm;
	} recent[RECENT], recent_flags[RECENT];
	unsigned recent_next, recent_flags_next;
	const char *log_norm; /* the last log name, interned in out */
	const char *no_arch;  /* "" interned in out: the arch until finish */
	struct strbuf mb, tb; /* cleaned text */
	struct diag_note *nnotes_buf;
	size_t nnotes_cap;
	size_t *lens; /* scratch: lengths of a new diagnostic's texts */
	size_t lens_cap;
	const char **txts;
	size_t txts_cap;
	struct diag_loc *nincs_buf;
	size_t nincs_cap;
	const char **ntus_buf;
	size_t ntus_cap;
	struct strbuf part, clean;
	bool part_over;
	struct diag_counts counts;

	/* the pending diagnostic: strings in pb, committed on the next one */
	bool have;
	struct lex_diag cur;
	enum diag_kind kind;
	bool werror;
	struct ploc spell;
	size_t flag, msg, func, source, fixit, tu;
	/* the message's length and hash (diag_hash), worked out once: for the
	 * prefetch, the lookup and the intern; `hashed` while committed */
	size_t msg_len;
	uint64_t msg_hash;
	const char *hashed;
	/* its key normalised, as last prefetched (parser_prefetch) */
	struct diag key;
	uint64_t key_hash;
	bool key_known;
	struct strbuf pb;
	struct pnote *notes;
	size_t nnotes, ncap, nmacros, site_note;
	struct ploc *incs;
	size_t nincs, icap;

	/* the include chain printed before the next diagnostic */
	struct strbuf ib;
	struct ploc *next;
	size_t nnext, nextcap;
	enum inc_state istate;
	bool imulti;

	/* last include context: the file it was printed for and its unit */
	struct strbuf sticky_file, sticky_tu;
	/* gcc's "In function" context; fresh: printed since the last diagnostic */
	struct strbuf ctx_file, ctx_func;
	bool ctx_fresh;

	enum echo_state echo;
	size_t echo_note; /* NONE: the diagnostic itself */
	unsigned long gcc_votes, clang_votes;
	char **dirs; /* make's "Entering directory" */
	size_t ndirs, dcap;

	/* commit scratch */
	struct diag_note *tmpnotes;
	size_t tmpcap;
	struct diag_loc *tmpincs;
	size_t tmpicap;
};

static inline const char *pb_str(const struct strbuf *b, size_t off)
{
	return off == NONE ? NULL : b->buf + off;
}

/* Put a diagnostic read with paths as printed into the parser's set; its
 * message is `clean` when already normalised (lex_text), as the parser
 * keeps it, not when it comes from structured input. */
void parser_emit(struct diag_parser *p, const struct diag *d, bool clean);
/* Ask for the set's slot of the pending diagnostic as it stands (its
 * place changes with macro notes) while its next lines are read: the
 * lookup on commit then finds it in the cache. */
void parser_prefetch(struct diag_parser *p);
/* Decide the source root from what was read so far, if not yet done. */
void parser_decide_root(struct diag_parser *p);

#endif
