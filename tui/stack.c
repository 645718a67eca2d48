/* The stack view: a header with the count of patches per tag, then one line
 * per patch (index, tag badges, short id, subject, author), filtered by
 * tags. Moving the cursor updates the patch view when it is on screen. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tui/links.h"
#include "tui/prompt.h"
#include "tui/views.h"

#define MAX_EXTRA_FILTERS 64
#define BADGE_MAX 30
#define AUTHOR_MAX 20
#define ID_WIDTH 12
#define ID_NARROW 8    /* the id in a narrow row */
#define SUBJECT_MIN 40 /* what a row narrows its other columns for */

static struct {
	struct stack *st;
	size_t *rows, nrows; /* indexes of the patches shown, oldest first */
	size_t nslots;	     /* TAG_COUNT + extra tags + untagged */
	bool *filter;
	size_t *counts;
	uint64_t *extra_mask; /* per patch: which extra tag names it carries */
	int index_w, badge_w, author_w;
	int badge1_w, initials_w; /* narrowed: the first badge and a "+", initials */
	int subject_w;
	struct stack_view_hooks hooks;
	int summary_row; /* the first header row of the hook's summary */
} S;

static size_t untagged_slot(void)
{
	return S.nslots - 1;
}

static bool slot_has(size_t slot, size_t pi)
{
	const struct patch *p = &S.st->patches[pi];
	if (slot < TAG_COUNT)
		return p->tags & TAG_BIT(slot);
	if (slot == untagged_slot())
		return !p->ntags && !p->nextra_tags;
	return S.extra_mask[pi] >> (slot - TAG_COUNT) & 1;
}

static void stack_layout(struct view *v);

static bool filter_any(void)
{
	for (size_t s = 0; s < S.nslots; s++)
		if (S.filter[s])
			return true;
	return false;
}

static const char *first_tag(const struct patch *p)
{
	return p->ntags ? tag_names[p->tag_order[0]] : p->nextra_tags ? p->extra_tags[0] : NULL;
}

/* The first badge, and a "+" when there are more. */
static int badge1_width(const struct patch *p)
{
	const char *t = first_tag(p);
	return t ? (int)strlen(t) + 2 + (p->ntags + p->nextra_tags > 1) : 0;
}

/* The initials of a name, as tig abbreviates an author: the first
 * character of each of its first three words ("Ada Lindqvist": "AL"). */
static void initials(const char *name, char out[16])
{
	size_t n = 0;
	for (int words = 0; words < 3; words++) {
		while (*name == ' ')
			name++;
		if (!*name)
			break;
		unsigned char c = (unsigned char)*name;
		size_t len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		for (size_t i = 0; i < len && name[i]; i++)
			out[n++] = name[i];
		name += strcspn(name, " ");
	}
	out[n] = '\0';
}

static int badges_width(const struct patch *p)
{
	int w = 0;
	for (size_t i = 0; i < p->ntags; i++)
		w += (int)strlen(tag_names[p->tag_order[i]]) + 3;
	for (size_t i = 0; i < p->nextra_tags; i++)
		w += (int)strlen(p->extra_tags[i]) + 3;
	return w > 0 ? w - 1 : 0;
}

static size_t selected_index(void)
{
	return S.nrows ? S.rows[stack_view.lineno < S.nrows ? stack_view.lineno : 0] : SIZE_MAX;
}

static void refilter(void)
{
	size_t keep = selected_index();
	bool any = filter_any();
	S.nrows = 0;
	size_t cursor = 0;
	for (size_t i = 0; i < S.st->npatches; i++) {
		bool show = !any;
		for (size_t s = 0; any && s < S.nslots && !show; s++)
			show = S.filter[s] && slot_has(s, i);
		if (!show)
			continue;
		if (keep != SIZE_MAX && i <= keep)
			cursor = S.nrows; /* the same patch, or the one before it */
		S.rows[S.nrows++] = i;
	}
	stack_view.lines = S.nrows;
	stack_view.lineno = cursor;
	view_fix_position(&stack_view);
	if (stack_view.ops->select)
		stack_view.ops->select(&stack_view);
}

