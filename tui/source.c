/* The source pane under the warnings view: the lines around a diagnostic
 * with its column marked, then its notes, macro expansions and include
 * chain as entries. Enter on an entry shows the lines around that place
 * (Enter on the first line goes back to the diagnostic); e opens $EDITOR
 * on the place under the cursor, B the patch that last changed it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blame.h"
#include "core/diagout.h"
#include "core/kbuild.h"
#include "tui/links.h"
#include "tui/prompt.h"

#include "tui/views.h"
#include "tui/warnings.h"

#define CONTEXT 6

enum src_kind { SRC_HEADER, SRC_TEXT, SRC_MARK, SRC_CARET, SRC_ENTRY };

struct src_line {
	enum src_kind kind;
	char *text;
	struct diag_loc at; /* SRC_ENTRY: where it points; SRC_TEXT/MARK: the line */
};

static struct {
	struct src_line *lines;
	size_t n, cap;
	const struct diag *d; /* whose entries are listed */
	struct diag_loc at;   /* the place shown */
	int width;	      /* the header was wrapped for */
	struct diag_loc here; /* the lines shown: at, or where a .config sets it */
	char *config;	      /* a Kconfig diagnostic's .config, shown instead */
} S;

static void add(enum src_kind kind, struct diag_loc at, char *text)
{
	ALLOC_GROW(S.lines, S.n + 1, S.cap);
	S.lines[S.n++] = (struct src_line){kind, text, at};
}

static void src_clear(void)
{
	for (size_t i = 0; i < S.n; i++)
		free(S.lines[i].text);
	S.n = 0;
}

void source_pane_free(void)
{
	src_clear();
	free(S.lines);
	free(S.config);
	memset(&S, 0, sizeof(S));
}

char *warnings_source_path(const char *file)
{
	if (file[0] == '/')
		return xstrdup(file);
	return xasprintf("%s/%s", warnings_repo(), file);
}

static const char *editor_cmd;

void warnings_set_editor(const char *cmd)
{
	editor_cmd = cmd;
}

void warnings_edit(const char *file, unsigned line)
{
	const char *ed = editor_cmd && *editor_cmd ? editor_cmd : getenv("EDITOR");
	ed = ed && *ed ? ed : "vi";
	char *path = warnings_source_path(file);
	char *cmd = xasprintf("%s +%u '%s'", ed, line ? line : 1, path);
	def_prog_mode();
	endwin();
	int rc = system(cmd);
	reset_prog_mode();
	ui_resume();
	if (rc)
		report_error("%s exited with %d", ed, rc);
	free(cmd);
	free(path);
}

/* Select the patch with this commit in the stack view (not shown: B opens
 * it below the warnings), clearing tag filters that hide it. */
static bool show_patch(const struct patch *p)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t shown;
		stack_view_position(&shown);
		for (size_t i = 0; i < shown; i++) {
			view_select_line(&stack_view, i);
			if (stack_view_selected() == p)
				return true;
		}
		stack_filter_clear();
	}
	return false;
}

void warnings_blame(const char *file, unsigned line)
{
	struct stack *st = stack_view_stack();
	struct kerr e;
	char id[41];
	if (!st || !st->repo) {
		report_error("no git stack to blame in");
		return;
	}
	if (!line || file[0] == '/' || !*file) {
		report_error("%s: not a file of the work tree", *file ? file : "-");
		return;
	}
	int rc = blame_line(st->repo, file, line, st->base_id, st->head_id, id, &e);
	if (rc < 0) {
		report_error("%s", e.msg);
		return;
	}
	if (rc > 0) {
		report("%s:%u: not touched by the stack (from %.12s or earlier)", file, line,
		       st->base_ref ? st->base_ref : st->base_id);
		return;
	}
	struct patch *p = stack_find(st, id);
	if (!p || !show_patch(p)) {
		report("%s:%u: last changed by %.12s, not a patch of the stack", file, line, id);
		return;
	}
	patch_view_goto(file, line);
	/* below the warnings (from the source pane too): q goes back to them,
	 * 1 to the stack, where the patch is selected */
	view_open(&warnings_view, OPEN_FULL);
	view_open(&patch_view, OPEN_SPLIT);
	report("%s:%u: last changed by patch %zu %.12s", file, line, p->index, id);
}

/* A source line with tabs expanded (8 wide), and the screen column of byte
 * column `col` (1-based) in it. */
