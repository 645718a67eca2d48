/* Reading the demo's `git format-patch` files: the From:, Date: and
 * Subject: headers (folded lines joined), the message up to the `---` line,
 * and the diff that follows the diffstat. */
#include "core/demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
				     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

int demo_parse_date(const char *s, int64_t *time_out, int *tz)
{
	struct tm tm = {0};
	char mon[4], sign;
	int zh, zm, n = 0;

	const char *comma = strchr(s, ',');
	if (comma)
		s = comma + 1;
	if (sscanf(s, " %d %3s %d %d:%d:%d %c%2d%2d%n", &tm.tm_mday, mon, &tm.tm_year, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec, &sign, &zh, &zm, &n) != 9 ||
	    (sign != '+' && sign != '-'))
		return -1;
	tm.tm_mon = -1;
	for (int i = 0; i < 12; i++)
		if (!strcmp(mon, months[i]))
			tm.tm_mon = i;
	if (tm.tm_mon < 0 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_year < 1970 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60 || zh > 14 || zm > 59)
		return -1;
	tm.tm_year -= 1900;
	int off = (sign == '-' ? -1 : 1) * (zh * 60 + zm);
	*time_out = (int64_t)timegm(&tm) - off * 60;
	*tz = off;
	return 0;
}

/* The value of a header, with folded continuation lines joined. */
static char *header_value(const char *start, const char *end)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *s = start; s < end; s++)
		if (*s != '\n')
			sb_addc(&sb, *s);
	return sb_detach(&sb);
}

static int parse_from(char *v, struct demo_patch *p)
{
	char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	if (!lt || !gt)
		return -1;
	*gt = '\0';
	p->email = xstrdup(lt + 1);
	while (lt > v && lt[-1] == ' ')
		lt--;
	p->author = xstrndup(v, (size_t)(lt - v));
	return 0;
}

int demo_patch_parse(const char *text, const char *path, struct demo_patch *p, struct kerr *e)
{
	memset(p, 0, sizeof(*p));
	if (!str_startswith(text, "From "))
		return kerr_set(e, "%s:1: not a git format-patch file (no 'From ' line)", path);
	const char *s = strchr(text, '\n');
	char *subject = NULL;
	bool have_date = false;
	int line = 2, rc = -1;
	/* Headers: "Key: value" lines, continued by lines that start with a blank. */
	while (s && *++s && *s != '\n') {
		const char *end = s;
		int first = line;
		for (;;) {
			end = strchr(end, '\n');
			if (!end || (end[1] != ' ' && end[1] != '\t'))
				break;
			end++;
			line++;
		}
		if (!end) {
			kerr_set(e, "%s:%d: the headers do not end", path, first);
			goto out;
		}
		line++;
		const char *colon = memchr(s, ':', (size_t)(end - s));
		char *v = colon ? header_value(colon + 2 <= end ? colon + 2 : end, end) : NULL;
		if (colon && str_startswith(s, "From:") && parse_from(v, p) < 0) {
			kerr_set(e, "%s:%d: From: needs 'Name <email>'", path, first);
			free(v);
			goto out;
		} else if (colon && str_startswith(s, "Date:")) {
			if (demo_parse_date(v, &p->time, &p->tz) < 0) {
				kerr_set(e, "%s:%d: bad Date: '%s'", path, first, v);
				free(v);
				goto out;
			}
			have_date = true;
		} else if (colon && str_startswith(s, "Subject:")) {
			free(subject);
			subject = v;
			v = NULL;
		}
		free(v);
		s = end;
	}
	if (!p->author || !have_date || !subject || !*subject) {
		kerr_set(e, "%s: needs From:, Date: and Subject: headers", path);
		goto out;
	}
	if (!s || !*s) {
		kerr_set(e, "%s:%d: no message after the headers", path, line);
		goto out;
	}
	/* The body runs from after the blank line to the "---" line. */
	const char *body = s + 1, *dashes = NULL;
	for (const char *l = body; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		if (!strncmp(l, "---\n", 4)) {
			dashes = l;
			break;
		}
	p->diff = dashes ? strstr(dashes, "\ndiff --git ") : NULL;
	if (!p->diff) {
		kerr_set(e, "%s: no '---' line followed by a diff", path);
		goto out;
	}
	p->diff++;
	if (dashes > body)
		p->message = xasprintf("%s\n\n%.*s", subject, (int)(dashes - body), body);
	else
		p->message = xasprintf("%s\n", subject);
	rc = 0;
out:
	free(subject);
	if (rc < 0)
		demo_patch_free(p);
	return rc;
}

void demo_patch_free(struct demo_patch *p)
{
	free(p->author);
	free(p->email);
	free(p->message);
	memset(p, 0, sizeof(*p));
}
