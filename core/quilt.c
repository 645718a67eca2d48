/* Reading a quilt series: the series file, then each patch file in order. */
#include "core/quilt.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *quilt_find_series(const char *path, struct kerr *e)
{
	if (!is_dir(path)) {
		if (file_exists(path))
			return xstrdup(path);
		kerr_set(e,
			 "%s: no such quilt series (a directory with a series file, or "
			 "the series file)",
			 path);
		return NULL;
	}
	const char *tries[] = {"series", "patches/series"};
	for (size_t i = 0; i < ARRAY_SIZE(tries); i++) {
		char *p = xasprintf("%s/%s", path, tries[i]);
		if (file_exists(p) && !is_dir(p))
			return p;
		free(p);
	}
	kerr_set(e, "%s: no quilt series here (looked for series and patches/series)", path);
	return NULL;
}

/* One option after the patch name; false if it is not one quilt knows. */
static bool read_option(char **tok, size_t *i, size_t ntok, int *strip, const char **why)
{
	const char *t = tok[*i];
	if (!strcmp(t, "-R")) {
		*why = "reverse patches (-R) are not supported";
		return false;
	}
	if (strncmp(t, "-p", 2)) {
		*why = "unknown option";
		return false;
	}
	const char *v = t[2] ? t + 2 : *i + 1 < ntok ? tok[++*i] : "";
	if (!strcmp(v, "ab")) { /* quilt's -p ab: a/ and b/ prefixes */
		*strip = 1;
		return true;
	}
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < 0 || n > 64) {
		*why = "bad -p value";
		return false;
	}
	*strip = (int)n;
	return true;
}

void quilt_parse_series(const char *text, struct quilt_entry **entries, size_t *n)
{
	size_t cap = 0, lineno = 0;
	*entries = NULL;
	*n = 0;
	for (const char *s = text; *s;) {
		const char *nl = strchr(s, '\n');
		char *line = xstrndup(s, nl ? (size_t)(nl - s) : strlen(s));
		s = nl ? nl + 1 : s + strlen(s);
		lineno++;
		/* "#" starts a comment at the start of a line or after a blank */
		for (char *c = line; *c; c++)
			if (*c == '#' && (c == line || isspace((unsigned char)c[-1]))) {
				*c = '\0';
				break;
			}
		char *tok[16];
		size_t ntok = 0;
		for (char *t = strtok(line, " \t\r"); t && ntok < ARRAY_SIZE(tok);
		     t = strtok(NULL, " \t\r"))
			tok[ntok++] = t;
		if (!ntok) {
			free(line);
			continue;
		}
		int strip = 1;
		const char *why = NULL;
		size_t i;
		for (i = 1; i < ntok; i++)
			if (!read_option(tok, &i, ntok, &strip, &why))
				break;
		ALLOC_GROW(*entries, *n + 1, cap);
		(*entries)[(*n)++] = (struct quilt_entry){
		    xstrdup(tok[0]), strip, lineno,
		    why ? xasprintf("%s '%s'", why, tok[i < ntok ? i : ntok - 1]) : NULL};
		free(line);
	}
}

void quilt_entries_free(struct quilt_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].error);
	}
	free(v);
}

int quilt_read(struct patch_files *pf, const char *path, const struct patch_read_opts *o,
	       struct kerr *e)
{
	char *series = quilt_find_series(path, e);
	if (!series)
		return -1;
	char *text = read_file(series, NULL, e);
	if (!text) {
		free(series);
		return -1;
	}
	struct quilt_entry *v;
	size_t n;
	quilt_parse_series(text, &v, &n);
	free(text);
	char *dir = xstrdup(series);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; i < n; i++) {
		if (v[i].error) {
			patch_files_malformed(pf, series, v[i].line, "%s: %s", v[i].name,
					      v[i].error);
			continue;
		}
		struct patch_read_opts po = {true, v[i].strip, o ? o->extra_tags : NULL,
					     o ? o->nextra_tags : 0};
		char *p = slash ? xasprintf("%s/%s", dir, v[i].name) : xstrdup(v[i].name);
		struct kerr fe;
		if (mbox_read(pf, p, &po, &fe) < 0) {
			/* "dir/x.patch: No such file" -> "x.patch: No such file" */
			const char *why = str_startswith(fe.msg, p) ? fe.msg + strlen(p) : NULL;
			patch_files_malformed(pf, series, v[i].line, "%s%s", why ? v[i].name : "",
					      why ? why : fe.msg);
		}
		free(p);
	}
	free(dir);
	quilt_entries_free(v, n);
	free(series);
	return 0;
}