void stack_view_set_stack(struct stack *st)
{
	free(S.rows);
	free(S.filter);
	free(S.counts);
	free(S.extra_mask);
	S.st = st;
	size_t nextra =
	    st->nextra_tag_names < MAX_EXTRA_FILTERS ? st->nextra_tag_names : MAX_EXTRA_FILTERS;
	S.nslots = TAG_COUNT + nextra + 1;
	S.filter = xcalloc(S.nslots, sizeof(*S.filter));
	S.counts = xcalloc(S.nslots, sizeof(*S.counts));
	S.rows = xcalloc(st->npatches + 1, sizeof(*S.rows));
	S.extra_mask = xcalloc(st->npatches + 1, sizeof(*S.extra_mask));
	S.badge_w = S.author_w = S.badge1_w = S.initials_w = S.subject_w = 0;
	for (size_t i = 0; i < st->npatches; i++) {
		const struct patch *p = &st->patches[i];
		for (size_t x = 0; x < p->nextra_tags; x++)
			for (size_t n = 0; n < nextra; n++)
				if (!strcmp(p->extra_tags[x], st->extra_tag_names[n]))
					S.extra_mask[i] |= (uint64_t)1 << n;
		for (size_t s = 0; s < S.nslots; s++)
			S.counts[s] += slot_has(s, i);
		int bw = badges_width(p);
		S.badge_w = bw > S.badge_w ? bw : S.badge_w;
		int aw = p->author ? text_width(p->author, -1) : 0;
		S.author_w = aw > S.author_w ? aw : S.author_w;
		int sw = text_width(p->title ? p->title : p->subject ? p->subject : "", -1);
		S.subject_w = sw > S.subject_w ? sw : S.subject_w;
		bw = badge1_width(p);
		S.badge1_w = bw > S.badge1_w ? bw : S.badge1_w;
		char ini[16];
		initials(p->author ? p->author : "", ini);
		aw = text_width(ini, -1);
		S.initials_w = aw > S.initials_w ? aw : S.initials_w;
	}
	S.badge_w = S.badge_w > BADGE_MAX ? BADGE_MAX : S.badge_w;
	S.author_w = S.author_w > AUTHOR_MAX ? AUTHOR_MAX : S.author_w;
	char buf[32];
	S.index_w = snprintf(buf, sizeof(buf), "%zu", st->npatches);
	stack_layout(&stack_view);
	stack_view.lineno = stack_view.offset = 0;
	refilter();
}

struct stack *stack_view_stack(void)
{
	return S.st;
}

struct patch *stack_view_selected(void)
{
	size_t i = selected_index();
	return i == SIZE_MAX ? NULL : &S.st->patches[i];
}

bool stack_view_step(int delta)
{
	long to = (long)stack_view.lineno + delta;
	if (!S.nrows || to < 0 || to >= (long)S.nrows)
		return false;
	view_select_line(&stack_view, (size_t)to);
	return true;
}

size_t stack_view_position(size_t *shown)
{
	*shown = S.nrows;
	return S.nrows ? stack_view.lineno + 1 : 0;
}

size_t stack_filter_slots(void)
{
	return S.nslots;
}

const char *stack_filter_name(size_t slot)
{
	if (slot < TAG_COUNT)
		return tag_names[slot];
	if (slot == untagged_slot())
		return "untagged";
	return S.st->extra_tag_names[slot - TAG_COUNT];
}

size_t stack_filter_patches(size_t slot)
{
	return slot < S.nslots ? S.counts[slot] : 0;
}

bool stack_filter_on(size_t slot)
{
	return slot < S.nslots && S.filter[slot];
}

void stack_filter_toggle(size_t slot)
{
	if (slot >= S.nslots)
		return;
	S.filter[slot] = !S.filter[slot];
	refilter();
}

void stack_filter_clear(void)
{
	memset(S.filter, 0, S.nslots * sizeof(*S.filter));
	refilter();
}

void stack_view_set_hooks(const struct stack_view_hooks *h)
{
	if (h)
		S.hooks = *h;
	else
		memset(&S.hooks, 0, sizeof(S.hooks));
	if (S.st) {
		stack_layout(&stack_view);
		view_fix_position(&stack_view);
	}
}

static void draw_badges(struct line_draw *d, const struct patch *p, int width)
{
	int start = d->col, limit = d->width;
	if (d->col + width < d->width)
		d->width = d->col + width;
	if (width < S.badge_w && first_tag(p)) { /* narrowed */
		draw_tag(d, first_tag(p));
		if (p->ntags + p->nextra_tags > 1)
			draw_text(d, ELEM_DEFAULT, "+", 1);
	}
	for (size_t i = 0; i < p->ntags && width == S.badge_w; i++) {
		if (i)
			draw_text(d, ELEM_DEFAULT, " ", 1);
		draw_tag(d, tag_names[p->tag_order[i]]);
	}
	for (size_t i = 0; i < p->nextra_tags && width == S.badge_w; i++) {
		if (i || p->ntags)
			draw_text(d, ELEM_DEFAULT, " ", 1);
		draw_tag(d, p->extra_tags[i]);
	}
	draw_pad_to(d, ELEM_DEFAULT, start + width);
	d->width = limit;
}

