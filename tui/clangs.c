/* The Clang picker: every clang found on PATH (version, vendor, path), a few
 * common versions to compare against even with one clang installed, and a
 * line to type any version. Picking one decides the series again at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tui/prompt.h"
#include "tui/series.h"
#include "tui/views.h"

enum entry_kind { ENTRY_FOUND, ENTRY_COMMON, ENTRY_TYPE };

struct entry {
	enum entry_kind kind;
	size_t found;		/* ENTRY_FOUND: index in the found list */
	struct clang_version v; /* ENTRY_COMMON */
};

static const char *const common_versions[] = {"5", "9", "12", "14", "16", "19"};

static struct entry *entries;
static size_t nentries;

/* How a found clang is named as the target: "clang-14, Debian". */
static char *found_from(const struct clang_found *f)
{
	return xasprintf("%s%s%s", f->name, f->v.vendor[0] ? ", " : "", f->v.vendor);
}

static bool is_current(const struct entry *en)
{
	const char *from;
	const struct clang_version *cur = series_tui_target(&from);
	size_t n;
	const struct clang_found *found = series_tui_found(&n);
	if (!cur || en->kind == ENTRY_TYPE)
		return false;
	if (en->kind == ENTRY_COMMON)
		return !strcmp(from, "picked") && !clangver_cmp(cur, &en->v);
	char *f = found_from(&found[en->found]);
	bool same = !strcmp(f, from);
	free(f);
	return same;
}

static void clangs_open(struct view *v)
{
	size_t n;
	series_tui_found(&n);
	free(entries);
	nentries = n + ARRAY_SIZE(common_versions) + 1;
	entries = xcalloc(nentries, sizeof(*entries));
	for (size_t i = 0; i < n; i++)
		entries[i] = (struct entry){.kind = ENTRY_FOUND, .found = i};
	for (size_t i = 0; i < ARRAY_SIZE(common_versions); i++) {
		entries[n + i].kind = ENTRY_COMMON;
		clangver_parse(common_versions[i], &entries[n + i].v);
	}
	entries[nentries - 1].kind = ENTRY_TYPE;
	v->lines = nentries;
	v->lineno = 0;
	for (size_t i = 0; i < nentries; i++)
		if (is_current(&entries[i]))
			v->lineno = i;
}

static void clangs_layout(struct view *v)
{
	v->nheader = 1;
}

#define COL_VERSION 14
#define COL_VENDOR 26
#define COL_WHERE 40

static void clangs_header(struct view *v, struct line_draw *d, int row)
{
	(void)v, (void)row;
	draw_text(d, ELEM_HEADER, "  clang", -1);
	draw_pad_to(d, ELEM_HEADER, COL_VERSION);
	draw_text(d, ELEM_HEADER, "version", -1);
	draw_pad_to(d, ELEM_HEADER, COL_VENDOR);
	draw_text(d, ELEM_HEADER, "vendor", -1);
	draw_pad_to(d, ELEM_HEADER, COL_WHERE);
	draw_text(d, ELEM_HEADER, "where", -1);
	draw_fill(d, ELEM_HEADER);
}

/* The clangs found with the same major version: "clang, clang-14". */
static void installed_as(const struct clang_version *v, struct strbuf *sb)
{
	size_t n;
	const struct clang_found *f = series_tui_found(&n);
	for (size_t i = 0; i < n; i++)
		if (!f[i].error && !f[i].v.apple && f[i].v.major == v->major)
			sb_addf(sb, "%s%s", sb->len ? ", " : "", f[i].name);
}

