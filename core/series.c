/* Keep/drop decisions for a Clang version, with their reasons, and the
 * manual overrides a user sets on top of them. */
#include "core/series.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buildlogs.h"

const char *const series_source_names[] = {
#define SERIES_SOURCE_NAME(id, name) name,
    SERIES_SOURCE_LIST(SERIES_SOURCE_NAME)
#undef SERIES_SOURCE_NAME
};

/* Phrases that put a Clang/LLVM version in a message: "fixed in LLVM 5",
 * "clang >= 6.0", "clang-14", "Clang version 5.0.1", "fixed in 7.0". */
static const char hint_pattern[] =
    "(?:\\b(?:fixed|resolved|addressed)\\s+(?:upstream\\s+)?in\\s+(?:upstream\\s+)?"
    "(?:(?:clang|llvm)\\s*)?(?:version\\s+)?v?"
    "|\\b(?:clang|llvm)(?:[- ]?version)?[- ]?(?:(?:>=|<=|>|<|==|\u2265|\u2264)\\s*)?v?)"
    "(\\d{1,2}(?:\\.\\d+){0,2})\\b";

void series_find_hints(const char *text, struct version_hint **out, size_t *n)
{
	static pcre2_code *re;
	*out = NULL;
	*n = 0;
	if (!text)
		return;
	if (!re) {
		int ec;
		PCRE2_SIZE off;
		re = pcre2_compile((PCRE2_SPTR)hint_pattern, PCRE2_ZERO_TERMINATED, PCRE2_CASELESS,
				   &ec, &off, NULL);
		if (!re)
			return;
	}
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	size_t len = strlen(text), start = 0, cap = 0;
	while (start < len && pcre2_match(re, (PCRE2_SPTR)text, len, start, 0, md, NULL) > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		start = ov[1] > start ? ov[1] : start + 1;
		struct clang_version v;
		char *ver = xstrndup(text + ov[2], ov[3] - ov[2]);
		bool ok = clangver_parse(ver, &v) == 0 && v.major >= 3 && v.major <= 99;
		for (size_t i = 0; ok && i < *n; i++)
			ok = strcmp((*out)[i].version, ver) != 0;
		if (ok && strlen(ver) < sizeof((*out)->version)) {
			ALLOC_GROW(*out, *n + 1, cap);
			struct version_hint *h = &(*out)[(*n)++];
			snprintf(h->version, sizeof(h->version), "%s", ver);
			h->text = xstrndup(text + ov[0], ov[1] - ov[0]);
			str_flatten(h->text);
		}
		free(ver);
	}
	pcre2_match_data_free(md);
}

static void item_reset(struct series_item *it)
{
	free(it->reason);
	free(it->warning);
	for (size_t i = 0; i < it->nhints; i++)
		free(it->hints[i].text);
	free(it->hints);
	struct patch *p = it->patch;
	memset(it, 0, sizeof(*it));
	it->patch = p;
}

static const char *vs(const struct clang_version *v, char *b)
{
	return clangver_str_short(v, b, 32);
}

/* The rule level: "rule v4.9.yaml:12: until_clang 5: not needed with clang 14.0.6". */
static bool decide_rule(struct series *s, struct series_item *it, struct strbuf *why)
{
	const struct ps_rule *r = patchset_match(s->ps, it->patch);
	if (!r)
		return false;
	char b[32];
	const char *file = strrchr(s->ps->path, '/');
	it->keep = ps_rule_keeps(r, &s->clang);
	it->source = SRC_RULE;
	sb_addf(why, "rule %s:%d: ", file ? file + 1 : s->ps->path, r->line);
	ps_rule_describe(r, why);
	if (r->fixed == RULE_BOUNDED)
		sb_addf(why, ": %s with clang %s", it->keep ? "needed" : "not needed",
			vs(&s->clang, b));
	if (r->why)
		sb_addf(why, " (%s)", r->why);
	return true;
}

/* A trailer's version, or a warning when it is not one. */
static bool trailer_version(struct series_item *it, const char *key, struct clang_version *v)
{
	const char *val = patch_trailer(it->patch, key);
	if (!val)
		return false;
	if (clangver_parse_trailer(val, v) == 0)
		return true;
	free(it->warning);
	it->warning = xasprintf("trailer '%s: %s' is not a Clang version; ignored", key, val);
	return false;
}

