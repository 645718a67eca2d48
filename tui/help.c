/* The help view: every action of the action table with its keys and help
 * text, grouped by scope. Generated from the same table as the key map, so
 * the two cannot drift. */
#include <stdlib.h>
#include <string.h>

#include "tui/views.h"

struct help_line {
	int scope;  /* a group title when action is ACT_NONE; -1 a blank line */
	int action; /* negative: only the keys of -action (too long for the column) */
	char *keys;
};

static struct help_line *lines;
static size_t nlines;
/* Per scope, the widest keys (that stay in their column) and action name:
 * the columns of its section. */
static int keys_w[SCOPE_COUNT], name_w[SCOPE_COUNT];

void help_view_free(void)
{
	for (size_t i = 0; i < nlines; i++)
		free(lines[i].keys);
	free(lines);
	lines = NULL;
	nlines = 0;
}

#define KEYS_WIDTH 22

static void add_line(int scope, int action, char *keys)
{
	lines = xrealloc(lines, (nlines + 1) * sizeof(*lines));
	lines[nlines++] = (struct help_line){scope, action, keys};
}

static void add(int scope, int action)
{
	struct strbuf sb = STRBUF_INIT;
	if (action != ACT_NONE)
		keys_describe(action, &sb);
	/* keys too long for their column get a line of their own */
	if (sb.len >= KEYS_WIDTH) {
		add_line(scope, -action, sb_detach(&sb));
		add_line(scope, action, xstrdup(""));
	} else {
		add_line(scope, action, sb_detach(&sb));
	}
}

static void help_open(struct view *v)
{
	help_view_free();
	for (int s = 0; s < SCOPE_COUNT; s++) {
		size_t title = nlines;
		for (int a = ACT_NONE + 1; a < ACT_END; a++) {
			if ((int)action_info(a)->scope != s)
				continue;
			/* a scope with no action of its own (its keys are shown
			 * under Everywhere) gets no title either */
			if (nlines == title) {
				if (nlines)
					add(-1, ACT_NONE);
				add(s, ACT_NONE);
			}
			add(s, a);
		}
	}
	memset(keys_w, 0, sizeof(keys_w));
	memset(name_w, 0, sizeof(name_w));
	for (size_t i = 0; i < nlines; i++) {
		const struct help_line *l = &lines[i];
		if (l->scope < 0 || l->action <= ACT_NONE)
			continue;
		int kw = text_width(l->keys, -1), nw = text_width(action_info(l->action)->name, -1);
		keys_w[l->scope] = kw > keys_w[l->scope] ? kw : keys_w[l->scope];
		name_w[l->scope] = nw > name_w[l->scope] ? nw : name_w[l->scope];
	}
	v->lines = nlines;
}

static void help_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	const struct help_line *l = &lines[lineno];
	(void)v;
	if (l->scope < 0)
		return;
	if (l->action < 0) {
		draw_text(d, ELEM_DEFAULT, "  ", 2);
		draw_text(d, ELEM_HELP_KEY, l->keys, -1);
		return;
	}
	if (l->action == ACT_NONE) {
		draw_text(d, ELEM_HELP_GROUP, scope_titles[l->scope], -1);
		return;
	}
	const struct action_info *ai = action_info(l->action);
	draw_text(d, ELEM_DEFAULT, "  ", 2);
	draw_text(d, ELEM_HELP_KEY, l->keys, -1);
	draw_pad_to(d, ELEM_DEFAULT, 2 + keys_w[l->scope] + 2);
	draw_text(d, ELEM_DEFAULT, ai->name, -1);
	draw_pad_to(d, ELEM_DEFAULT, 2 + keys_w[l->scope] + 2 + name_w[l->scope] + 2);
	draw_matches(d, ELEM_DEFAULT, ai->help, view_search_regex());
}

static void help_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	sb_adds(sb, "keys (q to close)");
}

static bool help_request(struct view *v, int action)
{
	(void)v;
	if (action == ACT_HELP) {
		ui_action(ACT_QUIT);
		return true;
	}
	return false;
}

static bool help_grep(struct view *v, size_t lineno, const regex_t *re)
{
	(void)v;
	const struct help_line *l = &lines[lineno];
	if (l->action < 0)
		return regexec(re, l->keys, 0, NULL, 0) == 0;
	if (l->action == ACT_NONE)
		return l->scope >= 0 && regexec(re, scope_titles[l->scope], 0, NULL, 0) == 0;
	const struct action_info *ai = action_info(l->action);
	return regexec(re, ai->name, 0, NULL, 0) == 0 || regexec(re, ai->help, 0, NULL, 0) == 0 ||
	       regexec(re, l->keys, 0, NULL, 0) == 0;
}

static const struct view_ops help_ops = {
    .name = "help",
    .scope = SCOPE_HELP,
    .open = help_open,
    .draw = help_draw,
    .title = help_title,
    .request = help_request,
    .grep = help_grep,
};

struct view help_view = {.ops = &help_ops};
