/* The warnings view: GCC against Clang for one build (klang diag diff),
 * grouped by the group rules, filtered by side (s cycles clang-only,
 * gcc-only, both, all). Enter opens a source pane below with the lines
 * around the warning and its notes; e opens $EDITOR on the line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/group.h"
#include "tui/prompt.h"
#include "tui/views.h"

static struct {
	const char *gcc_log, *clang_log, *repo;
	char *gcc_path, *clang_path; /* the logs in use */
	struct diag_set *s[2];
	struct diag_diff dd;
	struct diag_families *fam;
	struct diag_group *groups;
	size_t ngroups;
	int side; /* enum diag_side; DIAG_SIDE_NONE = all */
	/* rows: a group header (diag NULL) or a diagnostic */
	struct wrow {
		const struct diag_group *g;
		const struct diag *d;
		size_t count;
	} *rows;
	size_t nrows, cap;
	bool loaded;
	const struct diag *shown; /* in the source pane */
} W;

void warnings_set_logs(const char *gcc_log, const char *clang_log, const char *repo)
{
	W.gcc_log = gcc_log;
	W.clang_log = clang_log;
	W.repo = repo;
	W.side = DIAG_SIDE_CLANG_ONLY;
}

static void unload(void)
{
	group_collect_free(W.groups, W.ngroups);
	W.groups = NULL;
	W.ngroups = 0;
	diag_diff_free(&W.dd);
	memset(&W.dd, 0, sizeof(W.dd));
	diag_families_free(W.fam);
	W.fam = NULL;
	for (int i = 0; i < 2; i++) {
		if (W.s[i])
			diag_set_free(W.s[i]);
		W.s[i] = NULL;
	}
	free(W.gcc_path);
	free(W.clang_path);
	W.gcc_path = W.clang_path = NULL;
	W.loaded = false;
	W.shown = NULL;
}

static void src_clear(void);

void warnings_view_free(void)
{
	src_clear();
	unload();
	free(W.rows);
	W.rows = NULL;
	W.nrows = W.cap = 0;
}

