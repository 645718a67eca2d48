/* The copy keys and the link texts of the stack, patch and warnings views. */
#include "tui/links.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/links.h"
#include "core/osc52.h"
#include "tui/prompt.h"
#include "tui/views.h"

bool tui_copy(const char *what, const char *text)
{
	struct kerr e;
	/* the terminal: curses writes there too (headless: stdout, free) */
	if (osc52_copy(STDOUT_FILENO, text, &e) < 0) {
		report_error("not copied: %s", e.msg);
		return false;
	}
	report("copied %s: %s", what, text);
	return true;
}

void tui_patch_links_status(const struct patch *p, struct strbuf *sb)
{
	struct patch_link *v;
	size_t n = links_patch(p, &v);
	if (n)
		sb_addf(sb, "%s%s: %s", sb->len ? "  " : "", v[0].key, v[0].url);
	if (n > 1)
		sb_addf(sb, " +%zu", n - 1);
	free(v);
}

void tui_flag_link(const char *flag, struct strbuf *sb)
{
	char *url = links_cbl_issue_url(flag);
	sb_addf(sb, "ClangBuiltLinux issues: %s", url);
	free(url);
}

static bool patch_views(const struct view *v)
{
	return v == &stack_view || v == &patch_view;
}

static bool on_copy(struct view *v, int action, void *data)
{
	(void)action;
	(void)data;
	struct patch *p = stack_view_selected();
	if (!patch_views(v) || !p)
		return report("nothing to copy here"), true;
	tui_copy("patch id", p->id);
	return true;
}

/* Each press copies the patch's next link, from the first again. */
static bool on_copy_link(struct view *v, int action, void *data)
{
	static char last_id[41];
	static size_t next;
	(void)action;
	(void)data;
	struct patch *p = stack_view_selected();
	if (!patch_views(v) || !p)
		return report("no link here"), true;
	struct patch_link *links;
	size_t n = links_patch(p, &links);
	if (strcmp(last_id, p->id))
		next = 0;
	snprintf(last_id, sizeof(last_id), "%s", p->id);
	if (!n) {
		report("patch %zu has no Link:, Closes: or BugLink: trailer", p->index);
	} else {
		char *what = xasprintf("%s %zu/%zu", links[next % n].key, next % n + 1, n);
		tui_copy(what, links[next % n].url);
		free(what);
		next++;
	}
	free(links);
	return true;
}

void links_tui_init(void)
{
	action_set_handler(ACT_COPY, on_copy, NULL);
	action_set_handler(ACT_COPY_LINK, on_copy_link, NULL);
}
