/* The tag picker: every tag of the stack with its count and a check box;
 * toggling one filters the stack view above it at once. */
#include "tui/views.h"

static void tags_open(struct view *v)
{
	v->lines = stack_filter_slots();
}

static void tags_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	(void)v;
	const char *name = stack_filter_name(lineno);
	draw_text(d, ELEM_CHECKBOX, stack_filter_on(lineno) ? "[x] " : "[ ] ", 4);
	int start = d->col;
	if (lineno + 1 == stack_filter_slots())
		draw_textf(d, ELEM_DEFAULT, " %s", name);
	else
		draw_tag(d, name);
	draw_pad_to(d, ELEM_DEFAULT, start + 14);
	draw_textf(d, ELEM_INDEX, "%6zu", stack_filter_patches(lineno));
}

static void tags_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	sb_adds(sb, "tags to show: <Space> or <Enter> toggles, T clears, q closes");
}

static bool tags_request(struct view *v, int action)
{
	switch (action) {
	case ACT_TOGGLE:
	case ACT_ENTER:
		stack_filter_toggle(v->lineno);
		return true;
	case ACT_FILTER_CLEAR:
		stack_filter_clear();
		return true;
	}
	int tag = action_tag(action);
	if (tag >= 0) {
		stack_filter_toggle((size_t)tag);
		return true;
	}
	return false;
}

static bool tags_grep(struct view *v, size_t lineno, const regex_t *re)
{
	(void)v;
	return regexec(re, stack_filter_name(lineno), 0, NULL, 0) == 0;
}

static const struct view_ops tags_ops = {
    .name = "tags",
    .scope = SCOPE_TAGS,
    .flags = VIEW_CURSOR,
    .open = tags_open,
    .draw = tags_draw,
    .title = tags_title,
    .request = tags_request,
    .grep = tags_grep,
};

struct view tags_view = {.ops = &tags_ops};
