/* Reading the tags at the start of a patch subject ("BACKPORT: FROMLIST: x").
 *
 * Rules (strict on purpose, real stacks write tags this way):
 * - a tag is a known word (tags.h) or a patchset's extra word, written exactly
 *   (case-sensitive: "Upstream:" is not a tag), followed by ':' and then a
 *   blank or the end of the subject ("HACK:x" is not a tag);
 * - consecutive tags are all read; the first word that is not a tag ends them,
 *   so "ANDROID: ARM: x" is ANDROID with title "ARM: x";
 * - a tag must start the word: "DO-NOT-UPSTREAM:" is not UPSTREAM;
 * - mail prefixes "[PATCH v2 3/7]", "[RFC PATCH]" before the tags are skipped;
 * - "Revert "..."" is a revert: the tags inside the quotes are not read. */
#include "core/tags.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

const char *const tag_names[TAG_COUNT] = {
#define TAG_NAME(id, name) name,
    TAG_LIST(TAG_NAME)
#undef TAG_NAME
};

int tag_from_name(const char *name)
{
	for (int t = 0; t < TAG_COUNT; t++)
		if (!strcmp(tag_names[t], name))
			return t;
	return -1;
}

int tag_from_name_icase(const char *name)
{
	for (int t = 0; t < TAG_COUNT; t++)
		if (!strcasecmp(tag_names[t], name))
			return t;
	return -1;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A "[PATCH ...]" or "[RFC ...]" mail prefix: returns the text after it, or
 * NULL if `s` does not start with one ("[sh4] x" is a subsystem, kept). */
static const char *skip_mail_prefix(const char *s)
{
	if (*s != '[')
		return NULL;
	const char *end = strchr(s, ']');
	if (!end)
		return NULL;
	for (const char *w = s + 1; w + 3 <= end; w++) {
		bool at_word = w == s + 1 || !isalpha((unsigned char)w[-1]);
		if (at_word && (!strncasecmp(w, "PATCH", 5) || !strncasecmp(w, "RFC", 3)))
			return skip_blanks(end + 1);
	}
	return NULL;
}

/* Length of `word` if `s` starts with "word:" then a blank or the end. */
static size_t match_tag(const char *s, const char *word)
{
	if (*s != *word) /* most words are ruled out here (10,000 subjects x 10 tags) */
		return 0;
	size_t n = strlen(word);
	if (!n || strncmp(s, word, n) || s[n] != ':')
		return 0;
	if (s[n + 1] && s[n + 1] != ' ' && s[n + 1] != '\t')
		return 0;
	return n;
}

static bool is_revert(const char *s)
{
	return !strncmp(s, "Revert \"", 8);
}

void subject_parse_tags(const char *subject, const char *const *extra, size_t nextra,
			struct subject_tags *out)
{
	memset(out, 0, sizeof(*out));
	out->title = subject;
	const char *s = skip_blanks(subject), *p;
	while ((p = skip_mail_prefix(s)))
		s = p;
	if (is_revert(s)) {
		out->revert = true;
		return;
	}
	for (;;) {
		size_t n = 0;
		int known = -1;
		for (int t = 0; t < TAG_COUNT && !n; t++)
			if ((n = match_tag(s, tag_names[t])))
				known = t;
		size_t x = 0;
		for (; x < nextra && !n; x++)
			n = match_tag(s, extra[x]);
		if (!n)
			break;
		if (out->nseq >= TAG_MAX_PER_SUBJECT)
			break;
		if (known >= 0) {
			out->tags[out->ntags++] = (unsigned char)known;
			out->seq[out->nseq++] = (short)known;
		} else {
			out->extra[out->nextra++] = x - 1;
			out->seq[out->nseq++] = (short)(-(int)x);
		}
		s = skip_blanks(s + n + 1);
		out->title = s;
	}
	if (out->nseq)
		out->revert = is_revert(s);
}
