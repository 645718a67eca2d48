/* The warnings view: GCC against Clang for the newest builds of each arch
 * (klang diag diff), as a foldable tree of groups, diagnostics (one row per
 * place, flag and message over the arches) and their occurrences (arch and
 * translation unit). Filters by side, arch, triage status and text; keys set
 * the triage status and note of a diagnostic or of a whole group (kept in
 * .klang/triage.yaml); B jumps to the patch of the stack that last touched
 * the line. The source pane below, e and B are in tui/source.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buildlogs.h"
#include "core/buildplan.h"
#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/diagout.h"
#include "core/links.h"
#include "core/group.h"
#include "core/strmap.h"
#include "core/triage.h"
#include "tui/links.h"
#include "tui/loop.h"
#include "tui/prompt.h"
#include "tui/views.h"
#include "tui/warnings.h"

#define STATUS_ALL (-1)
#define STATUS_OPEN (-2) /* new or confirmed */

/* A diagnostic row: the same place, flag, message and side on each arch. */
struct witem {
	struct diag **d;
	size_t n;
	unsigned occ;
	size_t arch_w; /* of its arches, comma-separated */
};

struct wgroup {
	const char *name;
	struct witem *items;
	size_t n;
	unsigned long occ;
};

enum row_kind { ROW_GROUP, ROW_DIAG, ROW_OCC };

struct wrow {
	enum row_kind kind;
	size_t g, i; /* group, item */
	size_t k, t; /* ROW_OCC: diagnostic of the item, its unit (or SIZE_MAX) */
};

static struct {
	const char *gcc_log, *clang_log, *repo;
	char *sig;   /* buildlogs_signature() of the logs in use */
	char *logs;  /* for the status bar */
	char *built; /* the builds compared: "x86_64 built; arm64 up to date, ..." */
	char **read; /* the logs read, whose directories hold their .config */
	size_t nread;
	struct diag_set *s[2];
	struct diag_diff dd;
	struct triage *tri;
	char *tri_path;
	const char **arches;
	size_t narches;
	bool loaded, tried, stale;
	bool reload_asked; /* R: say so once reloaded */
	int timer;
	/* filters */
	int side;    /* enum diag_side; DIAG_SIDE_NONE = all */
	size_t arch; /* 0 all, else arches[arch - 1] */
	int status;  /* STATUS_ALL, STATUS_OPEN or one */
	char *text;
	char *want_arch; /* warnings_show_arch(), applied when next opened */
	/* the tree */
	struct wgroup *groups;
	size_t ngroups, shown;
	unsigned long places[4];      /* per enum diag_side: items, their arches merged */
	struct strmap folds;	      /* "g:NAME" or "d:KEY" -> FOLD_OPEN / FOLD_CLOSED */
	bool groups_open, items_open; /* defaults */
	struct wrow *rows;
	size_t nrows, cap;
	int status_w;		/* of the widest triage status in the tree */
	size_t arch_w;		/* of the widest arches of an item in the tree */
	const struct diag *src; /* in the source pane */
} W = {.timer = -1};

static char fold_open_tag, fold_closed_tag;
#define FOLD_OPEN ((void *)&fold_open_tag)
#define FOLD_CLOSED ((void *)&fold_closed_tag)

void warnings_set_logs(const char *gcc_log, const char *clang_log, const char *repo)
{
	W.gcc_log = gcc_log;
	W.clang_log = clang_log;
	W.repo = repo;
	W.side = DIAG_SIDE_CLANG_ONLY;
	W.status = STATUS_ALL;
	W.groups_open = true;
}

void warnings_show_arch(const char *arch)
{
	free(W.want_arch);
	W.want_arch = xstrdup(arch);
}

const struct diag *warnings_shown(void)
{
	return W.src;
}

const char *warnings_repo(void)
{
	return W.repo ? W.repo : ".";
}

char *warnings_config_of(const struct diag *d)
{
	for (size_t i = 0; i < W.nread; i++) {
		char *arch = buildlogs_arch_of(W.read[i]);
		bool other = arch && *d->arch && strcmp(arch, d->arch);
		free(arch);
		const char *slash = strrchr(W.read[i], '/');
		char *path =
		    xasprintf("%.*s.config", slash ? (int)(slash + 1 - W.read[i]) : 0, W.read[i]);
		if (!other && file_exists(path))
			return path;
		free(path);
	}
	char *path = warnings_source_path(".config");
	if (file_exists(path))
		return path;
	free(path);
	return NULL;
}

/* The trees of the last filter states (s cycles through four sides): a
 * filter key shown before only rebuilds the rows. Dropped whenever what
 * the filters read changes (triage, text, a reload). */
