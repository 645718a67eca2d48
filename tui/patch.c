/* The patch view: the selected patch of the stack as commit header, message
 * and coloured diff with file headers. It always shows the stack's cursor:
 * J/K move that cursor, and a split stack view above it drives it too. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/links.h"
#include "tui/prompt.h"
#include "tui/views.h"

enum pline_type {
	PL_TEXT, /* drawn with its element */
	PL_TAGS, /* the tag badges of the patch */
	PL_META, /* "Label:  value": label in meta, value in its element */
};

struct pline {
	const char *text; /* NUL-terminated, inside P.buf */
	unsigned char type;
	unsigned char elem;
	unsigned char label; /* PL_META: length of the label */
};

static struct {
	struct strbuf buf;   /* every line, NUL-separated */
	size_t *offsets;     /* start of each line in buf (pointers move as it grows) */
	unsigned char *info; /* type, elem, label per line */
	size_t n, cap;
	struct pline *lines;
	char id[41];
	struct patch *patch;
	char *goto_file; /* patch_view_goto: where to go when it opens */
	unsigned goto_line;
	size_t mark; /* the line gone to, highlighted; SIZE_MAX none */
} P = {.mark = SIZE_MAX};

static void add_line(enum pline_type type, enum theme_elem e, int label, const char *s, size_t len)
{
	ALLOC_GROW(P.offsets, P.n + 1, P.cap);
	P.info = xrealloc(P.info, P.cap * 3);
	P.offsets[P.n] = P.buf.len;
	P.info[P.n * 3] = (unsigned char)type;
	P.info[P.n * 3 + 1] = (unsigned char)e;
	P.info[P.n * 3 + 2] = (unsigned char)label;
	sb_add(&P.buf, s, len);
	sb_addc(&P.buf, '\0');
	P.n++;
}

static void add_linef(enum pline_type type, enum theme_elem e, int label, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_linef(enum pline_type type, enum theme_elem e, int label, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	add_line(type, e, label, sb_str(&sb), sb.len);
	sb_free(&sb);
}

/* git's default date format, in the author's own time zone. */
static void format_date(char *buf, size_t cap, int64_t t, int tz)
{
	time_t local = (time_t)(t + (int64_t)tz * 60);
	struct tm tm;
	gmtime_r(&local, &tm);
	char day[16];
	if (!strftime(day, sizeof(day), "%a %b", &tm))
		day[0] = 0;
	int a = tz < 0 ? -tz : tz;
	snprintf(buf, cap, "%s %d %02d:%02d:%02d %d %c%02d%02d", day, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, tm.tm_year + 1900, tz < 0 ? '-' : '+', a / 60, a % 60);
}

static bool is_trailer(const struct patch *p, const char *line, size_t len)
{
	for (size_t i = 0; i < p->ntrailers; i++) {
		size_t k = strlen(p->trailers[i].key);
		if (k < len && !strncasecmp(line, p->trailers[i].key, k) && line[k] == ':')
			return true;
	}
	return false;
}

static void add_message(const struct patch *p)
{
	add_line(PL_TEXT, ELEM_DEFAULT, 0, "", 0);
	add_linef(PL_TEXT, ELEM_SUBJECT, 0, "    %s", p->subject ? p->subject : "");
	const char *s = p->body;
	if (s && *s)
		add_line(PL_TEXT, ELEM_DEFAULT, 0, "", 0);
	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		enum theme_elem e = is_trailer(p, s, len) ? ELEM_TRAILER : ELEM_DEFAULT;
		add_linef(PL_TEXT, e, 0, "    %.*s", (int)len, s);
		s = nl ? nl + 1 : NULL;
	}
}

static enum theme_elem diff_elem(const char *s, size_t len, bool *in_header)
{
	if (len >= 10 && !strncmp(s, "diff --git", 10)) {
		*in_header = true;
		return ELEM_DIFF_FILE;
	}
	if (len >= 2 && !strncmp(s, "@@", 2)) {
		*in_header = false;
		return ELEM_DIFF_CHUNK;
	}
	if (*in_header)
		return ELEM_DIFF_META;
	if (len && s[0] == '+')
		return ELEM_DIFF_ADD;
	if (len && s[0] == '-')
		return ELEM_DIFF_DEL;
	if (len && s[0] == '\\')
		return ELEM_DIFF_META;
	return ELEM_DEFAULT;
}