/* The newest build log of a toolchain under <repo>/.klang/out/. */
static char *find_log(const char *tc)
{
	static const char *const arches[] = {"x86_64", "arm64"};
	const char *repo = W.repo ? W.repo : ".";
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++) {
		char *p = xasprintf("%s/.klang/out/%s-%s/build.log", repo, arches[i], tc);
		if (file_exists(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Parse, annotate and diff as `klang diag diff --gcc G --clang C` does. */
static int load(struct kerr *e)
{
	W.gcc_path = W.gcc_log ? xstrdup(W.gcc_log) : find_log("gcc");
	W.clang_path = W.clang_log ? xstrdup(W.clang_log) : find_log("llvm");
	if (!W.gcc_path || !W.clang_path)
		return kerr_set(e, "no build logs: give --gcc-log and --clang-log, or run the builds");
	W.s[0] = diag_set_new();
	W.s[1] = diag_set_new();
	struct diag_parser_opts og = {.cc = DIAG_CC_GCC}, oc = {.cc = DIAG_CC_CLANG};
	if (diag_parse_file(W.s[0], W.gcc_path, &og, e) ||
	    diag_parse_file(W.s[1], W.clang_path, &oc, e))
		return -1;
	W.fam = diag_families_default(W.repo, NULL, e);
	if (!W.fam)
		return -1;
	struct group_rules *rules = group_rules_default(W.repo, NULL, e);
	if (!rules)
		return -1;
	for (int i = 0; i < 2; i++) {
		diag_families_apply(W.fam, W.s[i]);
		group_apply(rules, W.s[i]);
	}
	group_rules_free(rules);
	bool one = true;
	for (int k = 0; k < 2; k++)
		for (size_t i = 1; i < diag_set_size(W.s[k]); i++)
			if (strcmp(diag_set_get(W.s[k], i)->arch, diag_set_get(W.s[k], 0)->arch))
				one = false;
	diag_diff_compilers(W.s[0], W.s[1], W.fam, one, &W.dd);
	W.loaded = true;
	return 0;
}

static const char *side_name(int side)
{
	return side == DIAG_SIDE_NONE ? "all" : diag_side_name((enum diag_side)side);
}

static void add_row(const struct diag_group *g, const struct diag *d)
{
	ALLOC_GROW(W.rows, W.nrows + 1, W.cap);
	W.rows[W.nrows++] = (struct wrow){.g = g, .d = d};
}

/* Rows of the groups, only the diagnostics of the side shown. */
static void build_rows(void)
{
	group_collect_free(W.groups, W.ngroups);
	struct diag **pick = xmalloc((W.dd.n + 1) * sizeof(*pick));
	size_t n = 0;
	for (size_t i = 0; i < W.dd.n; i++)
		if (W.side == DIAG_SIDE_NONE || (int)W.dd.rows[i]->side == W.side)
			pick[n++] = W.dd.rows[i];
	W.groups = group_collect(pick, n, &W.ngroups);
	free(pick);
	W.nrows = 0;
	for (size_t i = 0; i < W.ngroups; i++) {
		add_row(&W.groups[i], NULL);
		W.rows[W.nrows - 1].count = W.groups[i].n;
		for (size_t k = 0; k < W.groups[i].n; k++)
			add_row(&W.groups[i], W.groups[i].diags[k]);
	}
}

static void warnings_open(struct view *v)
{
	struct kerr e;
	if (!W.loaded) {
		unload();
		if (load(&e)) {
			report_error("%s", e.msg);
			unload();
		}
	}
	W.nrows = 0;
	if (W.loaded)
		build_rows();
	v->lines = W.nrows;
	view_fix_position(v);
}

static void diag_line(const struct diag *d, struct strbuf *sb)
{
	sb_addf(sb, "  %-10s %s:%u:%u %s %s", diag_side_name(d->side), d->loc.file, d->loc.line,
		d->loc.col, d->flag, d->message);
}

static void warnings_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	(void)v;
	const struct wrow *r = &W.rows[lineno];
	struct strbuf sb = STRBUF_INIT;
	if (!r->d) {
		sb_addf(&sb, "%s (%zu)", r->g->name, r->count);
		draw_text(d, ELEM_HEADER, sb_str(&sb), -1);
	} else {
		diag_line(r->d, &sb);
		draw_text(d, r->d->side == DIAG_SIDE_CLANG_ONLY ? ELEM_WARNING : ELEM_DEFAULT,
			  sb_str(&sb), -1);
	}
	sb_free(&sb);
}

static void warnings_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	sb_addf(sb, "%s: %lu clang-only, %lu gcc-only, %lu both", side_name(W.side),
		W.dd.clang_only, W.dd.gcc_only, W.dd.both);
}

static bool warnings_grep(struct view *v, size_t lineno, const regex_t *re)
{
	(void)v;
	struct strbuf sb = STRBUF_INIT;
	const struct wrow *r = &W.rows[lineno];
	if (r->d)
		diag_line(r->d, &sb);
	else
		sb_adds(&sb, r->g->name);
	bool m = !regexec(re, sb_str(&sb), 0, NULL, 0);
	sb_free(&sb);
	return m;
}

static const struct diag *selected(struct view *v)
{
	return v->lineno < W.nrows ? W.rows[v->lineno].d : NULL;
}

static void warnings_select(struct view *v)
{
	const struct diag *d = selected(v);
	if (d && view_displayed(&source_view)) {
		W.shown = d;
		view_reload(&source_view);
	}
}

static char *source_path(const struct diag *d)
{
	if (d->loc.file[0] == '/')
		return xstrdup(d->loc.file);
	return xasprintf("%s/%s", W.repo ? W.repo : ".", d->loc.file);
}

static void edit(const struct diag *d)
{
	const char *ed = getenv("EDITOR");
	char *path = source_path(d);
	char *cmd = xasprintf("%s +%u '%s'", ed && *ed ? ed : "vi", d->loc.line, path);
	def_prog_mode();
	endwin();
	int rc = system(cmd);
	reset_prog_mode();
	refresh();
	if (rc)
		report("%s exited with %d", ed && *ed ? ed : "vi", rc);
	free(cmd);
	free(path);
}

static bool warnings_request(struct view *v, int action)
{
	const struct diag *d = selected(v);
	switch (action) {
	case ACT_WARN_SIDE:
		W.side = (W.side + 1) % 4;
		W.shown = NULL;
		view_reload(v);
		report("showing %s", side_name(W.side));
		return true;
	case ACT_ENTER:
		if (!d)
			return true;
		W.shown = d;
		view_open(&source_view, OPEN_SPLIT);
		view_reload(&source_view);
		return true;
	case ACT_WARN_EDIT:
		if (d)
			edit(d);
		return true;
	default:
		return false;
	}
}

static void warnings_status(struct view *v, struct strbuf *sb)
{
	const struct diag *d = selected(v);
	if (d)
		sb_addf(sb, "%s, %u occurrence(s)", d->group, d->occurrences);
	else if (W.loaded)
		sb_addf(sb, "gcc: %s  clang: %s", W.gcc_path, W.clang_path);
}

static const struct view_ops warnings_ops = {
	.name = "warnings",
	.scope = SCOPE_WARNINGS,
	.flags = VIEW_CURSOR,
	.open = warnings_open,
	.draw = warnings_draw,
	.title = warnings_title,
	.request = warnings_request,
	.select = warnings_select,
	.grep = warnings_grep,
	.status = warnings_status,
};

struct view warnings_view = {.ops = &warnings_ops};

/* ---- the source pane ---- */

static struct {
	char **lines;
	size_t n;
	size_t mark; /* the warning's line among them */
} S;

static void src_add(char *line)
{
	S.lines = xrealloc(S.lines, (S.n + 1) * sizeof(*S.lines));
	S.lines[S.n++] = line;
}

static void src_clear(void)
{
	for (size_t i = 0; i < S.n; i++)
		free(S.lines[i]);
	free(S.lines);
	S.lines = NULL;
	S.n = 0;
}

static void source_open(struct view *v)
{
	src_clear();
	const struct diag *d = W.shown;
	S.mark = (size_t)-1;
	if (d) {
		struct kerr e;
		size_t len = 0;
		char *path = source_path(d);
		char *text = file_exists(path) ? read_file(path, &len, &e) : NULL;
		src_add(xasprintf("%s:%u:%u: %s [%s]", d->loc.file, d->loc.line, d->loc.col,
				  d->message, d->flag));
		if (!text)
			src_add(xasprintf("(%s: not in the work tree)", path));
		unsigned ln = 1;
		for (char *s = text; s && *s && ln <= d->loc.line + 10; ln++) {
			char *nl = strchr(s, '\n');
			int l = nl ? (int)(nl - s) : (int)strlen(s);
			if (ln + 10 >= d->loc.line) {
				if (ln == d->loc.line)
					S.mark = S.n;
				src_add(xasprintf("%c%6u  %.*s", ln == d->loc.line ? '>' : ' ', ln,
						  l, s));
			}
			s = nl ? nl + 1 : s + l;
		}
		for (size_t i = 0; i < d->nnotes; i++) {
			const struct diag_note *no = &d->notes[i];
			src_add(xasprintf("note: %s:%u:%u: %s", no->loc.file, no->loc.line,
					  no->loc.col, no->msg ? no->msg : ""));
		}
		free(text);
		free(path);
	}
	v->lines = S.n;
	view_fix_position(v);
}

static void source_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	(void)v;
	enum theme_elem e = lineno == S.mark		    ? ELEM_WARNING
			    : !strncmp(S.lines[lineno], "note:", 5) ? ELEM_NOTE
			    : lineno == 0			    ? ELEM_HEADER
								    : ELEM_DEFAULT;
	draw_text(d, e, S.lines[lineno], -1);
}

static bool source_request(struct view *v, int action)
{
	(void)v;
	if (action == ACT_WARN_EDIT && W.shown) {
		edit(W.shown);
		return true;
	}
	if (action == ACT_WARN_SIDE)
		return warnings_request(&warnings_view, action);
	return false;
}

static const struct view_ops source_ops = {
	.name = "source",
	.scope = SCOPE_WARNINGS,
	.open = source_open,
	.draw = source_draw,
	.request = source_request,
};

struct view source_view = {.ops = &source_ops};