#define TREES 4
static struct tree {
	bool used;
	int side, status;
	size_t arch;
	struct wgroup *groups;
	size_t ngroups, shown;
	int status_w;
	size_t arch_w;
} trees[TREES];
static unsigned next_tree;

static void free_tree(struct tree *t)
{
	for (size_t g = 0; g < t->ngroups; g++) {
		for (size_t i = 0; i < t->groups[g].n; i++)
			free(t->groups[g].items[i].d);
		free(t->groups[g].items);
	}
	free(t->groups);
	memset(t, 0, sizeof(*t));
}

static void free_groups(void)
{
	for (size_t i = 0; i < TREES; i++)
		free_tree(&trees[i]);
	W.groups = NULL;
	W.ngroups = W.shown = W.nrows = 0;
}

static void unload(void)
{
	free_groups();
	diag_diff_free(&W.dd);
	memset(&W.dd, 0, sizeof(W.dd));
	for (int i = 0; i < 2; i++) {
		if (W.s[i])
			diag_set_free(W.s[i]);
		W.s[i] = NULL;
	}
	triage_free(W.tri);
	W.tri = NULL;
	free(W.tri_path);
	free(W.arches);
	free(W.logs);
	free(W.sig);
	free(W.built);
	strv_free(W.read);
	W.read = NULL;
	W.nread = 0;
	W.tri_path = W.logs = W.sig = W.built = NULL;
	W.arches = NULL;
	W.narches = 0;
	W.loaded = false;
	W.src = NULL;
	source_pane_free(); /* it points into the sets */
}

void warnings_view_free(void)
{
	if (W.timer >= 0)
		loop_remove_timer(W.timer);
	W.timer = -1;
	unload();
	strmap_free(&W.folds);
	free(W.text);
	W.text = NULL;
	free(W.want_arch);
	W.want_arch = NULL;
	free(W.rows);
	W.rows = NULL;
	W.nrows = W.cap = 0;
}

/* Statuses and notes of the store into both sets. */
static void apply_triage(void)
{
	for (int k = 0; k < 2; k++)
		diag_set_fingerprints(W.s[k]);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; W.tri && i < diag_set_size(W.s[k]); i++) {
			struct diag *d = diag_set_get(W.s[k], i);
			const struct triage_entry *en = triage_get(W.tri, diag_fp(d));
			d->status = en ? en->status : TRIAGE_NEW;
			d->triage_note = en && en->note && *en->note
					     ? diag_set_strndup(W.s[k], en->note, strlen(en->note))
					     : NULL;
		}
}

static int cmp_item_arch(const void *pa, const void *pb);
static int item_cmp(const struct diag *a, const struct diag *b);

/* A log given, or found (with the logs kept before it: a build's log has
 * only what it compiled) */
static int parse_log(int k, const char *path, const char *arch, bool found, struct kerr *e)
{
	struct diag_parser_opts o = {.cc = k ? DIAG_CC_CLANG : DIAG_CC_GCC, .arch = arch};
	strv_push(&W.read, &W.nread, xstrdup(path));
	return (found ? buildlogs_parse : diag_parse_file)(W.s[k], path, &o, e);
}

/* The arches the diagnostics were read for, for the arch filter. */
static void collect_arches(void)
{
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < diag_set_size(W.s[k]); i++) {
			const char *a = diag_set_get(W.s[k], i)->arch;
			size_t j = 0;
			while (j < W.narches && strcmp(W.arches[j], a))
				j++;
			if (j == W.narches && *a) {
				W.arches = xrealloc(W.arches, (W.narches + 1) * sizeof(*W.arches));
				W.arches[W.narches++] = a;
			}
		}
	if (W.narches) /* logs with no arch in them have none */
		qsort(W.arches, W.narches, sizeof(*W.arches), cmp_str);
	if (W.arch > W.narches)
		W.arch = 0;
}

/* Parse, annotate and diff as `klang diag diff` does: the logs given, else
 * per arch the newest GCC and Clang builds under <repo>/.klang/out/. */