static void add_diff(const char *diff)
{
	bool in_header = false;
	for (const char *s = diff; *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		add_line(PL_TEXT, diff_elem(s, len, &in_header), 0, s, len);
		s += len + (nl != NULL);
	}
}

static void load(struct stack *st, struct patch *p)
{
	struct kerr e;
	char date[64];
	size_t shown, pos = stack_view_position(&shown);
	add_linef(PL_TEXT, ELEM_COMMIT, 0, "commit %s", p->id);
	add_linef(PL_META, ELEM_AUTHOR, 8, "Author: %s <%s>", p->author ? p->author : "",
		  p->author_email ? p->author_email : "");
	format_date(date, sizeof(date), p->time, p->tz_offset);
	add_linef(PL_META, ELEM_DATE, 8, "Date:   %s", date);
	if (p->ntags || p->nextra_tags)
		add_line(PL_TAGS, ELEM_META, 8, "Tags:   ", 8);
	if (shown == st->npatches)
		add_linef(PL_META, ELEM_DEFAULT, 8, "Patch:  %zu of %zu", p->index, st->npatches);
	else
		add_linef(PL_META, ELEM_DEFAULT, 8, "Patch:  %zu of %zu (%zu of %zu shown)",
			  p->index, st->npatches, pos, shown);
	if (stack_load_stats(st, p, &e) == 0)
		add_linef(PL_META, ELEM_DIFF_STAT, 8,
			  "Stats:  %zu file%s changed, %zu insertion%s(+), "
			  "%zu deletion%s(-)",
			  p->files, p->files == 1 ? "" : "s", p->insertions,
			  p->insertions == 1 ? "" : "s", p->deletions,
			  p->deletions == 1 ? "" : "s");
	struct patch_link *links;
	size_t nlinks = links_patch(p, &links);
	for (size_t i = 0; i < nlinks; i++) { /* y copies the id, Y each link in turn */
		char key[16];
		int w = snprintf(key, sizeof(key), "%s:", links[i].key);
		add_linef(PL_META, ELEM_TRAILER, w < 8 ? 8 : w + 1, "%-7s %s", key, links[i].url);
	}
	free(links);
	add_message(p);
	char *diff = stack_patch_diff(st, p, &e);
	add_line(PL_TEXT, ELEM_DEFAULT, 0, "", 0);
	if (diff)
		add_diff(diff);
	else
		add_linef(PL_TEXT, ELEM_ERROR, 0, "%s", e.msg);
	free(diff);
}

void patch_view_goto(const char *file, unsigned line)
{
	free(P.goto_file);
	P.goto_file = xstrdup(file);
	P.goto_line = line;
}

/* The diff line of file's new version at `line`: the added or context line
 * itself, else the hunk header before it, else the file's header. */
static size_t find_line(const char *file, unsigned line)
{
	size_t best = SIZE_MAX;
	bool in_file = false;
	unsigned newln = 0;
	for (size_t i = 0; i < P.n; i++) {
		const struct pline *l = &P.lines[i];
		const char *t = l->text;
		if (l->elem == ELEM_DIFF_FILE) {
			in_file = false;
		} else if (l->elem == ELEM_DIFF_META && !strncmp(t, "+++ ", 4)) {
			t += 4;
			if (!strncmp(t, "b/", 2))
				t += 2;
			in_file = !strcmp(t, file);
			if (in_file && best == SIZE_MAX)
				best = i;
		} else if (in_file && l->elem == ELEM_DIFF_CHUNK) {
			const char *plus = strstr(t, " +");
			newln = plus ? (unsigned)strtoul(plus + 2, NULL, 10) : 0;
			if (newln <= line)
				best = i;
		} else if (in_file && newln && (l->elem == ELEM_DIFF_ADD || !*t || *t == ' ')) {
			if (newln++ == line)
				return i;
		}
	}
	return best;
}