static void stack_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	const struct patch *p = &S.st->patches[S.rows[lineno]];
	(void)v;
	const char *decision = NULL;
	enum theme_elem delem = ELEM_KEEP;
	if (S.hooks.decision)
		decision = S.hooks.decision(p, &delem, &d->dim, S.hooks.data);
	draw_textf(d, ELEM_INDEX, "%*zu ", S.index_w, p->index);
	if (S.hooks.width > 0) {
		int start = d->col;
		draw_text(d, delem, decision ? decision : "", -1);
		draw_pad_to(d, ELEM_DEFAULT, start + S.hooks.width + 1);
	}
	/* a narrow row keeps SUBJECT_MIN columns (or the widest subject's) for
	 * the subject: the id becomes 8 digits, the author initials, the badges
	 * the first and a "+", in that order; below 20 the author goes */
	int room = d->width - d->col, badge_w = S.badge_w, id_w = ID_WIDTH;
	int author_w = S.author_w < room / 3 ? S.author_w : room / 3;
	bool short_author = false;
	for (int step = 0; step < 3; step++) {
		int subject = room - (badge_w ? badge_w + 1 : 0) - id_w - 1 - author_w - 1;
		if (subject >= SUBJECT_MIN || subject >= S.subject_w)
			break;
		if (step == 0)
			id_w = ID_NARROW;
		else if (step == 1 && S.initials_w < author_w)
			author_w = S.initials_w, short_author = true;
		else if (step == 2 && S.badge1_w < badge_w)
			badge_w = S.badge1_w;
	}
	if (badge_w) {
		draw_badges(d, p, badge_w);
		draw_text(d, ELEM_DEFAULT, " ", 1);
	}
	draw_text(d, ELEM_ID, p->id, id_w);
	draw_text(d, ELEM_DEFAULT, " ", 1);
	if (d->width - d->col - author_w - 1 < 20)
		author_w = 0;
	int limit = d->width;
	if (author_w)
		d->width = limit - author_w - 1;
	draw_matches(d, ELEM_SUBJECT, p->title ? p->title : p->subject, view_search_regex());
	if (author_w) {
		/* the author column sits at the right edge */
		d->width = limit;
		draw_pad_to(d, ELEM_DEFAULT, limit - author_w);
		char ini[16];
		const char *a = p->author ? p->author : "";
		if (short_author)
			initials(a, ini), a = ini;
		draw_text(d, ELEM_AUTHOR, a, -1);
	}
}

/* The header: "N patches", then per tag a badge and its count, wrapped
 * over as many rows as the width needs. Item 0 is the patch count, item
 * 1 + s the slot s. Returns the row of an item. */
static int header_row(int width, size_t item, int *col)
{
	int row = 0, x = 0;
	char buf[64];
	for (size_t i = 0; i <= item; i++) {
		int w;
		if (i == 0) {
			w = snprintf(buf, sizeof(buf), "%zu of %zu patches ", S.st->npatches,
				     S.st->npatches);
		} else if (!S.counts[i - 1]) {
			continue;
		} else {
			w = snprintf(buf, sizeof(buf), "  %s  %zu", stack_filter_name(i - 1),
				     S.counts[i - 1]);
		}
		if (x + w > width && x > 0) {
			row++;
			x = 0;
		}
		*col = x;
		x += w;
	}
	return row;
}

static void stack_layout(struct view *v)
{
	int col;
	v->nheader = S.st->npatches ? header_row(v->width, S.nslots, &col) + 1 : 1;
	/* a small window keeps room for patches: two thirds at least */
	int most = v->height / 3 > 1 ? v->height / 3 : 1;
	if (v->nheader > most)
		v->nheader = most;
	/* the summary rows come last and stay when the tag rows are cut; one
	 * row of tag counts stays too when there is room */
	int sum =
	    S.hooks.summary && S.st->npatches ? S.hooks.summary_rows(v->width, S.hooks.data) : 0;
	if (sum > most - 1)
		sum = most - 1 > 0 ? most - 1 : 0;
	if (v->nheader > most - sum)
		v->nheader = most - sum;
	S.summary_row = v->nheader;
	v->nheader += sum;
}

static void stack_empty(struct view *v, struct strbuf *sb)
{
	(void)v;
	if (S.st->npatches)
		sb_adds(sb, "No patch carries those tags: T shows them all again");
}

