/* The series in the workbench: a keep/drop column in the stack view for the
 * target Clang (dropped patches dimmed, the reason in the status bar), a
 * summary (kept/dropped per tag), manual overrides (Space flips, f says
 * "fixed in", u clears), and apply (A) and export (E) of the result. The
 * Clang picker is tui/clangs.c. */
#include "tui/series.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <git2.h>
#include <string.h>

#include "core/apply.h"
#include "core/export.h"
#include "core/series.h"
#include "tui/loop.h"
#include "tui/prompt.h"
#include "tui/views.h"

static struct {
	bool open;   /* the series could be opened (overrides loaded) */
	char *error; /* why not */
	struct series s;
	bool have_clang;
	char *from;	/* where the target Clang came from */
	char *no_clang; /* why there is none */
	struct clang_found *found;
	size_t nfound;
	bool found_done;
	struct strbuf why; /* the status text of the selected patch */
	char *branch;	   /* the branch name offered by A */
	char *replacing;   /* the existing branch A asks to replace */
	enum export_format fmt;
} S;

static const struct series_item *item_of(const struct patch *p)
{
	if (!S.open)
		return NULL;
	size_t i = (size_t)(p - S.s.st->patches);
	return i < S.s.nitems ? &S.s.items[i] : NULL;
}

/* The column: "keep"/"drop", then '*' for a manual override, '!' for a
 * warning, '?' for an OBSOLETE patch whose fixed version is unknown. */
static const char *decision(const struct patch *p, enum theme_elem *elem, bool *dim, void *data)
{
	static char buf[8];
	const struct series_item *it = item_of(p);
	(void)data;
	if (!it || !S.have_clang) {
		*elem = ELEM_DEFAULT;
		return "-";
	}
	*elem = it->warning ? ELEM_WARNING : it->keep ? ELEM_KEEP : ELEM_DROP;
	*dim = !it->keep;
	snprintf(buf, sizeof(buf), "%s%s%s", it->keep ? "keep" : "drop", it->ov ? "*" : "",
		 it->warning			  ? "!"
		 : it->version_unknown && !it->ov ? "?"
						  : "");
	return buf;
}

static const char *reason(const struct patch *p, void *data)
{
	const struct series_item *it = item_of(p);
	(void)data;
	sb_reset(&S.why);
	if (!S.open)
		sb_addf(&S.why, "series: %s", S.error);
	else if (!S.have_clang)
		sb_addf(&S.why, "no target Clang (%s): c picks one", S.no_clang);
	else if (it) {
		sb_addf(&S.why, "%s: %s", it->keep ? "keep" : "drop", it->reason);
		if (it->warning)
			sb_addf(&S.why, "  ! %s", it->warning);
		if (it->ov)
			sb_adds(&S.why, "  (u: back to automatic)");
		else if (it->version_unknown)
			sb_adds(&S.why, "  (f: say which Clang fixed it)");
	}
	return S.why.len ? S.why.buf : NULL;
}

/* The summary is a flow of pieces wrapped over as many rows as the width
 * needs: the totals, then kept/dropped per tag, then where the Clang came
 * from. Tags with dropped patches come first, then HACK and OBSOLETE; the
 * other tags, whose patches are all kept (their counts are in the row
 * above), are one piece "others all kept". */
enum piece_kind { PIECE_TOTALS, PIECE_LABEL, PIECE_TAG, PIECE_UNTAGGED, PIECE_OTHERS, PIECE_FROM };

struct piece {
	enum piece_kind kind;
	const char *name;
	struct series_count c;
	int width, gap, row; /* gap: blanks before it on its row */
};

static int piece_rank(const struct piece *p)
{
	if (p->kind != PIECE_TAG && p->kind != PIECE_UNTAGGED)
		return p->kind >= PIECE_OTHERS ? 5 + p->kind : p->kind;
	if (p->c.dropped)
		return 2;
	return !strcmp(p->name, "HACK") || !strcmp(p->name, "OBSOLETE") ? 3 : 4;
}

static int piece_cmp(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;
	int d = piece_rank(x) - piece_rank(y);
	return d ? d : x < y ? -1 : x > y;
}