static bool decide_trailer(struct series *s, struct series_item *it, struct strbuf *why)
{
	struct clang_version fixed, min;
	bool has_fixed = trailer_version(it, "Clang-Fixed", &fixed);
	bool has_min = trailer_version(it, "Clang-Min", &min);
	if (!has_fixed && !has_min)
		return false;
	char b1[32], b2[32], b3[32];
	const char *cv = vs(&s->clang, b3);
	it->source = SRC_TRAILER;
	it->keep = true;
	if (has_min && clangver_cmp(&s->clang, &min) < 0) {
		it->keep = false;
		sb_addf(why, "trailer Clang-Min: %s: clang %s is older", vs(&min, b1), cv);
	} else if (has_fixed && clangver_cmp(&s->clang, &fixed) >= 0) {
		it->keep = false;
		sb_addf(why, "trailer Clang-Fixed: %s: not needed with clang %s", vs(&fixed, b1),
			cv);
	} else if (has_fixed && has_min) {
		sb_addf(why, "trailers Clang-Min: %s, Clang-Fixed: %s: needed with clang %s",
			vs(&min, b1), vs(&fixed, b2), cv);
	} else if (has_fixed) {
		sb_addf(why, "trailer Clang-Fixed: %s: still needed with clang %s", vs(&fixed, b1),
			cv);
	} else {
		sb_addf(why, "trailer Clang-Min: %s: clang %s is recent enough", vs(&min, b1), cv);
	}
	return true;
}

static void decide_tag(struct series_item *it, struct strbuf *why)
{
	const struct patch *p = it->patch;
	it->source = SRC_TAG;
	it->keep = true;
	if (p->tags & TAG_BIT(TAG_OBSOLETE)) {
		it->version_unknown = true;
		char *text =
		    xasprintf("%s\n%s", p->subject ? p->subject : "", p->body ? p->body : "");
		series_find_hints(text, &it->hints, &it->nhints);
		free(text);
		sb_adds(why, "tag default: OBSOLETE, fixed version unknown: kept");
		for (size_t i = 0; i < it->nhints; i++)
			sb_addf(why, "%s%s", i ? ", " : " (message suggests ",
				it->hints[i].version);
		if (it->nhints)
			sb_addc(why, ')');
	} else if (p->tags & TAG_BIT(TAG_HACK)) {
		sb_adds(why, "tag default: HACK with no Clang bound: kept");
	} else {
		char *tags = patch_tags_join(p, ",");
		if (*tags)
			sb_addf(why, "tag default: %s, not a Clang workaround: kept", tags);
		else
			sb_adds(why, "tag default: no tag, no Clang bound: kept");
		free(tags);
	}
}

static void decide_override(struct series *s, struct series_item *it, struct strbuf *why)
{
	char b[32], b2[32];
	const struct override *o = it->ov;
	it->source = SRC_OVERRIDE;
	if (o->kind == OV_UNTIL) {
		it->keep = clangver_cmp(&s->clang, &o->until) < 0;
		sb_addf(why, "manual override: fixed in %s: %s with clang %s", vs(&o->until, b),
			it->keep ? "needed" : "not needed", vs(&s->clang, b2));
	} else {
		it->keep = o->kind == OV_KEEP;
		sb_addf(why, "manual override: %s (automatic: %s)", it->keep ? "keep" : "drop",
			it->auto_keep ? "keep" : "drop");
	}
}

static void decide_one(struct series *s, struct series_item *it)
{
	struct strbuf why = STRBUF_INIT;
	item_reset(it);
	if (!decide_rule(s, it, &why) && !decide_trailer(s, it, &why))
		decide_tag(it, &why);
	it->auto_keep = it->keep;
	it->ov = overrides_lookup(s, it->patch);
	if (it->ov) {
		sb_reset(&why);
		decide_override(s, it, &why);
	}
	it->reason = sb_detach(&why);
}