static void clangs_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	const struct entry *en = &entries[lineno];
	char b[32];
	(void)v;
	draw_text(d, ELEM_CHECKBOX, is_current(en) ? "* " : "  ", 2);
	if (en->kind == ENTRY_TYPE) {
		draw_text(d, ELEM_DEFAULT, "type a version…", -1);
		return;
	}
	if (en->kind == ENTRY_COMMON) {
		struct strbuf sb = STRBUF_INIT;
		installed_as(&en->v, &sb);
		draw_pad_to(d, ELEM_DEFAULT, COL_VERSION);
		draw_text(d, ELEM_DEFAULT, clangver_str_short(&en->v, b, sizeof(b)), -1);
		draw_pad_to(d, ELEM_DEFAULT, COL_WHERE);
		if (sb.len)
			draw_textf(d, ELEM_OK, "installed: %s", sb.buf);
		else
			draw_text(d, ELEM_NOTE, "not installed", -1);
		sb_free(&sb);
		return;
	}
	size_t n;
	const struct clang_found *f = &series_tui_found(&n)[en->found];
	draw_text(d, ELEM_DEFAULT, f->name, -1);
	draw_pad_to(d, ELEM_DEFAULT, COL_VERSION);
	if (f->error) {
		draw_text(d, ELEM_ERROR, f->error, -1);
		return;
	}
	draw_textf(d, ELEM_DEFAULT, "%s%s", f->v.apple ? "Apple " : "",
		   clangver_str(&f->v, b, sizeof(b)));
	draw_pad_to(d, ELEM_DEFAULT, COL_VENDOR);
	draw_text(d, ELEM_DEFAULT, f->v.vendor, -1);
	draw_pad_to(d, ELEM_DEFAULT, COL_WHERE);
	const char *home = getenv("HOME");
	size_t hl = home ? strlen(home) : 0;
	if (hl > 1 && !strncmp(f->path, home, hl) && f->path[hl] == '/')
		draw_textf(d, ELEM_META, "~%s", f->path + hl);
	else
		draw_text(d, ELEM_META, f->path, -1);
}

static void clangs_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	sb_adds(sb, "Clang to decide for: <Enter> picks, <Space> tries, c closes");
}

static void close_picker(void)
{
	if (view_focused() == &clang_view)
		ui_action(ACT_QUIT);
}

static void typed(const char *text, void *data)
{
	struct clang_version v;
	if (!text || !*text)
		return;
	if (clangver_parse(text, &v) < 0) {
		report_error("'%s' is not a Clang version (5, 14, 14.0.6)", text);
		return;
	}
	series_tui_set_target(&v, "typed");
	if (data)
		close_picker();
}

static void pick(const struct entry *en, bool close)
{
	size_t n;
	const struct clang_found *found = series_tui_found(&n);
	if (en->kind == ENTRY_TYPE) {
		prompt_open("Clang version: ", typed, close ? (void *)&clang_view : NULL);
		return;
	}
	if (en->kind == ENTRY_COMMON) {
		series_tui_set_target(&en->v, "picked");
	} else {
		const struct clang_found *f = &found[en->found];
		char b[32];
		if (f->error) {
			report_error("%s: %s", f->path, f->error);
			return;
		}
		if (f->v.apple) {
			report_error(
			    "%s is Apple clang %s: Apple's numbers are not LLVM's; type the "
			    "LLVM version instead",
			    f->path, clangver_str(&f->v, b, sizeof(b)));
			return;
		}
		char *from = found_from(f);
		series_tui_set_target(&f->v, from);
		free(from);
	}
	if (close)
		close_picker();
}

static bool clangs_request(struct view *v, int action)
{
	if (!v->lines)
		return false;
	switch (action) {
	case ACT_SERIES_PICK:
	case ACT_ENTER:
		pick(&entries[v->lineno], true);
		return true;
	case ACT_SERIES_TRY:
		pick(&entries[v->lineno], false);
		return true;
	}
	return false;
}

static bool clangs_grep(struct view *v, size_t lineno, const regex_t *re)
{
	const struct entry *en = &entries[lineno];
	size_t n;
	char b[32];
	(void)v;
	if (en->kind == ENTRY_TYPE)
		return regexec(re, "type a version", 0, NULL, 0) == 0;
	if (en->kind == ENTRY_COMMON)
		return regexec(re, clangver_str_short(&en->v, b, sizeof(b)), 0, NULL, 0) == 0;
	const struct clang_found *f = &series_tui_found(&n)[en->found];
	return regexec(re, f->name, 0, NULL, 0) == 0 || regexec(re, f->path, 0, NULL, 0) == 0 ||
	       (!f->error && regexec(re, clangver_str(&f->v, b, sizeof(b)), 0, NULL, 0) == 0);
}

static const struct view_ops clangs_ops = {
    .name = "clang",
    .scope = SCOPE_CLANG,
    .flags = VIEW_CURSOR,
    .open = clangs_open,
    .draw = clangs_draw,
    .draw_header = clangs_header,
    .layout = clangs_layout,
    .title = clangs_title,
    .request = clangs_request,
    .grep = clangs_grep,
};

struct view clang_view = {.ops = &clangs_ops};

void clang_view_free(void)
{
	free(entries);
	entries = NULL;
	nentries = 0;
}