/* Draw a piece, or only measure it (d == NULL). */
static int piece_draw(struct line_draw *d, const struct piece *p)
{
	char b[32], buf[160];
	size_t by_hand = 0;
	int w = 0;
	switch (p->kind) {
	case PIECE_TOTALS:
		for (size_t i = 0; i < S.s.nitems; i++)
			by_hand += S.s.items[i].ov != NULL;
		w = snprintf(buf, sizeof(buf),
			     "Clang %s: ", clangver_str_short(&S.s.clang, b, sizeof(b)));
		if (d) {
			draw_text(d, ELEM_DEFAULT, buf, -1);
			draw_textf(d, ELEM_KEEP, "%zu kept", S.s.kept);
			draw_text(d, ELEM_DEFAULT, ", ", 2);
			draw_textf(d, ELEM_DROP, "%zu dropped", S.s.dropped);
			if (by_hand)
				draw_textf(d, ELEM_DEFAULT, ", %zu by hand", by_hand);
		}
		w += snprintf(buf, sizeof(buf), "%zu kept, %zu dropped", S.s.kept, S.s.dropped);
		if (by_hand)
			w += snprintf(buf, sizeof(buf), ", %zu by hand", by_hand);
		return w;
	case PIECE_LABEL:
		if (d)
			draw_text(d, ELEM_DEFAULT, "kept/dropped:", -1);
		return 13;
	case PIECE_OTHERS:
		if (d)
			draw_text(d, ELEM_DEFAULT, "others all kept", -1);
		return 15;
	case PIECE_FROM:
		if (d)
			draw_textf(d, ELEM_META, "(%s)", S.from);
		return text_width(S.from, -1) + 2;
	case PIECE_TAG:
	case PIECE_UNTAGGED:
		if (d && p->kind == PIECE_TAG)
			draw_tag(d, p->name);
		else if (d)
			draw_text(d, ELEM_DEFAULT, p->name, -1);
		if (d) {
			draw_textf(d, ELEM_KEEP, " %zu", p->c.kept);
			draw_text(d, ELEM_DEFAULT, "/", 1);
			draw_textf(d, ELEM_DROP, "%zu", p->c.dropped);
		}
		w = snprintf(buf, sizeof(buf), " %zu/%zu", p->c.kept, p->c.dropped);
		return w + text_width(p->name, -1) + (p->kind == PIECE_TAG ? 2 : 0);
	}
	return 0;
}

/* Returns true when a tag is left out because all its patches are kept. */
static bool add_piece(struct piece *pc, size_t *n, enum piece_kind kind, const char *name,
		      const struct series_count *c)
{
	if (c && !c->kept && !c->dropped)
		return false;
	pc[*n] = (struct piece){.kind = kind, .name = name};
	if (c)
		pc[*n].c = *c;
	if (c && piece_rank(&pc[*n]) == 4)
		return true;
	(*n)++;
	return false;
}

/* The pieces laid out for `width`; returns how many rows they take. */
static int summary_layout(int width, struct piece **out, size_t *n)
{
	struct series_counts c;
	series_count_tags(&S.s, &c);
	struct piece *pc = xcalloc(TAG_COUNT + c.nextra + 4, sizeof(*pc));
	*n = 0;
	add_piece(pc, n, PIECE_TOTALS, NULL, NULL);
	add_piece(pc, n, PIECE_LABEL, NULL, NULL);
	bool others = false;
	for (int t = 0; t < TAG_COUNT; t++)
		others |= add_piece(pc, n, PIECE_TAG, tag_names[t], &c.tag[t]);
	for (size_t x = 0; x < c.nextra; x++)
		others |= add_piece(pc, n, PIECE_TAG, S.s.st->extra_tag_names[x], &c.extra[x]);
	others |= add_piece(pc, n, PIECE_UNTAGGED, "untagged", &c.untagged);
	if (others)
		add_piece(pc, n, PIECE_OTHERS, NULL, NULL);
	add_piece(pc, n, PIECE_FROM, NULL, NULL);
	series_counts_free(&c);
	qsort(pc, *n, sizeof(*pc), piece_cmp);
	int row = 0, x = 0;
	for (size_t i = 0; i < *n; i++) {
		/* three blanks around the tags; badges have blanks of their own */
		int gap = !x							  ? 0
			  : pc[i].kind == PIECE_TAG				  ? 1
			  : pc[i].kind == PIECE_LABEL || pc[i].kind == PIECE_FROM ? 3
										  : 2;
		pc[i].width = piece_draw(NULL, &pc[i]);
		bool fits = !x || x + gap + pc[i].width <= width;
		if (!fits && pc[i].kind >= PIECE_OTHERS) { /* extras: never a row of their own */
			pc[i].row = -1;
			continue;
		}
		if (!fits) {
			row++;
			x = gap = 0;
		}
		pc[i].row = row;
		pc[i].gap = gap;
		x += gap + pc[i].width;
	}
	*out = pc;
	return row + 1;
}

