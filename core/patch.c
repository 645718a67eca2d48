/* One patch's message: subject, title and tags, body, trailers. Follows git:
 * the subject is the first paragraph with its lines joined by a space (what
 * `git log --format=%s` prints), and trailers are read from the last
 * paragraph with git interpret-trailers' rules (all lines trailers, or at
 * least a quarter of them with a git-generated one such as Signed-off-by). */
#include "core/stack.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CHERRY_PICK "(cherry picked from commit"

struct line {
	const char *s;
	size_t len; /* without the newline and trailing blanks */
};

static bool is_blank(const struct line *l)
{
	return l->len == 0;
}

/* Split text into lines, each right-trimmed (as git does for the subject). */
static struct line *split_lines(const char *text, size_t *n)
{
	struct line *v = NULL;
	size_t cap = 0;
	*n = 0;
	for (const char *s = text; *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		size_t t = len;
		while (t && isspace((unsigned char)s[t - 1]))
			t--;
		ALLOC_GROW(v, *n + 1, cap);
		v[(*n)++] = (struct line){s, t};
		s += len + (nl ? 1 : 0);
	}
	return v;
}

static void add_trailer(struct patch *p, size_t *cap, const char *key, size_t klen, const char *val,
			size_t vlen)
{
	ALLOC_GROW(p->trailers, p->ntrailers + 1, *cap);
	while (vlen && isspace((unsigned char)*val))
		val++, vlen--;
	while (vlen && isspace((unsigned char)val[vlen - 1]))
		vlen--;
	p->trailers[p->ntrailers].key = xstrndup(key, klen);
	p->trailers[p->ntrailers].value = xstrndup(val, vlen);
	p->ntrailers++;
}

/* "(cherry picked from commit X)": the length of X, with *id set, or 0. */
static size_t cherry_pick_id(const struct line *l, const char **id)
{
	size_t n = strlen(CHERRY_PICK);
	if (l->len <= n + 1 || strncmp(l->s, CHERRY_PICK " ", n + 1))
		return 0;
	const char *s = l->s + n + 1, *end = l->s + l->len;
	const char *close = memchr(s, ')', (size_t)(end - s));
	*id = s;
	return (size_t)((close ? close : end) - s);
}

/* git's find_separator: a token of letters, digits and '-', optional blanks,
 * then ':'. Returns the token length (0 if the line is not a trailer). */
