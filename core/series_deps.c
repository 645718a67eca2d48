/* "A kept patch needs this dropped one": the kept patch changes lines (or
 * lines next to them) that the dropped patch wrote. Each patch's changed
 * line ranges come from a zero-context diff against its first parent; the
 * dropped patch's ranges are carried through the patches between the two
 * (shifted by their insertions and deletions) before they are compared. */
#include "core/series.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/commitdiff.h"

/* Line ranges in doubled coordinates: line L is 2L; the gap after line L
 * (where a pure insertion or deletion sits) is 2L+1. */
struct range {
	long old_lo, old_hi, new_lo, new_hi;
	long shift; /* how far the lines after the hunk move */
};

struct file_ranges {
	char *path;
	char *old_path; /* set when renamed */
	struct range *r;
	size_t n;
};

struct patch_ranges {
	bool loaded, failed;
	struct file_ranges *files;
	size_t nfiles;
};

static void side(long start, long lines, long *lo, long *hi)
{
	if (lines == 0) {
		*lo = *hi = 2 * start + 1;
	} else {
		*lo = 2 * start;
		*hi = 2 * (start + lines - 1);
	}
}

static int file_cb(const git_diff_delta *d, float progress, void *payload)
{
	struct patch_ranges *pr = payload;
	(void)progress;
	pr->files = xrealloc(pr->files, (pr->nfiles + 1) * sizeof(*pr->files));
	struct file_ranges *f = &pr->files[pr->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(d->new_file.path ? d->new_file.path : d->old_file.path);
	if (d->old_file.path && d->new_file.path && strcmp(d->old_file.path, d->new_file.path))
		f->old_path = xstrdup(d->old_file.path);
	return 0;
}

static int hunk_cb(const git_diff_delta *d, const git_diff_hunk *h, void *payload)
{
	struct patch_ranges *pr = payload;
	struct file_ranges *f = &pr->files[pr->nfiles - 1];
	(void)d;
	f->r = xrealloc(f->r, (f->n + 1) * sizeof(*f->r));
	struct range *r = &f->r[f->n++];
	side(h->old_start, h->old_lines, &r->old_lo, &r->old_hi);
	side(h->new_start, h->new_lines, &r->new_lo, &r->new_hi);
	long old_next = h->old_start + h->old_lines + (h->old_lines == 0);
	long new_next = h->new_start + h->new_lines + (h->new_lines == 0);
	r->shift = 2 * (new_next - old_next);
	return 0;
}

static void load_ranges(struct stack *st, const struct patch *p, struct patch_ranges *pr)
{
	git_oid oid;
	git_commit *c = NULL;
	git_diff *diff = NULL;
	git_diff_options o = GIT_DIFF_OPTIONS_INIT;
	o.context_lines = 0;
	pr->loaded = true;
	pr->failed = git_oid_fromstr(&oid, p->id) < 0 ||
		     git_commit_lookup(&c, st->repo, &oid) < 0 ||
		     commitdiff_diff(st->repo, stack_reader(st), c, RENAMES_OFF, &o, &diff) < 0 ||
		     git_diff_foreach(diff, file_cb, NULL, hunk_cb, NULL, pr) < 0;
	git_diff_free(diff);
	git_commit_free(c);
}

static struct patch_ranges *ranges(struct series *s, size_t i)
{
	struct patch_ranges *all = s->hunks;
	if (!all)
		all = s->hunks = xcalloc(s->nitems, sizeof(*all));
	if (!all[i].loaded)
		load_ranges(s->st, s->items[i].patch, &all[i]);
	return &all[i];
}

static const struct file_ranges *file_of(const struct patch_ranges *pr, const char *path)
{
	for (size_t i = 0; i < pr->nfiles; i++)
		if (!strcmp(pr->files[i].path, path))
			return &pr->files[i];
	return NULL;
}

/* Where position x of the file before a patch lands after it. */
static long carry(const struct file_ranges *f, long x)
{
	long delta = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct range *r = &f->r[i];
		if (r->old_hi < x)
			delta = r->shift; /* already counts the hunks before it */
		else if (r->old_lo <= x)
			return x < r->new_lo ? r->new_lo : x > r->new_hi ? r->new_hi : x;
		else
			break;
	}
	return x + delta;
}

/* The first kept patch after d (1-based, 0 if none) that changes lines d
 * wrote in file df. d's ranges are carried through every later patch that
 * touches the file, so the walk is linear in the stack. */
static size_t first_needing(struct series *s, size_t d, const struct file_ranges *df, long *line)
{
	long *lo = xcalloc(df->n, sizeof(*lo)), *hi = xcalloc(df->n, sizeof(*hi));
	for (size_t i = 0; i < df->n; i++) {
		lo[i] = df->r[i].new_lo;
		hi[i] = df->r[i].new_hi;
	}
	size_t found = 0;
	for (size_t k = d + 1; k < s->nitems && !found; k++) {
		const struct file_ranges *kf = file_of(ranges(s, k), df->path);
		if (!kf)
			continue;
		for (size_t i = 0; i < df->n && !found && s->items[k].keep; i++)
			for (size_t j = 0; j < kf->n && !found; j++)
				if (kf->r[j].old_lo <= hi[i] + 2 && lo[i] <= kf->r[j].old_hi + 2) {
					found = k + 1;
					*line = (df->r[i].new_lo + 1) / 2; /* where d wrote it */
				}
		for (size_t i = 0; i < df->n; i++) {
			lo[i] = carry(kf, lo[i]);
			hi[i] = carry(kf, hi[i]);
		}
	}
	free(lo);
	free(hi);
	return found;
}

void series_check_needs(struct series *s)
{
	if (!s->st->repo)
		return;
	for (size_t d = 0; d < s->nitems; d++) {
		struct series_item *it = &s->items[d];
		if (it->keep)
			continue;
		const struct patch_ranges *dr = ranges(s, d);
		for (size_t f = 0; f < dr->nfiles && !it->needed_by; f++) {
			long line = 0;
			size_t k = first_needing(s, d, &dr->files[f], &line);
			if (!k)
				continue;
			char *w =
			    xasprintf("kept patch %zu (%s) changes the lines of %s near line "
				      "%ld that this patch wrote",
				      k, s->items[k - 1].patch->subject, dr->files[f].path, line);
			if (it->warning) {
				char *both = xasprintf("%s; %s", it->warning, w);
				free(w);
				w = both;
			}
			free(it->warning);
			it->warning = w;
			it->needed_by = k;
		}
	}
}

bool series_touches(struct series *s, size_t i, const char *path)
{
	if (!s->st->repo || i >= s->nitems)
		return false;
	const struct patch_ranges *pr = ranges(s, i);
	for (size_t f = 0; f < pr->nfiles; f++)
		if (!strcmp(pr->files[f].path, path) ||
		    (pr->files[f].old_path && !strcmp(pr->files[f].old_path, path)))
			return true;
	return false;
}

void series_hunks_free(struct series *s)
{
	struct patch_ranges *all = s->hunks;
	for (size_t i = 0; all && i < s->nitems; i++) {
		for (size_t f = 0; f < all[i].nfiles; f++) {
			free(all[i].files[f].path);
			free(all[i].files[f].old_path);
			free(all[i].files[f].r);
		}
		free(all[i].files);
	}
	free(all);
	s->hunks = NULL;
}