static int summary_rows(int width, void *data)
{
	struct piece *pc;
	size_t n;
	(void)data;
	if (!S.open || !S.have_clang)
		return 1;
	int rows = summary_layout(width, &pc, &n);
	free(pc);
	return rows;
}

static void summary(struct line_draw *d, int row, void *data)
{
	(void)data;
	if (!S.open) {
		draw_textf(d, ELEM_ERROR, "series: %s", S.error);
		return;
	}
	if (!S.have_clang) {
		draw_textf(d, ELEM_WARNING, "No target Clang (%s): c picks one", S.no_clang);
		return;
	}
	struct piece *pc;
	size_t n;
	summary_layout(d->width, &pc, &n);
	for (size_t i = 0; i < n; i++) {
		if (pc[i].row != row)
			continue;
		draw_pad_to(d, ELEM_DEFAULT, d->col + pc[i].gap);
		piece_draw(d, &pc[i]);
	}
	free(pc);
}

/* The header follows the summary's length (a version, "by hand"). */
static void relayout(void)
{
	stack_view_set_hooks(&(struct stack_view_hooks){.width = 6,
							.decision = decision,
							.reason = reason,
							.summary_rows = summary_rows,
							.summary = summary});
}

const struct clang_version *series_tui_target(const char **from)
{
	if (from)
		*from = S.from;
	return S.have_clang ? &S.s.clang : NULL;
}

void series_tui_set_target(const struct clang_version *v, const char *from)
{
	char b[32];
	if (!S.open) {
		report_error("series: %s", S.error);
		return;
	}
	bool *before = xcalloc(S.s.nitems + 1, sizeof(*before));
	for (size_t i = 0; i < S.s.nitems; i++)
		before[i] = S.s.items[i].keep;
	bool had = S.have_clang;
	series_decide(&S.s, v);
	S.have_clang = true;
	free(S.from);
	S.from = xstrdup(from);
	relayout();
	size_t changed = 0;
	for (size_t i = 0; i < S.s.nitems; i++)
		changed += had && before[i] != S.s.items[i].keep;
	free(before);
	const char *vs = clangver_str_short(v, b, sizeof(b));
	if (had)
		report("Clang %s: %zu kept, %zu dropped; %zu decision%s changed", vs, S.s.kept,
		       S.s.dropped, changed, changed == 1 ? "" : "s");
	else
		report("Clang %s: %zu kept, %zu dropped", vs, S.s.kept, S.s.dropped);
}

const struct clang_found *series_tui_found(size_t *n)
{
	if (!S.found_done) {
		S.found = clangver_find_all(&S.nfound);
		S.found_done = true;
	}
	*n = S.nfound;
	return S.found;
}

/* The selected patch's index in the series, or -1 with a message. */
static long selected_item(void)
{
	struct patch *p = stack_view_selected();
	if (!S.open) {
		report_error("series: %s", S.error);
		return -1;
	}
	if (!p) {
		report_error("no patch here");
		return -1;
	}
	if (!S.have_clang) {
		report_error("no target Clang yet: c picks one");
		return -1;
	}
	return (long)(p - S.s.st->patches);
}

static bool on_toggle(struct view *v, int action, void *data)
{
	struct kerr e;
	(void)v, (void)data;
	long i = selected_item();
	if (i < 0)
		return true;
	if (action == ACT_SERIES_CLEAR) {
		if (!S.s.items[i].ov) {
			report("patch %zu has no manual keep/drop", S.s.items[i].patch->index);
			return true;
		}
		if (series_override(&S.s, (size_t)i, OV_NONE, NULL, &e) < 0)
			report_error("%s", e.msg);
	} else if (series_toggle(&S.s, (size_t)i, &e) < 0) {
		report_error("%s", e.msg);
	}
	relayout();
	return true;
}