static int load(struct kerr *e)
{
	W.s[0] = diag_set_new();
	W.s[1] = diag_set_new();
	bool ignore_arch = false;
	struct strbuf logs = STRBUF_INIT;
	if (W.gcc_log || W.clang_log) {
		if (!W.gcc_log || !W.clang_log)
			return kerr_set(e, "give both --gcc-log and --clang-log");
		char *ga = buildlogs_arch_of(W.gcc_log), *ca = buildlogs_arch_of(W.clang_log);
		int rc = parse_log(0, W.gcc_log, ga, false, e) ||
			 parse_log(1, W.clang_log, ca, false, e);
		free(ga);
		free(ca);
		if (rc)
			return -1;
		ignore_arch = true;
		sb_addf(&logs, "gcc: %s  clang: %s", W.gcc_log, W.clang_log);
	} else {
		struct buildlog_pair *p;
		size_t n = buildlogs_find(W.repo, &p);
		struct strbuf built = STRBUF_INIT, stale = STRBUF_INIT;
		size_t nkept = 0;
		W.sig = buildlogs_signature(p, n);
		int rc =
		    n ? 0
		      : kerr_set(
			    e,
			    "no build logs: give --gcc-log and --clang-log, or run the builds (b)");
		for (size_t i = 0; i < n && !rc; i++) {
			rc = parse_log(0, p[i].gcc, p[i].arch, true, e) ||
			     parse_log(1, p[i].clang, p[i].arch, true, e);
			sb_addf(&logs, "%s%s: %s, %s", i ? "  " : "", p[i].arch, p[i].gcc,
				p[i].clang);
			size_t kept = buildlogs_earlier(p[i].gcc) + buildlogs_earlier(p[i].clang);
			if (kept) /* what incremental builds did not compile again */
				sb_addf(&logs, " (and %zu log%s kept before them)", kept,
					kept == 1 ? "" : "s");
			nkept += kept;
			struct strbuf *to = p[i].uptodate ? &stale : &built;
			sb_addf(to, "%s%s", to->len ? ", " : "", p[i].arch);
		}
		if (built.len)
			sb_adds(&built, " built");
		if (nkept)
			sb_addf(&built, ", %zu earlier log%s", nkept, nkept == 1 ? "" : "s");
		if (stale.len) /* compiled nothing: no warnings in their logs */
			sb_addf(&built, "%s%s up to date, no warnings logged",
				built.len ? "; " : "", stale.buf);
		sb_free(&stale);
		W.built = sb_detach(&built);
		buildlogs_free(p, n);
		if (rc) {
			sb_free(&logs);
			return -1;
		}
	}
	W.logs = sb_detach(&logs);
	struct diag_families *fam = diag_families_default(W.repo, NULL, e);
	struct group_rules *rules = fam ? group_rules_default(W.repo, NULL, e) : NULL;
	if (!rules) {
		diag_families_free(fam);
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		diag_families_apply(fam, W.s[i]);
		group_apply(rules, W.s[i]);
	}
	group_rules_free(rules);
	diag_diff_compilers(W.s[0], W.s[1], fam, ignore_arch, &W.dd);
	diag_families_free(fam);
	W.tri = triage_new();
	W.tri_path = triage_path(W.repo ? W.repo : ".");
	if (triage_load(W.tri, W.tri_path, e))
		report_error("%s", e->msg); /* a corrupt store was moved aside: go on */
	apply_triage();
	collect_arches();
	/* once, in tree order: grouping keeps it, so a filter change (any key
	 * of s a S \\) does not sort 100,000 diagnostics again */
	qsort(W.dd.rows, W.dd.n, sizeof(*W.dd.rows), cmp_item_arch);
	/* the title counts what the rows show: a place once, whatever its arches */
	memset(W.places, 0, sizeof(W.places));
	for (size_t i = 0; i < W.dd.n; i++)
		if (!i || item_cmp(W.dd.rows[i - 1], W.dd.rows[i]))
			W.places[W.dd.rows[i]->side]++;
	W.loaded = true;
	return 0;
}

static const char *side_name(int side)
{
	return side == DIAG_SIDE_NONE ? "all" : diag_side_name((enum diag_side)side);
}

static const char *status_filter_name(void)
{
	return W.status == STATUS_ALL	 ? "any"
	       : W.status == STATUS_OPEN ? "open"
					 : triage_status_name(W.status);
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return !n;
}

static void diag_text(const struct diag *d, struct strbuf *sb)
{
	sb_addf(sb, "%s ", diag_side_name(d->side));
	diag_loc_text(sb, &d->loc);
	sb_addf(sb, " %s %s", d->flag, d->message);
}

static bool shown_by_filters(const struct diag *d)
{
	if (W.side != DIAG_SIDE_NONE && (int)d->side != W.side)
		return false;
	if (W.arch && strcmp(d->arch, W.arches[W.arch - 1]))
		return false;
	if (W.status == STATUS_OPEN ? triage_settled(d->status)
				    : W.status != STATUS_ALL && d->status != W.status)
		return false;
	if (W.text && *W.text) {
		struct strbuf sb = STRBUF_INIT;
		diag_text(d, &sb);
		sb_addf(&sb, " %s %s", d->group ? d->group : "",
			d->triage_note ? d->triage_note : "");
		bool m = contains_nocase(sb_str(&sb), W.text);
		sb_free(&sb);
		return m;
	}
	return true;
}

