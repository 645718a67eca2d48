/* PCRE2 group rules: load (with positions for error messages), compile with
 * JIT, apply to each distinct diagnostic, and collect groups for a view. */
#include "core/group.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/ydoc.h"

enum { P_FLAG, P_MESSAGE, P_FILE, P_N };
static const char *const pat_keys[P_N] = {"flag", "message", "file"};

struct rule {
	char *name;
	pcre2_code *re[P_N];
};

struct group_rules {
	struct rule *r;
	size_t n, cap;
};

struct group_rules *group_rules_new(void)
{
	return xcalloc(1, sizeof(struct group_rules));
}

void group_rules_free(struct group_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->r[i].name);
		for (int k = 0; k < P_N; k++)
			pcre2_code_free(r->r[i].re[k]);
	}
	free(r->r);
	free(r);
}

size_t group_rules_count(const struct group_rules *r)
{
	return r->n;
}

static pcre2_code *compile(const char *path, const struct ynode *n, struct kerr *e)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re =
	    pcre2_compile((PCRE2_SPTR)n->str, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof(msg));
		kerr_set(e, "%s:%u:%u: pattern error at offset %zu: %s", path, n->line, n->col,
			 (size_t)off, (const char *)msg);
		return NULL;
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* falls back to the interpreter */
	return re;
}

static int load_rule(void *ctx, const char *path, const struct ynode *m, struct kerr *e)
{
	struct group_rules *r = ctx;
	if (m->type != Y_MAP)
		return kerr_set(e,
				"%s:%u:%u: expected a rule {name, flag, message, file}, found %s",
				path, m->line, m->col, ydoc_type_name(m->type));
	struct rule rule = {0};
	bool any = false;
	for (size_t i = 0; i + 1 < m->n; i += 2) {
		const struct ynode *k = m->items[i], *v = m->items[i + 1];
		int which = -1;
		for (int p = 0; p < P_N; p++)
			if (k->type == Y_SCALAR && !strcmp(k->str, pat_keys[p]))
				which = p;
		bool is_name = k->type == Y_SCALAR && !strcmp(k->str, "name");
		if (which < 0 && !is_name) {
			kerr_set(
			    e, "%s:%u:%u: unknown key '%s' (a rule has name, flag, message, file)",
			    path, k->line, k->col, k->type == Y_SCALAR ? k->str : "?");
			goto fail;
		}
		if (v->type != Y_SCALAR) {
			kerr_set(e, "%s:%u:%u: '%s' needs a string, found %s", path, v->line,
				 v->col, k->str, ydoc_type_name(v->type));
			goto fail;
		}
		const char *c = v->str;
		while (*c && (unsigned char)*c >= 0x20 && *c != 0x7f)
			c++;
		if (is_name && *c) { /* a name is one line of the text and TSV output */
			kerr_set(e,
				 "%s:%u:%u: a rule name may not hold control characters (0x%02x)",
				 path, v->line, v->col, (unsigned char)*c);
			goto fail;
		}
		if (is_name) {
			free(rule.name);
			rule.name = xstrdup(v->str);
			continue;
		}
		pcre2_code_free(rule.re[which]);
		if (!(rule.re[which] = compile(path, v, e)))
			goto fail;
		any = true;
	}
	if (!rule.name || !*rule.name) {
		kerr_set(e, "%s:%u:%u: rule needs a 'name'", path, m->line, m->col);
		goto fail;
	}
	if (!any) {
		kerr_set(e, "%s:%u:%u: rule '%s' needs 'flag', 'message' or 'file'", path, m->line,
			 m->col, rule.name);
		goto fail;
	}
	ALLOC_GROW(r->r, r->n + 1, r->cap);
	r->r[r->n++] = rule;
	return 0;
fail:
	free(rule.name);
	for (int p = 0; p < P_N; p++)
		pcre2_code_free(rule.re[p]);
	return -1;
}

int group_rules_load(struct group_rules *r, const char *path, struct kerr *e)
{
	return ydoc_each(path, "rules", load_rule, r, e);
}

struct group_rules *group_rules_default(const char *repo, const char *extra, struct kerr *e)
{
	struct group_rules *r = group_rules_new();
	char *local = xasprintf("%s/.klang/rules.yaml", repo ? repo : ".");
	char *shipped = data_path("rules/default.yaml");
	int rc = 0;
	if (extra)
		rc = group_rules_load(r, extra, e);
	if (!rc && file_exists(local))
		rc = group_rules_load(r, local, e);
	if (!rc && shipped)
		rc = group_rules_load(r, shipped, e);
	free(local);
	free(shipped);
	if (rc) {
		group_rules_free(r);
		return NULL;
	}
	return r;
}

/* ASCII is valid UTF-8: PCRE2 need not check it again. */
static bool is_ascii(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ull)
			return false;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] & 0x80)
			return false;
	return true;
}

