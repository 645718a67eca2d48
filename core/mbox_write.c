/* Writing a patch back as a git format-patch mail (the reverse of mbox.c). */
#include "core/mbox.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static bool ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Would a reader change the text of a header: not ASCII, or an "=?" a
 * reader takes for an encoded word (git format-patch asks the same)? */
static bool needs_encoding(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80 || (s[0] == '=' && s[1] == '?'))
			return true;
	return false;
}

/* RFC 2047 Q encoding of a header text a reader would otherwise change. */
static void add_header_text(struct strbuf *sb, const char *s)
{
	if (!needs_encoding(s)) {
		sb_adds(sb, s);
		return;
	}
	sb_adds(sb, "=?UTF-8?q?");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == ' ')
			sb_addc(sb, '_');
		else if (c >= 0x80 || c == '=' || c == '?' || c == '_' || c < 0x20)
			sb_addf(sb, "=%02X", c);
		else
			sb_addc(sb, (char)c);
	}
	sb_adds(sb, "?=");
}

static void add_date(struct strbuf *sb, int64_t t, int tz)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t local = (time_t)(t + (int64_t)tz * 60);
	struct tm tm;
	gmtime_r(&local, &tm);
	int a = tz < 0 ? -tz : tz;
	sb_addf(sb, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d", days[tm.tm_wday], tm.tm_mday,
		months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
		tz < 0 ? '-' : '+', a / 60, a % 60);
}

static void add_from(struct strbuf *sb, const struct patch *p)
{
	sb_adds(sb, "From: ");
	if (p->author && *p->author && strcmp(p->author, p->author_email ? p->author_email : "")) {
		add_header_text(sb, p->author);
		sb_addf(sb, " <%s>\n", p->author_email ? p->author_email : "");
	} else {
		/* git am needs a name: "unknown", as a patch applied with a base */
		sb_addf(sb, "%s\n",
			p->author_email && *p->author_email ? p->author_email
							    : "unknown <unknown>");
	}
}

/* Would a reader (mbox.c, git mailinfo) take the body's first lines for
 * in-body From:/Subject:/Date: headers? */
static bool body_looks_like_headers(const char *b)
{
	b += strspn(b, "\r\n");
	return !strncasecmp(b, "From:", 5) || !strncasecmp(b, "Subject:", 8) ||
	       !strncasecmp(b, "Date:", 5);
}

void mbox_format_patch(const struct patch *p, const char *diff, size_t n, size_t total,
		       struct strbuf *out)
{
	const char *id = p->id[0] ? p->id : "0000000000000000000000000000000000000000";
	sb_addf(out, "From %s Mon Sep 17 00:00:00 2001\n", id);
	add_from(out, p);
	if (p->time) {
		sb_adds(out, "Date: ");
		add_date(out, p->time, p->tz_offset);
		sb_addc(out, '\n');
	}
	sb_adds(out, "Subject: [PATCH");
	if (total > 1)
		sb_addf(out, " %zu/%zu", n, total);
	sb_adds(out, "] ");
	add_header_text(out, p->subject);
	sb_addc(out, '\n');
	if (!ascii(p->body) || !ascii(p->subject) || (p->author && !ascii(p->author)))
		sb_adds(out, "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
			     "Content-Transfer-Encoding: 8bit\n");
	sb_addc(out, '\n');
	/* Readers take only the first block of in-body headers, so one of our
	 * own (the same From:) keeps such a body as it is. */
	if (body_looks_like_headers(p->body)) {
		add_from(out, p);
		sb_addc(out, '\n');
	}
	for (const char *l = p->body; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		size_t q = strspn(l, ">");
		if (len >= q + 5 && !strncmp(l + q, "From ", 5))
			sb_addc(out, '>');
		sb_add(out, l, len);
		sb_addc(out, '\n');
		l += len + (nl != NULL);
	}
	sb_adds(out, *p->body ? "---\n\n" : "---\n");
	sb_adds(out, diff ? diff : "");
	sb_adds(out, "-- \nklang " KLANG_VERSION "\n\n");
}