/* Same row of the tree: place, flag, message and side (not the arch). */
static int item_cmp(const struct diag *a, const struct diag *b)
{
	int c = strcmp(a->subgroup ? a->subgroup : "", b->subgroup ? b->subgroup : "");
	if (!c)
		c = strcmp(a->loc.file, b->loc.file);
	if (!c)
		c = (a->loc.line > b->loc.line) - (a->loc.line < b->loc.line);
	if (!c)
		c = (a->loc.col > b->loc.col) - (a->loc.col < b->loc.col);
	if (!c)
		c = strcmp(a->flag, b->flag);
	if (!c)
		c = strcmp(a->message, b->message);
	if (!c)
		c = (int)a->side - (int)b->side;
	return c;
}

static int cmp_item_arch(const void *pa, const void *pb)
{
	const struct diag *a = *(struct diag *const *)pa, *b = *(struct diag *const *)pb;
	int c = item_cmp(a, b);
	return c ? c : strcmp(a->arch, b->arch);
}

static void build_tree(void);

/* Groups of the diagnostics the filters let through, clustered into items. */
static void build_groups(void)
{
	struct tree *t = NULL;
	for (size_t i = 0; i < TREES && !W.text; i++)
		if (trees[i].used && trees[i].side == W.side && trees[i].arch == W.arch &&
		    trees[i].status == W.status)
			t = &trees[i];
	if (!t) {
		W.groups = NULL;
		W.ngroups = W.shown = 0;
		build_tree();
		t = &trees[next_tree++ % TREES];
		free_tree(t);
		*t = (struct tree){.used = true,
				   .side = W.side,
				   .status = W.status,
				   .arch = W.arch,
				   .groups = W.groups,
				   .ngroups = W.ngroups,
				   .shown = W.shown,
				   .status_w = W.status_w,
				   .arch_w = W.arch_w};
		if (W.text) /* not kept: any other text is another tree */
			t->used = false;
	}
	W.groups = t->groups;
	W.ngroups = t->ngroups;
	W.shown = t->shown;
	W.status_w = t->status_w;
	W.arch_w = t->arch_w;
}

static void build_tree(void)
{
	struct diag **pick = xmalloc((W.dd.n + 1) * sizeof(*pick));
	size_t n = 0;
	for (size_t i = 0; i < W.dd.n; i++)
		if (shown_by_filters(W.dd.rows[i]))
			pick[n++] = W.dd.rows[i];
	struct diag_group *dg = group_collect(pick, n, &W.ngroups);
	/* the status and arch columns: as wide as the widest status and arch
	 * list of the tree, worked out here, where the diagnostics are read
	 * anyway (not each time the rows are laid out: a cache miss apiece) */
	W.status_w = 3;
	W.arch_w = 0;
	free(pick);
	W.groups = xcalloc(W.ngroups + 1, sizeof(*W.groups));
	for (size_t g = 0; g < W.ngroups; g++) {
		struct wgroup *wg = &W.groups[g];
		wg->name = dg[g].name;
		wg->occ = dg[g].occurrences;
		size_t s = 1;
		while (s < dg[g].n && cmp_item_arch(&dg[g].diags[s - 1], &dg[g].diags[s]) <= 0)
			s++;
		if (s < dg[g].n)
			qsort(dg[g].diags, dg[g].n, sizeof(*dg[g].diags), cmp_item_arch);
		wg->items = xcalloc(dg[g].n + 1, sizeof(*wg->items));
		for (size_t i = 0; i < dg[g].n; i++) {
			struct diag *d = dg[g].diags[i];
			struct witem *it = wg->n ? &wg->items[wg->n - 1] : NULL;
			if (!it || item_cmp(it->d[0], d))
				it = &wg->items[wg->n++];
			if (!it->n) {
				int w = (int)strlen(triage_status_name(d->status));
				W.status_w = w > W.status_w ? w : W.status_w;
			}
			it->d = xrealloc(it->d, (it->n + 1) * sizeof(*it->d));
			it->d[it->n++] = d;
			it->arch_w += (it->n > 1) + strlen(d->arch);
			W.arch_w = it->arch_w > W.arch_w ? it->arch_w : W.arch_w;
			it->occ += d->occurrences;
		}
		W.shown += wg->n;
	}
	group_collect_free(dg, W.ngroups);
}

static char *fold_key(enum row_kind kind, const struct wgroup *g, const struct witem *it)
{
	if (kind == ROW_GROUP)
		return xasprintf("g:%s", g->name);
	const struct diag *d = it->d[0];
	return xasprintf("d:%s:%u:%u:%s:%d:%016llx", d->loc.file, d->loc.line, d->loc.col, d->flag,
			 (int)d->side, (unsigned long long)diag_fp(d));
}