static bool match(pcre2_match_data *md, pcre2_code *re, const char *s, struct strbuf *sub)
{
	if (!re)
		return true;
	if (!s)
		s = "";
	size_t n = strlen(s);
	int rc =
	    pcre2_match(re, (PCRE2_SPTR)s, n, 0, is_ascii(s, n) ? PCRE2_NO_UTF_CHECK : 0, md, NULL);
	if (rc < 0)
		return false;
	uint32_t count, size;
	PCRE2_SPTR table;
	pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
	if (!count)
		return true;
	pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &size);
	pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	uint32_t npairs = rc ? (uint32_t)rc : pcre2_get_ovector_count(md);
	/* the name table is sorted by name; subgroups follow the pattern's order */
	for (uint32_t g = 1; g < npairs; g++) {
		bool named = false;
		for (uint32_t i = 0; i < count && !named; i++) {
			const unsigned char *ent = table + (size_t)i * size;
			named = (uint32_t)(ent[0] << 8 | ent[1]) == g;
		}
		if (!named || ov[2 * g] == PCRE2_UNSET)
			continue;
		if (sub->len)
			sb_addc(sub, '/');
		sb_add(sub, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
	}
	return true;
}

/* A pattern's result on one flag, family, message or file, kept per rule
 * and pattern: a log has few distinct flags and files and many
 * diagnostics, and the same message text in many places. Keyed by
 * pointer: a set's strings are interned (a text at two addresses is only
 * worked out twice). */
struct hit {
	bool ok;
	size_t len;
	char sub[];
};

struct hit_cache {
	struct ptrmap map; /* string -> struct hit */
	const char *last;  /* the string asked last, and its answer */
	struct hit *last_hit;
};

static bool match_cached(pcre2_match_data *md, pcre2_code *re, struct hit_cache *cache,
			 const char *s, struct strbuf *sub)
{
	if (!re)
		return true;
	if (!s)
		s = "";
	struct hit *h = s == cache->last ? cache->last_hit : NULL;
	bool added = false;
	uint64_t *v = h ? NULL : ptrmap_add(&cache->map, s, &added);
	if (v && !added)
		h = (struct hit *)(uintptr_t)*v;
	if (!h) {
		size_t from = sub->len;
		bool ok = match(md, re, s, sub);
		h = xmalloc(sizeof(*h) + sub->len - from + 1);
		h->ok = ok;
		h->len = sub->len - from;
		memcpy(h->sub, sub->buf ? sub->buf + from : "", h->len);
		sub->len = from;
		if (sub->buf)
			sub->buf[from] = '\0';
		*v = (uintptr_t)h;
	}
	cache->last = s;
	cache->last_hit = h;
	if (h->ok)
		sb_add(sub, h->sub, h->len);
	return h->ok;
}

/* A rule's flag pattern against a diagnostic's flag, then its family. */
static bool flag_matches(pcre2_match_data *md, pcre2_code *re, struct hit_cache *c,
			 const struct diag *d, struct strbuf *sub)
{
	return match_cached(md, re, c, d->flag, sub) ||
	       (re && d->family && strcmp(d->family, d->flag) &&
		match_cached(md, re, c, d->family, sub));
}

/* The rules whose flag pattern passes a flag or its family, as bits (the
 * first 64; the caller tries any past them): most diagnostics have a flag no rule names,
 * and one lookup per diagnostic skips the rules. A family is the same for
 * every diagnostic of a flag, so the flag is the key. */
static uint64_t flag_rules(const struct group_rules *r, struct hit_cache *cache,
			   pcre2_match_data *md, struct ptrmap *masks, const struct diag *d,
			   struct strbuf *sub)
{
	bool added;
	uint64_t *m = ptrmap_add(masks, d->flag ? d->flag : "", &added);
	if (!added)
		return *m;
	uint64_t bits = 0;
	for (size_t k = 0; k < r->n && k < 64; k++) {
		sb_reset(sub);
		if (flag_matches(md, r->r[k].re[P_FLAG], &cache[P_N * k + P_FLAG], d, sub))
			bits |= 1ull << k;
	}
	return *m = bits;
}