static void stack_header(struct view *v, struct line_draw *d, int row)
{
	bool any = filter_any();
	if (!S.st->npatches) {
		draw_textf(d, ELEM_HEADER, "No patches in %s..%s", S.st->base_ref, S.st->head_ref);
		draw_fill(d, ELEM_HEADER);
		return;
	}
	int col;
	if (S.hooks.summary && row >= S.summary_row) {
		S.hooks.summary(d, row - S.summary_row, S.hooks.data);
		return;
	}
	if (row == 0) {
		if (any)
			draw_textf(d, ELEM_HEADER, "%zu of %zu patches ", v->lines, S.st->npatches);
		else
			draw_textf(d, ELEM_HEADER, "%zu patch%s ", S.st->npatches,
				   S.st->npatches == 1 ? "" : "es");
	}
	for (size_t s = 0; s < S.nslots; s++) {
		if (!S.counts[s] || header_row(v->width, s + 1, &col) != row)
			continue;
		if (col)
			draw_text(d, ELEM_HEADER, " ", 1);
		d->dim = any && !S.filter[s];
		if (s == untagged_slot())
			draw_text(d, ELEM_HEADER, " untagged ", -1);
		else
			draw_tag(d, stack_filter_name(s));
		d->dim = false;
		draw_textf(d, ELEM_HEADER, "%s%zu", S.filter[s] ? "*" : " ", S.counts[s]);
	}
	draw_fill(d, ELEM_HEADER);
}

static void stack_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	if (!S.st->repo) /* patch files read without a base */
		sb_addf(sb, "%s (patch files)", S.st->head_ref ? S.st->head_ref : "");
	else
		sb_addf(sb, "%s..%s", S.st->base_ref ? S.st->base_ref : S.st->base_id,
			S.st->head_ref ? S.st->head_ref : S.st->head_id);
	if (S.nrows)
		sb_addf(sb, "  patch %zu of %zu", stack_view.lineno + 1, S.nrows);
	const char *sep = "  showing ";
	for (size_t s = 0; s < S.nslots; s++)
		if (S.filter[s]) {
			sb_addf(sb, "%s%s", sep, stack_filter_name(s));
			sep = ",";
		}
}

static bool stack_request(struct view *v, int action)
{
	int tag = action_tag(action);
	if (tag >= 0) {
		stack_filter_toggle((size_t)tag);
		if (!S.counts[tag])
			report("no %s patches in this stack", tag_names[tag]);
		return true;
	}
	switch (action) {
	case ACT_ENTER:
		if (!S.nrows)
			report_error("no patch here");
		else
			view_open(&patch_view, OPEN_SPLIT);
		return true;
	case ACT_NEXT_PATCH:
	case ACT_PREV_PATCH:
		if (!stack_view_step(action == ACT_NEXT_PATCH ? 1 : -1))
			report("%s patch", action == ACT_NEXT_PATCH ? "last" : "first");
		return true;
	case ACT_FILTER_PICK:
		view_open(&tags_view, OPEN_SPLIT);
		return true;
	case ACT_FILTER_CLEAR:
		stack_filter_clear();
		return true;
	case ACT_SCROLL_LEFT:
	case ACT_SCROLL_RIGHT:
		return true; /* columns are laid out to fit */
	}
	(void)v;
	return false;
}

static void stack_select(struct view *v)
{
	(void)v;
	if (view_displayed(&patch_view))
		view_reload(&patch_view);
}

static bool stack_grep(struct view *v, size_t lineno, const regex_t *re)
{
	(void)v;
	const struct patch *p = &S.st->patches[S.rows[lineno]];
	/* what the row shows: the subject, the author, the id (from its start) */
	char id[13];
	snprintf(id, sizeof(id), "%.12s", p->id);
	return (p->subject && regexec(re, p->subject, 0, NULL, 0) == 0) ||
	       (p->author && regexec(re, p->author, 0, NULL, 0) == 0) ||
	       regexec(re, id, 0, NULL, REG_NOTEOL) == 0;
}

static void stack_status(struct view *v, struct strbuf *sb)
{
	(void)v;
	struct patch *p = stack_view_selected();
	const char *why = p && S.hooks.reason ? S.hooks.reason(p, S.hooks.data) : NULL;
	if (why)
		sb_adds(sb, why);
	if (p)
		tui_patch_links_status(p, sb);
}

static const struct view_ops stack_ops = {
    .name = "stack",
    .scope = SCOPE_STACK,
    .flags = VIEW_CURSOR,
    .draw = stack_draw,
    .draw_header = stack_header,
    .layout = stack_layout,
    .title = stack_title,
    .request = stack_request,
    .select = stack_select,
    .grep = stack_grep,
    .empty = stack_empty,
    .status = stack_status,
};

struct view stack_view = {.ops = &stack_ops};

void stack_view_free(void)
{
	free(S.rows);
	free(S.filter);
	free(S.counts);
	free(S.extra_mask);
	memset(&S, 0, sizeof(S));
}