static bool is_open(enum row_kind kind, const struct wgroup *g, const struct witem *it)
{
	if (!W.folds.n)
		return kind == ROW_GROUP ? W.groups_open : W.items_open;
	char *key = fold_key(kind, g, it);
	void *v = strmap_get(&W.folds, key);
	free(key);
	return v ? v == FOLD_OPEN : kind == ROW_GROUP ? W.groups_open : W.items_open;
}

static void add_row(struct wrow r)
{
	ALLOC_GROW(W.rows, W.nrows + 1, W.cap);
	W.rows[W.nrows++] = r;
}

static void build_rows(void)
{
	W.nrows = 0;
	for (size_t g = 0; g < W.ngroups; g++) {
		const struct wgroup *wg = &W.groups[g];
		add_row((struct wrow){ROW_GROUP, g, 0, 0, 0});
		if (!is_open(ROW_GROUP, wg, NULL))
			continue;
		for (size_t i = 0; i < wg->n; i++) {
			const struct witem *it = &wg->items[i];
			add_row((struct wrow){ROW_DIAG, g, i, 0, 0});
			if (!is_open(ROW_DIAG, wg, it))
				continue;
			for (size_t k = 0; k < it->n; k++) {
				for (size_t t = 0; t < it->d[k]->ntus; t++)
					add_row((struct wrow){ROW_OCC, g, i, k, t});
				if (!it->d[k]->ntus)
					add_row((struct wrow){ROW_OCC, g, i, k, SIZE_MAX});
			}
		}
	}
}

static const struct wrow *row_at(const struct view *v)
{
	return v->lineno < W.nrows ? &W.rows[v->lineno] : NULL;
}

static const struct witem *row_item(const struct wrow *r)
{
	return r && r->kind != ROW_GROUP ? &W.groups[r->g].items[r->i] : NULL;
}

/* The diagnostic of a row (an occurrence's own arch), or NULL on a group. */
static const struct diag *row_diag(const struct wrow *r)
{
	const struct witem *it = row_item(r);
	return it ? it->d[r->kind == ROW_OCC ? r->k : 0] : NULL;
}

/* Where the cursor is, to find it again after the rows change: the group
 * name and the item's first diagnostic (NULL on a group row). The
 * diagnostics outlive a rebuild; only a reload frees them. */
static void anchor(const struct view *v, char **gname, const struct diag **ikey)
{
	const struct wrow *r = row_at(v);
	*gname = r ? xstrdup(W.groups[r->g].name) : NULL;
	*ikey = r && r->kind != ROW_GROUP ? row_item(r)->d[0] : NULL;
}

/* Rebuild the tree with the cursor on the anchor's group or item if it
 * is still there; frees the anchor. */
/* The item of group g that is `ikey` (items are in item_cmp order), or
 * whose fold key is `ikey_text`; SIZE_MAX if none. */
static size_t find_item(size_t g, const struct diag *ikey, const char *ikey_text)
{
	const struct wgroup *wg = &W.groups[g];
	size_t lo = 0, hi = ikey ? wg->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = item_cmp(wg->items[mid].d[0], ikey);
		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = 0; ikey_text && i < wg->n; i++) {
		char *k = fold_key(ROW_DIAG, NULL, &wg->items[i]);
		bool same = !strcmp(k, ikey_text);
		free(k);
		if (same)
			return i;
	}
	return SIZE_MAX;
}

/* Rebuild the rows, the cursor on the same item (ikey; ikey_text after a
 * reload, when the old diagnostics are gone) or else on its group. */
static void rebuild_at(struct view *v, char *gname, const struct diag *ikey, char *ikey_text)
{
	build_groups();
	build_rows();
	size_t to = v->lineno, g = 0;
	while (gname && g < W.ngroups && strcmp(W.groups[g].name, gname))
		g++;
	if (gname && g < W.ngroups) {
		size_t item = find_item(g, ikey, ikey_text);
		for (size_t i = 0; i < W.nrows; i++) {
			const struct wrow *x = &W.rows[i];
			if (x->g == g && x->kind == ROW_GROUP) {
				to = i;
				if (item == SIZE_MAX)
					break;
			} else if (x->g == g && x->kind == ROW_DIAG && x->i == item) {
				to = i;
				break;
			}
		}
	}
	free(gname);
	free(ikey_text);
	v->lines = W.nrows;
	v->lineno = to;
	view_fix_position(v);
}