void group_apply(const struct group_rules *rules, struct diag_set *s)
{
	const struct group_rules *r = rules;
	/* match data of its own: sets are grouped in parallel with one rule list */
	pcre2_match_data *md = pcre2_match_data_create(64, NULL);
	struct strbuf sub = STRBUF_INIT;
	struct hit_cache *cache = xcalloc(P_N * r->n + 1, sizeof(*cache));
	const char **names = xcalloc(r->n + 1, sizeof(*names)); /* interned in s */
	struct ptrmap masks = {0};
	for (size_t i = 0; i < diag_set_size(s); i++) {
		struct diag *d = diag_set_get(s, i);
		const char *fam = d->family && *d->family ? d->family : d->flag;
		d->group = *fam ? fam : "(no flag)";
		d->subgroup = NULL;
		uint64_t maybe = flag_rules(r, cache, md, &masks, d, &sub);
		size_t end = r->n > 64 ? r->n : maybe ? 64 - (size_t)__builtin_clzll(maybe) : 0;
		for (size_t k = 0; k < end; k++) {
			const struct rule *ru = &r->r[k];
			if (k < 64 && !(maybe >> k & 1))
				continue;
			struct hit_cache *c = &cache[P_N * k];
			sb_reset(&sub);
			/* again for its captures (a cached answer) */
			if (!flag_matches(md, ru->re[P_FLAG], &c[P_FLAG], d, &sub) ||
			    !match_cached(md, ru->re[P_MESSAGE], &c[P_MESSAGE], d->message, &sub) ||
			    !match_cached(md, ru->re[P_FILE], &c[P_FILE], d->loc.file, &sub))
				continue;
			if (!names[k])
				names[k] = diag_set_intern(s, ru->name, strlen(ru->name));
			d->group = names[k];
			if (sub.len)
				d->subgroup = diag_set_intern(s, sub.buf, sub.len);
			break;
		}
	}
	ptrmap_free(&masks);
	for (size_t k = 0; k < P_N * r->n; k++) {
		for (size_t j = 0; j < cache[k].map.cap; j++)
			if (cache[k].map.keys[j])
				free((void *)(uintptr_t)cache[k].map.vals[j]);
		ptrmap_free(&cache[k].map);
	}
	free(cache);
	free(names);
	sb_free(&sub);
	pcre2_match_data_free(md);
}

const char *group_label(const struct diag *d, struct strbuf *buf)
{
	sb_reset(buf);
	sb_adds(buf, d->group ? d->group : "-");
	if (d->subgroup) { /* no printf: the TSV writer asks for every row */
		sb_addc(buf, ':');
		sb_adds(buf, d->subgroup);
	}
	return buf->buf;
}

/* Order within a group: subgroup, file, line, then as given (what a
 * stable sort on those gives). Sorting 100,000 diagnostics by their
 * strings misses the cache at every compare, so each distinct string gets
 * its rank first and the sort compares small keys. */
struct skey {
	uint32_t sub, file;
	unsigned line;
	size_t i;
};

static int cmp_skey(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	if (a->sub != b->sub)
		return a->sub < b->sub ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void sort_in_group(struct diag **v, size_t n)
{
	if (n < 2)
		return;
	const char **strs = xmalloc(n * sizeof(*strs));
	uint32_t *sub = xmalloc(n * sizeof(*sub)), *file = xmalloc(n * sizeof(*file));
	for (size_t i = 0; i < n; i++)
		strs[i] = v[i]->subgroup;
	diag_rank_strings(strs, n, sub);
	for (size_t i = 0; i < n; i++)
		strs[i] = v[i]->loc.file;
	diag_rank_strings(strs, n, file);
	struct skey *keys = xmalloc(n * sizeof(*keys));
	for (size_t i = 0; i < n; i++)
		keys[i] = (struct skey){sub[i], file[i], v[i]->loc.line, i};
	qsort(keys, n, sizeof(*keys), cmp_skey);
	struct diag **tmp = xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[keys[i].i];
	memcpy(v, tmp, n * sizeof(*v));
	free(tmp);
	free(keys);
	free(file);
	free(sub);
	free(strs);
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct diag_group *a = pa, *b = pb;
	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct diag_group *group_collect(struct diag *const *diags, size_t n, size_t *ngroups)
{
	struct strmap idx = STRMAP_INIT;
	struct diag_group *g = NULL;
	size_t ng = 0, cap = 0;
	size_t *caps = NULL;
	const char *last = NULL; /* diagnostics come in runs of one group */
	size_t cur = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = diags[i]->group ? diags[i]->group : "-";
		size_t *slot = name == last ? (void *)(uintptr_t)(cur + 1) : strmap_get(&idx, name);
		last = name;
		if (!slot) {
			ALLOC_GROW(g, ng + 1, cap);
			caps = xrealloc(caps, cap * sizeof(*caps));
			cur = ng++;
			g[cur] = (struct diag_group){.name = name};
			caps[cur] = 0;
			strmap_put(&idx, name, (void *)(uintptr_t)(cur + 1));
		} else {
			cur = (size_t)(uintptr_t)slot - 1;
		}
		ALLOC_GROW(g[cur].diags, g[cur].n + 1, caps[cur]);
		g[cur].diags[g[cur].n++] = diags[i];
		g[cur].occurrences += diags[i]->occurrences;
	}
	for (size_t k = 0; k < ng; k++) {
		sort_in_group(g[k].diags, g[k].n);
		for (size_t i = 0; i < g[k].n; i++)
			if (!i ||
			    strcmp(g[k].diags[i]->subgroup ? g[k].diags[i]->subgroup : "",
				   g[k].diags[i - 1]->subgroup ? g[k].diags[i - 1]->subgroup : ""))
				g[k].nsub++;
	}
	if (ng)
		qsort(g, ng, sizeof(*g), cmp_group);
	free(caps);
	strmap_free(&idx);
	*ngroups = ng;
	return g;
}

void group_collect_free(struct diag_group *g, size_t ngroups)
{
	for (size_t k = 0; k < ngroups; k++)
		free(g[k].diags);
	free(g);
}