static size_t trailer_key(const struct line *l, size_t *sep)
{
	size_t i = 0, klen = 0;
	while (i < l->len && (isalnum((unsigned char)l->s[i]) || l->s[i] == '-'))
		i++;
	klen = i;
	while (i < l->len && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	if (!klen || i >= l->len || l->s[i] != ':')
		return 0;
	/* "https://..." in a body is a link, not a trailer named https */
	if (i + 2 < l->len && l->s[i + 1] == '/' && l->s[i + 2] == '/')
		return 0;
	*sep = i;
	return klen;
}

static bool is_git_generated(const struct line *l)
{
	const char *id;
	return !strncasecmp(l->s, "Signed-off-by:", 14) || cherry_pick_id(l, &id);
}

/* Is the paragraph lines[from..to) a trailer block? */
static bool trailer_block(const struct line *v, size_t from, size_t to)
{
	size_t trailers = 0, others = 0, sep;
	bool generated = false, prev_trailer = false;
	for (size_t i = from; i < to; i++) {
		const char *id;
		if (v[i].len && (v[i].s[0] == ' ' || v[i].s[0] == '\t')) {
			if (!prev_trailer)
				others++;
			continue;
		}
		prev_trailer = trailer_key(&v[i], &sep) || cherry_pick_id(&v[i], &id);
		if (prev_trailer)
			trailers++;
		else
			others++;
		generated |= is_git_generated(&v[i]);
	}
	return trailers && (!others || (generated && trailers * 3 >= others));
}

static void parse_trailers(struct patch *p, const struct line *v, size_t n)
{
	size_t cap = 0, end = n, start, sep, klen;
	while (end && is_blank(&v[end - 1]))
		end--;
	start = end;
	while (start && !is_blank(&v[start - 1]))
		start--;
	bool block = start < end && trailer_block(v, start, end);
	for (size_t i = 0; i < n; i++) {
		const char *id;
		size_t idlen = cherry_pick_id(&v[i], &id);
		bool in_block = block && i >= start && i < end;
		if (idlen) {
			add_trailer(p, &cap, CHERRY_PICK, strlen(CHERRY_PICK), id, idlen);
		} else if (in_block && (klen = trailer_key(&v[i], &sep))) {
			/* the value runs on over continuation lines */
			size_t j = i + 1;
			while (j < end && v[j].len && (v[j].s[0] == ' ' || v[j].s[0] == '\t'))
				j++;
			const char *val = v[i].s + sep + 1;
			size_t vlen = (size_t)(v[j - 1].s + v[j - 1].len - val);
			add_trailer(p, &cap, v[i].s, klen, val, vlen);
			struct trailer *t = &p->trailers[p->ntrailers - 1];
			for (char *c = t->value; *c; c++)
				if (*c == '\n' || *c == '\t')
					*c = ' ';
			i = j - 1;
		}
	}
	/* the array to its size: ALLOC_GROW's sixteen slots are 240 bytes
	 * a patch that a 10,000-patch stack would touch for nothing */
	if (p->ntrailers < cap)
		p->trailers = xrealloc(p->trailers, p->ntrailers * sizeof(*p->trailers));
}

static void set_tags(struct patch *p, const char *const *extra, size_t nextra)
{
	struct subject_tags st;
	subject_parse_tags(p->subject, extra, nextra, &st);
	p->title = xstrdup(st.title);
	p->revert = st.revert;
	p->tags = 0;
	p->ntags = st.ntags;
	for (size_t i = 0; i < st.ntags; i++) {
		p->tag_order[i] = st.tags[i];
		p->tags |= TAG_BIT(st.tags[i]);
	}
	p->nextra_tags = st.nextra;
	p->extra_tags = st.nextra ? xcalloc(st.nextra, sizeof(char *)) : NULL;
	for (size_t i = 0; i < st.nextra; i++)
		p->extra_tags[i] = xstrdup(extra[st.extra[i]]);
	/* renumber extra tags to this patch's own extra_tags[] */
	p->ntag_seq = st.nseq;
	for (size_t i = 0, x = 0; i < st.nseq; i++)
		p->tag_seq[i] = st.seq[i] >= 0 ? st.seq[i] : (short)(-(int)++x);
}

void patch_parse_message(struct patch *p, const char *message, const char *const *extra,
			 size_t nextra)
{
	size_t n, i = 0;
	struct line *v = split_lines(message ? message : "", &n);
	struct strbuf sb = STRBUF_INIT;

	while (i < n && is_blank(&v[i]))
		i++;
	for (; i < n && !is_blank(&v[i]); i++) {
		if (sb.len)
			sb_addc(&sb, ' ');
		sb_add(&sb, v[i].s, v[i].len);
	}
	p->subject = sb_detach(&sb);
	while (i < n && is_blank(&v[i]))
		i++;
	size_t end = n;
	while (end > i && is_blank(&v[end - 1]))
		end--;
	p->body = end > i ? xstrndup(v[i].s, (size_t)(v[end - 1].s + v[end - 1].len - v[i].s))
			  : xstrdup("");
	if (end > i) /* v is NULL for an empty message */
		parse_trailers(p, v + i, end - i);
	set_tags(p, extra, nextra);
	free(v);
}

const char *patch_trailer(const struct patch *p, const char *key)
{
	for (size_t i = 0; i < p->ntrailers; i++)
		if (!strcasecmp(p->trailers[i].key, key))
			return p->trailers[i].value;
	return NULL;
}

char *patch_tags_join(const struct patch *p, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < p->ntag_seq; i++) {
		short t = p->tag_seq[i];
		if (i)
			sb_adds(&sb, sep);
		if (t >= 0 && t < TAG_COUNT)
			sb_adds(&sb, tag_names[t]);
		else if (t < 0 && (size_t)(-t - 1) < p->nextra_tags)
			sb_adds(&sb, p->extra_tags[-t - 1]);
	}
	return sb_detach(&sb);
}

void patch_free(struct patch *p)
{
	free(p->subject);
	free(p->title);
	for (size_t i = 0; i < p->nextra_tags; i++)
		free(p->extra_tags[i]);
	free(p->extra_tags);
	free(p->author);
	free(p->author_email);
	free(p->body);
	for (size_t i = 0; i < p->ntrailers; i++) {
		free(p->trailers[i].key);
		free(p->trailers[i].value);
	}
	free(p->trailers);
	free(p->diff);
	free(p->source);
	memset(p, 0, sizeof(*p));
}