static void rebuild(struct view *v)
{
	char *gname;
	const struct diag *ikey;
	anchor(v, &gname, &ikey);
	rebuild_at(v, gname, ikey, NULL);
}

static void check_logs(void *data);

static void warnings_open(struct view *v)
{
	struct kerr e;
	char *gname = NULL, *ikey = NULL;
	if (!W.loaded || W.stale) {
		const struct diag *d;
		anchor(v, &gname, &d);
		ikey = d ? fold_key(ROW_DIAG, NULL, row_item(row_at(v))) : NULL;
		unload();
		W.stale = false;
		W.tried = true;
		if (load(&e)) {
			report_error("%s", e.msg);
			unload();
		} else if (W.reload_asked) {
			report("warnings reloaded: %lu places%s%s%s",
			       W.places[DIAG_SIDE_CLANG_ONLY] + W.places[DIAG_SIDE_GCC_ONLY] +
				   W.places[DIAG_SIDE_BOTH],
			       W.built ? " (" : "", W.built ? W.built : "", W.built ? ")" : "");
		}
		W.reload_asked = false;
	}
	if (W.timer < 0 && !W.gcc_log && !W.clang_log)
		W.timer = loop_add_timer(2000, true, check_logs, NULL);
	if (W.loaded && W.want_arch) {
		W.arch = 0;
		for (size_t j = 0; j < W.narches; j++)
			if (!strcmp(W.arches[j], W.want_arch))
				W.arch = j + 1;
		free(W.want_arch);
		W.want_arch = NULL;
	}
	if (W.loaded) {
		rebuild_at(v, gname, NULL, ikey);
		if (view_displayed(&source_view)) {
			W.src = row_diag(row_at(v));
			view_reload(&source_view);
		}
	} else {
		free(gname);
		free(ikey);
		free_groups();
		W.nrows = 0;
		v->lines = 0;
		view_fix_position(v);
	}
}

/* Builds that finish change the newest logs: load them again. */
static void check_logs(void *data)
{
	(void)data;
	if (!W.tried || W.stale)
		return;
	struct buildlog_pair *p;
	size_t n = buildlogs_find(W.repo, &p);
	char *sig = buildlogs_signature(p, n);
	buildlogs_free(p, n);
	if (n && (!W.sig || strcmp(sig, W.sig))) {
		W.stale = true;
		if (view_displayed(&warnings_view)) {
			view_reload(&warnings_view);
			report("new build logs: warnings reloaded");
		}
	}
	free(sig);
}

static void warnings_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	(void)v;
	const struct wrow *r = &W.rows[lineno];
	const struct wgroup *g = &W.groups[r->g];
	const struct witem *it = row_item(r);
	struct strbuf sb = STRBUF_INIT;
	if (r->kind == ROW_GROUP) {
		sb_addf(&sb, "%c %s (%zu)  %lu occurrence%s",
			is_open(ROW_GROUP, g, NULL) ? '-' : '+', g->name, g->n, g->occ,
			g->occ == 1 ? "" : "s");
		draw_text(d, ELEM_HEADER, sb_str(&sb), -1);
	} else if (r->kind == ROW_DIAG) {
		/* the message gets the room: the side only when all sides are
		 * shown, the flag only when the group is not named after it */
		const struct diag *x = it->d[0];
		sb_addf(&sb, "  %c %3u %-*s ", is_open(ROW_DIAG, g, it) ? '-' : '+', it->occ,
			W.status_w, triage_status_name(x->status));
		if (W.narches > 1) {
			size_t at = sb.len;
			for (size_t k = 0; k < it->n; k++)
				sb_addf(&sb, "%s%s", k ? "," : "", it->d[k]->arch);
			while (sb.len - at < W.arch_w + 2)
				sb_adds(&sb, " ");
		}
		if (W.side == DIAG_SIDE_NONE)
			sb_addf(&sb, "%-10s ", diag_side_name(x->side));
		diag_loc_text(&sb, &x->loc);
		if (strcmp(x->flag, g->name) &&
		    (strncmp(x->flag, "-W", 2) || strcmp(x->flag + 2, g->name)))
			sb_addf(&sb, " %s", x->flag);
		sb_addf(&sb, "  %s", x->message);
		draw_text(d, x->side == DIAG_SIDE_CLANG_ONLY ? ELEM_WARNING : ELEM_DEFAULT,
			  sb_str(&sb), -1);
	} else {
		const struct diag *x = it->d[r->k];
		sb_addf(&sb, "        %-8s %s", *x->arch ? x->arch : "-",
			r->t == SIZE_MAX ? "(no translation unit)" : x->tus[r->t]);
		if (r->t == 0 || r->t == SIZE_MAX)
			sb_addf(&sb, "  %u time%s, %s", x->occurrences,
				x->occurrences == 1 ? "" : "s", diag_cc_name(x->cc));
		draw_text(d, ELEM_META, sb_str(&sb), -1);
	}
	sb_free(&sb);
}