/* "Fixed in": a manual override that drops the patch from that Clang on. */
static void fixed_in(const char *text, void *data)
{
	size_t i = (size_t)(uintptr_t)data;
	struct clang_version v;
	struct kerr e;
	const struct series_item *it = &S.s.items[i];
	if (!text)
		return;
	if (!*text && it->nhints)
		text = it->hints[0].version;
	if (clangver_parse(text, &v) < 0) {
		report_error("'%s' is not a Clang version (5, 14, 14.0.6)", text);
		return;
	}
	if (series_override(&S.s, i, OV_UNTIL, &v, &e) < 0)
		report_error("%s", e.msg);
	relayout();
}

static bool on_fixed_in(struct view *v, int action, void *data)
{
	(void)v, (void)action, (void)data;
	long i = selected_item();
	if (i < 0)
		return true;
	const struct series_item *it = &S.s.items[i];
	char *label = it->nhints ? xasprintf("Fixed in Clang [%s]: ", it->hints[0].version)
				 : xstrdup("Fixed in Clang: ");
	prompt_open(label, fixed_in, (void *)(uintptr_t)i);
	free(label);
	return true;
}

static bool on_clang(struct view *v, int action, void *data)
{
	(void)v, (void)action, (void)data;
	if (!S.open)
		report_error("series: %s", S.error);
	else
		view_open(&clang_view, OPEN_SPLIT);
	return true;
}

static bool ready(void)
{
	if (!S.open)
		report_error("series: %s", S.error);
	else if (!S.have_clang)
		report_error("no target Clang yet: c picks one");
	return S.open && S.have_clang;
}

static void apply_to(const char *branch, bool force)
{
	struct apply_result res;
	struct kerr e;
	int rc = apply_series(&S.s, branch, force, &res, &e);
	if (rc < 0) {
		report_error("%s", e.msg);
	} else if (rc > 0) {
		struct strbuf sb = STRBUF_INIT;
		apply_describe_conflict(&S.s, &res, &sb);
		report_error("branch %s not created: %s", branch, sb_str(&sb));
		sb_free(&sb);
	} else {
		report("%s branch %s at %.12s: %zu patch%s applied, %zu dropped%s",
		       force ? "replaced" : "created", branch, res.tip, res.applied,
		       res.applied == 1 ? "" : "es", S.s.dropped,
		       res.nempty ? " (some kept patches were empty: skipped)" : "");
	}
	apply_result_free(&res);
}

static void replace_confirmed(const char *text, void *data)
{
	(void)data;
	if (text)
		apply_to(S.replacing, true); /* still refused if klang did not make it */
	else
		report("branch %s left as it is", S.replacing);
}

static void applied(const char *text, void *data)
{
	(void)data;
	if (!text) {
		report("apply cancelled");
		return;
	}
	const char *branch = *text ? text : S.branch;
	char *ref = xasprintf("refs/heads/%s", branch);
	git_reference *old = NULL;
	bool exists = S.s.st->repo && git_reference_lookup(&old, S.s.st->repo, ref) == 0;
	git_reference_free(old);
	free(ref);
	if (!exists) {
		apply_to(branch, false);
		return;
	}
	free(S.replacing);
	S.replacing = xstrdup(branch);
	char *label = xasprintf("Branch %s exists: replace it (if klang made it)? y/N ", branch);
	prompt_confirm(label, replace_confirmed, NULL);
	free(label);
}

static bool on_apply(struct view *v, int action, void *data)
{
	(void)v, (void)action, (void)data;
	if (!ready())
		return true;
	free(S.branch);
	S.branch = apply_branch_name(&S.s);
	char *label = xasprintf("Branch [%s]: ", S.branch);
	prompt_open(label, applied, NULL);
	free(label);
	return true;
}

/* The default export directory: REPO/.klang/export/<branch name>-<format>. */
static char *export_default(void)
{
	char *name = apply_branch_name(&S.s);
	const char *base = str_startswith(name, "klang/") ? name + strlen("klang/") : name;
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '-';
	char *dir = xasprintf("%s/.klang/export/%s-%s", S.s.st->repo_path ? S.s.st->repo_path : ".",
			      base, S.fmt == EXPORT_QUILT ? "quilt" : "mbox");
	free(name);
	return dir;
}