static void patch_open(struct view *v)
{
	struct patch *p = stack_view_selected();
	sb_reset(&P.buf);
	P.n = 0;
	if (p)
		load(stack_view_stack(), p);
	else
		add_line(PL_TEXT, ELEM_DEFAULT, 0, "No patch selected.", 18);
	free(P.lines);
	P.lines = xcalloc(P.n + 1, sizeof(*P.lines));
	for (size_t i = 0; i < P.n; i++)
		P.lines[i] = (struct pline){P.buf.buf + P.offsets[i], P.info[i * 3],
					    P.info[i * 3 + 1], P.info[i * 3 + 2]};
	/* a new patch starts at the top; the same one keeps its place */
	if (!p || strcmp(P.id, p->id)) {
		v->offset = v->lineno = 0;
		v->col = 0;
	}
	snprintf(P.id, sizeof(P.id), "%s", p ? p->id : "");
	P.patch = p;
	v->lines = P.n;
	P.mark = SIZE_MAX;
	if (P.goto_file && p) {
		P.mark = find_line(P.goto_file, P.goto_line);
		if (P.mark != SIZE_MAX)
			v->offset = P.mark > 3 ? P.mark - 3 : 0;
	}
	free(P.goto_file);
	P.goto_file = NULL;
}

static void patch_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	const struct pline *l = &P.lines[lineno];
	(void)v;
	d->selected = lineno == P.mark;
	if (l->type == PL_META || l->type == PL_TAGS)
		draw_text(d, ELEM_META, l->text, l->label);
	if (l->type == PL_TAGS) {
		for (size_t i = 0; i < P.patch->ntags; i++) {
			draw_tag(d, tag_names[P.patch->tag_order[i]]);
			draw_text(d, ELEM_DEFAULT, " ", 1);
		}
		for (size_t i = 0; i < P.patch->nextra_tags; i++) {
			draw_tag(d, P.patch->extra_tags[i]);
			draw_text(d, ELEM_DEFAULT, " ", 1);
		}
		return;
	}
	draw_matches(d, (enum theme_elem)l->elem, l->text + l->label, view_search_regex());
	if (d->selected)
		draw_fill(d, ELEM_CURSOR);
	else if (l->elem == ELEM_DIFF_FILE)
		draw_fill(d, ELEM_DIFF_FILE);
}

static void patch_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	size_t shown, pos = stack_view_position(&shown);
	if (!P.patch)
		return;
	/* the patch's own number, as the stack's index column has it */
	const struct stack *st = stack_view_stack();
	size_t total = st ? st->npatches : shown;
	if (shown == total)
		sb_addf(sb, "%zu/%zu", P.patch->index, total);
	else
		sb_addf(sb, "%zu (%zu/%zu shown)", P.patch->index, pos, shown);
	sb_addf(sb, " %.8s %s", P.patch->id, P.patch->title ? P.patch->title : P.patch->subject);
}

static bool patch_request(struct view *v, int action)
{
	(void)v;
	switch (action) {
	case ACT_NEXT_PATCH:
	case ACT_PREV_PATCH:
		/* moves the stack's cursor, whose select() reloads this view */
		if (!stack_view_step(action == ACT_NEXT_PATCH ? 1 : -1))
			report("%s patch", action == ACT_NEXT_PATCH ? "last" : "first");
		return true;
	case ACT_ENTER:
		return true;
	}
	return false;
}

static bool patch_grep(struct view *v, size_t lineno, const regex_t *re)
{
	(void)v;
	return regexec(re, P.lines[lineno].text, 0, NULL, 0) == 0;
}

/* The stack's status bar: the patch shown is its selected one. */
static void patch_status(struct view *v, struct strbuf *sb)
{
	(void)v;
	stack_view.ops->status(&stack_view, sb);
}

static const struct view_ops patch_ops = {
    .name = "patch",
    .scope = SCOPE_PATCH,
    .open = patch_open,
    .draw = patch_draw,
    .title = patch_title,
    .request = patch_request,
    .grep = patch_grep,
    .status = patch_status,
};

struct view patch_view = {.ops = &patch_ops};

void patch_view_free(void)
{
	sb_free(&P.buf);
	free(P.offsets);
	free(P.info);
	free(P.lines);
	free(P.goto_file);
	memset(&P, 0, sizeof(P));
	P.mark = SIZE_MAX;
}