static void warnings_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	sb_addf(sb, "%s: %lu clang-only, %lu gcc-only, %lu both; arch %s", side_name(W.side),
		W.places[DIAG_SIDE_CLANG_ONLY], W.places[DIAG_SIDE_GCC_ONLY],
		W.places[DIAG_SIDE_BOTH], W.arch ? W.arches[W.arch - 1] : "all");
	if (!W.arch && W.built) /* which builds: an arch still building is not there */
		sb_addf(sb, " (%s)", W.built);
	sb_addf(sb, ", status %s", status_filter_name());
	if (W.text && *W.text)
		sb_addf(sb, ", text \"%s\"", W.text);
	sb_addf(sb, "; %zu shown", W.shown);
}

static bool warnings_grep(struct view *v, size_t lineno, const regex_t *re)
{
	(void)v;
	struct strbuf sb = STRBUF_INIT;
	const struct wrow *r = &W.rows[lineno];
	const struct diag *d = row_diag(r);
	if (r->kind == ROW_OCC && r->t != SIZE_MAX)
		sb_adds(&sb, d->tus[r->t]);
	else if (d)
		diag_text(d, &sb);
	else
		sb_adds(&sb, W.groups[r->g].name);
	bool m = !regexec(re, sb_str(&sb), 0, NULL, 0);
	sb_free(&sb);
	return m;
}

static void warnings_select(struct view *v)
{
	const struct diag *d = row_diag(row_at(v));
	if (d && view_displayed(&source_view) && d != W.src) {
		W.src = d;
		view_reload(&source_view);
	}
}

static void toggle_fold(struct view *v, const struct wrow *r)
{
	const struct wgroup *g = &W.groups[r->g];
	const struct witem *it = row_item(r);
	enum row_kind kind = r->kind == ROW_GROUP ? ROW_GROUP : ROW_DIAG;
	char *key = fold_key(kind, g, it);
	bool open = is_open(kind, g, it);
	strmap_put(&W.folds, key, open ? FOLD_CLOSED : FOLD_OPEN);
	free(key);
	if (r->kind == ROW_OCC) /* fold back onto the diagnostic */
		while (v->lineno && W.rows[v->lineno].kind == ROW_OCC)
			v->lineno--;
	rebuild(v);
}

static void fold_all(struct view *v, bool open)
{
	strmap_free(&W.folds);
	memset(&W.folds, 0, sizeof(W.folds));
	W.groups_open = open;
	W.items_open = open;
	while (!open && v->lineno && W.rows[v->lineno].kind != ROW_GROUP)
		v->lineno--;
	rebuild(v);
}

/* Set the status (and note unless NULL) of the row: every diagnostic of a
 * group row, else those of the item; on a row both compilers reported, the
 * GCC diagnostic too (its fingerprint differs: other message, other line). */
static void set_triage(struct view *v, int status, const char *note)
{
	const struct wrow *r = row_at(v);
	struct kerr e;
	if (!r || !W.tri)
		return;
	size_t first = r->kind == ROW_GROUP ? 0 : r->i;
	size_t last = r->kind == ROW_GROUP ? W.groups[r->g].n : r->i + 1;
	size_t count = 0;
	for (size_t i = first; i < last; i++) {
		const struct witem *it = &W.groups[r->g].items[i];
		for (size_t k = 0; k < it->n; k++) {
			/* a row found by both compilers: GCC's report of it too */
			for (const struct diag *d = it->d[k]; d;
			     d = d == it->d[k] ? d->peer : NULL) {
				int st = status < 0 ? d->status : status;
				triage_set(W.tri, diag_fp(d), st, note ? note : d->triage_note, d);
			}
		}
		count++;
	}
	if (triage_save(W.tri, W.tri_path, &e)) {
		report_error("%s", e.msg);
		return;
	}
	apply_triage();
	free_groups();
	rebuild(v);
	if (note)
		report("note set on %zu diagnostic%s (%s)", count, count == 1 ? "" : "s",
		       W.tri_path);
	else
		report("%zu diagnostic%s marked %s (%s)", count, count == 1 ? "" : "s",
		       triage_status_name(status), W.tri_path);
}

static void note_done(const char *text, void *data)
{
	if (text)
		set_triage(data, -1, text);
}