static void exported(const char *text, void *data)
{
	(void)data;
	if (!text) {
		report("export cancelled");
		return;
	}
	if (!*text)
		state_dir_ignore_scratch(S.s.st->repo_path);
	char *dir = *text ? xstrdup(text) : export_default();
	struct apply_result res;
	struct kerr e;
	char **files = NULL;
	size_t nfiles = 0;
	int rc = export_series(&S.s, dir, S.fmt, &res, &files, &nfiles, &e);
	if (rc < 0) {
		report_error("%s", e.msg);
	} else if (rc > 0) {
		struct strbuf sb = STRBUF_INIT;
		apply_describe_conflict(&S.s, &res, &sb);
		report_error("nothing exported: %s", sb_str(&sb));
		sb_free(&sb);
	} else {
		report("wrote %zu patch%s to %s (%s)", res.applied, res.applied == 1 ? "" : "es",
		       dir, S.fmt == EXPORT_QUILT ? "quilt push -a" : "git am *.patch");
	}
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	apply_result_free(&res);
	free(dir);
}

static void export_format(const char *text, void *data)
{
	(void)data;
	if (!text) {
		report("export cancelled");
		return;
	}
	int fmt = *text ? export_format_parse(text) : EXPORT_MBOX;
	if (fmt < 0 && (!strcmp(text, "m") || !strcmp(text, "q")))
		fmt = *text == 'q' ? EXPORT_QUILT : EXPORT_MBOX;
	if (fmt < 0) {
		report_error("export as mbox or quilt, not '%s'", text);
		return;
	}
	S.fmt = (enum export_format)fmt;
	char *dir = export_default();
	char *label = xasprintf("Directory [%s]: ", dir);
	prompt_open(label, exported, NULL);
	free(label);
	free(dir);
}

static bool on_export(struct view *v, int action, void *data)
{
	(void)v, (void)action, (void)data;
	if (ready())
		prompt_open("Export as mbox or quilt [mbox]: ", export_format, NULL);
	return true;
}

/* The clang on PATH decides the series: the keep/drop column appears. */
static void detect_clang(void *data)
{
	(void)data;
	struct kerr e;
	const char *cc = clangver_default_cc(NULL);
	struct clang_version v;
	char b[32];
	if (S.have_clang || !S.open) /* a Clang was picked already */
		return;
	free(S.no_clang);
	S.no_clang = NULL;
	if (clangver_detect(cc, &v, &e) < 0) {
		S.no_clang = xstrdup(e.msg);
	} else if (v.apple) {
		S.no_clang = xasprintf("%s is Apple clang %s, whose numbers are not LLVM's", cc,
				       clangver_str(&v, b, sizeof(b)));
	} else {
		char *from = xasprintf("%s%s%s", cc, v.vendor[0] ? ", " : "", v.vendor);
		series_decide(&S.s, &v);
		S.have_clang = true;
		S.from = from;
	}
	relayout();
}

void series_tui_init(struct stack *st)
{
	struct kerr e;
	memset(&S, 0, sizeof(S));
	int rc = series_open(&S.s, st, tui_patchset(), &e);
	char *moved = rc > 0 ? xstrdup(e.msg) : NULL; /* a corrupt file moved aside */
	if (rc < 0) {
		S.error = xstrdup(e.msg);
		report_error("series: %s", e.msg);
	} else {
		S.open = true;
	}
	if (!S.open) {
		S.no_clang = xstrdup("the series is not available");
	} else { /* after the first screen: `clang --version` takes 20-100 ms */
		S.no_clang = xstrdup("looking for clang on PATH");
		loop_add_timer(0, false, detect_clang, NULL);
	}
	relayout();
	if (moved)
		report_error("series: %s", moved);
	free(moved);
	action_set_handler(ACT_SERIES_TOGGLE, on_toggle, NULL);
	action_set_handler(ACT_SERIES_CLEAR, on_toggle, NULL);
	action_set_handler(ACT_SERIES_FIXED_IN, on_fixed_in, NULL);
	action_set_handler(ACT_SERIES_CLANG, on_clang, NULL);
	action_set_handler(ACT_SERIES_APPLY, on_apply, NULL);
	action_set_handler(ACT_SERIES_EXPORT, on_export, NULL);
}

void series_tui_free(void)
{
	stack_view_set_hooks(NULL);
	if (S.open)
		series_free(&S.s);
	clangver_found_free(S.found, S.nfound);
	free(S.error);
	free(S.from);
	free(S.no_clang);
	free(S.branch);
	free(S.replacing);
	sb_free(&S.why);
	memset(&S, 0, sizeof(S));
}