void series_decide(struct series *s, const struct clang_version *clang)
{
	s->clang = *clang;
	s->kept = s->dropped = 0;
	for (size_t i = 0; i < s->nitems; i++) {
		decide_one(s, &s->items[i]);
		if (s->items[i].keep)
			s->kept++;
		else
			s->dropped++;
	}
	s->decided = true;
	series_check_needs(s);
}

int series_open(struct series *s, struct stack *st, const struct patchset *ps, struct kerr *e)
{
	memset(s, 0, sizeof(*s));
	s->st = st;
	s->ps = ps;
	s->nitems = st->npatches;
	s->items = xcalloc(s->nitems, sizeof(*s->items));
	for (size_t i = 0; i < s->nitems; i++)
		s->items[i].patch = &st->patches[i];
	if (st->repo_path)
		s->ov_path = buildlogs_state_file(st->repo_path, "overrides.yaml");
	int rc = overrides_load(s, e);
	if (rc < 0)
		series_free(s);
	return rc;
}

int series_override(struct series *s, size_t i, enum override_kind kind,
		    const struct clang_version *until, struct kerr *e)
{
	if (i >= s->nitems)
		return kerr_set(e, "no patch %zu (the series has %zu)", i + 1, s->nitems);
	int rc = overrides_set(s, s->items[i].patch, kind, until, e);
	if (s->decided)
		series_decide(s, &s->clang); /* the store may hold other instances' changes too */
	return rc;
}

int series_toggle(struct series *s, size_t i, struct kerr *e)
{
	if (i >= s->nitems)
		return kerr_set(e, "no patch %zu (the series has %zu)", i + 1, s->nitems);
	const struct series_item *it = &s->items[i];
	bool want = !it->keep;
	enum override_kind k = want == it->auto_keep ? OV_NONE : want ? OV_KEEP : OV_DROP;
	return series_override(s, i, k, NULL, e);
}

long series_find(const struct series *s, const char *ref)
{
	char *end;
	long idx = strtol(ref, &end, 10);
	if (*ref && !*end && strlen(ref) < 4)
		return idx >= 1 && (size_t)idx <= s->nitems ? idx - 1 : -1;
	long found = -1;
	size_t n = strlen(ref);
	for (size_t i = 0; i < s->nitems; i++) {
		const struct patch *p = s->items[i].patch;
		const char *cid = patch_trailer(p, "Change-Id");
		bool hit = (n >= 4 && !strncasecmp(p->id, ref, n)) || (cid && !strcmp(cid, ref));
		if (hit && found >= 0)
			return -1;
		if (hit)
			found = (long)i;
	}
	if (found < 0 && *ref && !*end)
		return idx >= 1 && (size_t)idx <= s->nitems ? idx - 1 : -1;
	return found;
}

static void count(struct series_count *c, bool keep)
{
	if (keep)
		c->kept++;
	else
		c->dropped++;
}

void series_count_tags(const struct series *s, struct series_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->nextra = s->st->nextra_tag_names;
	c->extra = xcalloc(c->nextra, sizeof(*c->extra));
	for (size_t i = 0; i < s->nitems; i++) {
		const struct series_item *it = &s->items[i];
		const struct patch *p = it->patch;
		count(&c->total, it->keep);
		if (!p->tags && !p->nextra_tags)
			count(&c->untagged, it->keep);
		for (int t = 0; t < TAG_COUNT; t++)
			if (p->tags & TAG_BIT(t))
				count(&c->tag[t], it->keep);
		for (size_t k = 0; k < p->nextra_tags; k++)
			for (size_t x = 0; x < c->nextra; x++)
				if (!strcmp(p->extra_tags[k], s->st->extra_tag_names[x]))
					count(&c->extra[x], it->keep);
	}
}

void series_counts_free(struct series_counts *c)
{
	free(c->extra);
	c->extra = NULL;
}

void series_free(struct series *s)
{
	for (size_t i = 0; i < s->nitems; i++)
		item_reset(&s->items[i]);
	free(s->items);
	for (size_t i = 0; i < s->novs; i++) {
		free(s->ovs[i].commit);
		free(s->ovs[i].change_id);
		free(s->ovs[i].subject);
	}
	free(s->ovs);
	free(s->ov_path);
	series_hunks_free(s);
	memset(s, 0, sizeof(*s));
}