static void text_done(const char *text, void *data)
{
	if (!text)
		return;
	free(W.text);
	W.text = *text ? xstrdup(text) : NULL;
	free_groups();
	struct view *v = data;
	v->lineno = 0;
	rebuild(v);
	report(W.text ? "showing rows with \"%s\"" : "text filter cleared", W.text);
}

static void open_source(const struct diag *d)
{
	W.src = d;
	view_open(&source_view, OPEN_SPLIT);
	view_reload(&source_view);
}

static bool warnings_request(struct view *v, int action)
{
	const struct wrow *r = row_at(v);
	const struct diag *d = row_diag(r);
	switch (action) {
	case ACT_WARN_SIDE:
		W.side = (W.side + 1) % 4;
		rebuild(v);
		report("showing %s", side_name(W.side));
		return true;
	case ACT_WARN_ARCH:
		W.arch = W.narches ? (W.arch + 1) % (W.narches + 1) : 0;
		rebuild(v);
		report("arch %s", W.arch ? W.arches[W.arch - 1] : "all");
		return true;
	case ACT_WARN_STATUS_FILTER:
		W.status = W.status == STATUS_ALL	  ? STATUS_OPEN
			   : W.status == STATUS_OPEN	  ? 0
			   : W.status + 1 < TRIAGE__COUNT ? W.status + 1
							  : STATUS_ALL;
		rebuild(v);
		report("status %s", status_filter_name());
		return true;
	case ACT_WARN_TEXT:
		prompt_open("Filter: ", text_done, v);
		return true;
	case ACT_WARN_RELOAD:
		W.stale = W.reload_asked = true;
		view_reload(v);
		return true;
	case ACT_WARN_FOLD:
	case ACT_ENTER:
		if (!r)
			return true;
		if (action == ACT_ENTER && r->kind != ROW_GROUP)
			open_source(d);
		else
			toggle_fold(v, r);
		return true;
	case ACT_WARN_FOLD_ALL:
	case ACT_WARN_UNFOLD_ALL:
		if (r)
			fold_all(v, action == ACT_WARN_UNFOLD_ALL);
		return true;
	case ACT_WARN_EDIT:
		if (d)
			warnings_edit(d->loc.file, d->loc.line);
		return true;
	case ACT_WARN_BLAME:
		if (d)
			warnings_blame(d->loc.file, d->loc.line);
		return true;
	case ACT_WARN_NEW:
	case ACT_WARN_CONFIRMED:
	case ACT_WARN_WONTFIX:
	case ACT_WARN_FALSE_POSITIVE:
	case ACT_WARN_FIXED:
		set_triage(v, TRIAGE_NEW + (action - ACT_WARN_NEW), NULL);
		return true;
	case ACT_WARN_NOTE:
		if (r)
			prompt_open("Note: ", note_done, v);
		return true;
	case ACT_COPY:
		if (d) {
			struct strbuf loc = STRBUF_INIT;
			diag_loc_text(&loc, &d->loc);
			tui_copy("location", sb_str(&loc));
			sb_free(&loc);
		}
		return true;
	case ACT_COPY_LINK:
		if (d && d->flag && *d->flag) {
			char *url = links_cbl_issue_url(d->flag);
			tui_copy("ClangBuiltLinux issue search", url);
			free(url);
		} else {
			report("no flag here: nothing to search for");
		}
		return true;
	default:
		return false;
	}
}

static void warnings_status(struct view *v, struct strbuf *sb)
{
	const struct wrow *r = row_at(v);
	const struct diag *d = row_diag(r);
	if (d) {
		/* the message first: the row may have had no room for it */
		sb_addf(sb, "%s  [%s", d->message, triage_status_name(d->status));
		if (d->triage_note)
			sb_addf(sb, ", note: %s", d->triage_note);
		sb_adds(sb, "]  ");
		if (d->flag && *d->flag) {
			tui_flag_link(d->flag, sb);
			sb_adds(sb, "  ");
		}
		sb_addf(sb, "fingerprint %016llx", (unsigned long long)diag_fp(d));
	} else if (r) {
		sb_addf(sb, "%zu diagnostic%s, %lu occurrence%s", W.groups[r->g].n,
			W.groups[r->g].n == 1 ? "" : "s", W.groups[r->g].occ,
			W.groups[r->g].occ == 1 ? "" : "s");
	} else if (W.loaded) {
		sb_adds(sb, W.logs);
	}
}

static void warnings_empty(struct view *v, struct strbuf *sb)
{
	(void)v;
	if (W.loaded && W.dd.n)
		sb_adds(sb, "The filters hide every place: s (side), a (arch), S (status), "
			    "\\ then Enter (text) show more");
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
    .empty = warnings_empty,
    .status = warnings_status,
};

struct view warnings_view = {.ops = &warnings_ops};