static char *expand(const char *s, int len, unsigned col, int *caret)
{
	struct strbuf sb = STRBUF_INIT;
	*caret = -1;
	for (int i = 0; i < len; i++) {
		if ((unsigned)i + 1 == col)
			*caret = (int)sb.len;
		if (s[i] == '\t')
			do
				sb_adds(&sb, " ");
			while (sb.len % 8);
		else
			sb_addf(&sb, "%c", s[i]);
	}
	if (*caret < 0 && col)
		*caret = (int)sb.len;
	return sb_detach(&sb);
}

/* The lines around `at`, the line itself marked, a caret under its column. */
static void add_context(struct diag_loc at)
{
	struct kerr e;
	char *path = warnings_source_path(at.file);
	char *text = *at.file && file_exists(path) ? read_file(path, NULL, &e) : NULL;
	if (!text)
		add(SRC_TEXT, at, xasprintf("(%s: not in the work tree)", path));
	unsigned ln = 1;
	for (char *s = text; s && *s && ln <= at.line + CONTEXT; ln++) {
		char *nl = strchr(s, '\n');
		int l = nl ? (int)(nl - s) : (int)strlen(s);
		if (ln + CONTEXT >= at.line) {
			int caret;
			char *src = expand(s, l, ln == at.line ? at.col : 0, &caret);
			struct diag_loc here = {at.file, ln, 0};
			add(ln == at.line ? SRC_MARK : SRC_TEXT, here,
			    xasprintf("%c%6u  %s", ln == at.line ? '>' : ' ', ln, src));
			if (ln == at.line && caret >= 0)
				add(SRC_CARET, here, xasprintf("%*s^", caret + 9, ""));
			free(src);
		}
		s = nl ? nl + 1 : s + l;
	}
	free(text);
	free(path);
}

static const char *note_label(const struct diag_note *no)
{
	switch (no->kind) {
	case DIAG_NOTE_IN_EXPANSION:
	case DIAG_NOTE_EXPANDED_FROM:
	case DIAG_NOTE_EXPANDED_HERE:
	case DIAG_NOTE_IN_DEFINITION:
		return "macro";
	case DIAG_NOTE_REFERENCE:
		return "referenced";
	default:
		return "note";
	}
}

/* The diagnostic's line, wrapped at the width of the pane (a long
 * message is what the warnings view cuts): at most 4 rows, the last one
 * holds the rest; rows after the first are indented. */
static void add_header(struct diag_loc at, const char *text, int width)
{
	const char *row[4];
	int len[4], n = width > 24 ? text_wrap(text, width - 3, row, len, 4) : 0;
	if (n == 4)
		len[3] = (int)strlen(row[3]);
	if (!n)
		row[0] = text, len[0] = (int)strlen(text), n = 1;
	for (int i = 0; i < n; i++)
		add(SRC_HEADER, at, xasprintf("%s%.*s", i ? "  " : "", len[i], row[i]));
	S.width = width;
}

/* A Kconfig diagnostic's place: the line of the build's .config that sets
 * the symbol it names (its own line is that of a config being merged,
 * gone since), else where it says. */
static struct diag_loc config_place(const struct diag *d)
{
	free(S.config);
	S.config = warnings_config_of(d);
	char *text = S.config ? read_file(S.config, NULL, &(struct kerr){0}) : NULL;
	unsigned line = text ? kbuild_config_line(text, d->message) : 0;
	free(text);
	if (!line)
		return d->loc;
	struct diag_loc at = {S.config, line, 0};
	add(SRC_HEADER, at,
	    xasprintf("showing %s:%u, where the build's .config sets it", S.config, line));
	return at;
}

static void source_open(struct view *v)
{
	const struct diag *d = warnings_shown();
	src_clear();
	if (d != S.d) {
		S.d = d;
		S.at = d ? d->loc : (struct diag_loc){"", 0, 0};
	}
	S.here = S.at;
	if (d) {
		struct strbuf sb = STRBUF_INIT;
		diag_loc_text(&sb, &d->loc);
		sb_addf(&sb, ": %s [%s]%s%s", d->message, d->flag, d->triage_note ? "  note: " : "",
			d->triage_note ? d->triage_note : "");
		add_header(d->loc, sb_str(&sb), v->width);
		sb_reset(&sb);
		struct diag_loc at = S.at;
		if (S.at.line != d->loc.line || strcmp(S.at.file, d->loc.file))
			add(SRC_HEADER, S.at,
			    xasprintf("showing %s:%u (Enter on the first line goes back)",
				      S.at.file, S.at.line));
		else if (!strcmp(d->flag, "kconfig"))
			at = config_place(d);
		S.here = at;
		add_context(at);
		if (d->spell.line &&
		    (d->spell.line != d->loc.line || strcmp(d->spell.file, d->loc.file))) {
			sb_adds(&sb, "spelled at ");
			diag_loc_text(&sb, &d->spell);
			add(SRC_ENTRY, d->spell, sb_detach(&sb));
		}
		for (size_t i = 0; i < d->nnotes; i++) {
			const struct diag_note *no = &d->notes[i];
			sb_addf(&sb, "%s: ", note_label(no));
			diag_loc_text(&sb, &no->loc);
			sb_addf(&sb, ": %s", no->msg ? no->msg : "");
			add(SRC_ENTRY, no->loc, sb_detach(&sb));
		}
		for (size_t i = d->nincludes; i-- > 0;)
			add(SRC_ENTRY, d->includes[i],
			    xasprintf("included from %s:%u", d->includes[i].file,
				      d->includes[i].line));
		sb_free(&sb);
	}
	v->lines = S.n;
	view_fix_position(v);
}

static void source_layout(struct view *v)
{
	if (S.d && v->width != S.width)
		source_open(v);
}

static void source_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	(void)v;
	static const enum theme_elem elem[] = {
	    [SRC_HEADER] = ELEM_HEADER, [SRC_TEXT] = ELEM_DEFAULT, [SRC_MARK] = ELEM_WARNING,
	    [SRC_CARET] = ELEM_WARNING, [SRC_ENTRY] = ELEM_NOTE,
	};
	if (lineno < S.n) /* else emptied by a reload of the warnings */
		draw_text(d, elem[S.lines[lineno].kind], S.lines[lineno].text, -1);
}

static bool source_request(struct view *v, int action)
{
	const struct src_line *l = v->lineno < S.n ? &S.lines[v->lineno] : NULL;
	switch (action) {
	case ACT_WARN_EDIT:
		if (l && l->kind != SRC_HEADER && l->at.line)
			warnings_edit(l->at.file, l->at.line);
		else if (S.d)
			warnings_edit(S.here.file, S.here.line);
		return true;
	case ACT_ENTER:
		if (!l || !S.d)
			return true;
		if (l->kind == SRC_ENTRY && *l->at.file) {
			S.at = l->at;
		} else if (l->kind == SRC_HEADER) {
			S.at = S.d->loc;
		} else {
			return true;
		}
		v->lineno = 0;
		view_reload(v);
		return true;
	case ACT_WARN_BLAME:
		if (l && l->kind != SRC_HEADER && l->at.line)
			warnings_blame(l->at.file, l->at.line);
		else if (S.d)
			warnings_blame(S.here.file, S.here.line);
		return true;
	case ACT_COPY: /* the place under the cursor, else the warning's */
		if (S.d) {
			struct strbuf at = STRBUF_INIT;
			diag_loc_text(&at,
				      l && l->kind != SRC_HEADER && l->at.line ? &l->at : &S.here);
			tui_copy("location", sb_str(&at));
			sb_free(&at);
		}
		return true;
	case ACT_COPY_LINK:
	case ACT_WARN_SIDE:
	case ACT_WARN_ARCH:
	case ACT_WARN_STATUS_FILTER:
	case ACT_WARN_TEXT:
	case ACT_WARN_NEW:
	case ACT_WARN_CONFIRMED:
	case ACT_WARN_WONTFIX:
	case ACT_WARN_FALSE_POSITIVE:
	case ACT_WARN_FIXED:
	case ACT_WARN_NOTE:
		/* the warnings view's keys work from its pane too */
		return warnings_view.ops->request(&warnings_view, action);
	default:
		return false;
	}
}

static void source_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	if (S.d)
		sb_addf(sb, "%s:%u", S.here.file, S.here.line);
}

/* The warnings view's status bar: the pane shows its selected diagnostic. */
static void source_status(struct view *v, struct strbuf *sb)
{
	(void)v;
	warnings_view.ops->status(&warnings_view, sb);
}

static const struct view_ops source_ops = {
    .name = "source",
    .scope = SCOPE_WARNINGS,
    .flags = VIEW_CURSOR,
    .open = source_open,
    .title = source_title,
    .draw = source_draw,
    .layout = source_layout,
    .request = source_request,
    .status = source_status,
};

struct view source_view = {.ops = &source_ops};
