/* Helpers for the diagnostics test suites (not a suite). */
#include "tests/diagtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "tests/helpers.h"

char *dt_shared(const char *rel)
{
	char *p = test_fixture(rel);
	if (file_exists(p))
		return p;
	free(p);
	/* a git worktree sits one level deeper than the main checkout */
	return xasprintf("%s/../../shared/fixtures/%s", test_src_dir(), rel);
}

char *dt_ours(const char *name)
{
	return xasprintf("%s/tests/fixtures/diag/%s", test_src_dir(), name);
}

struct diag_set *dt_parse_file(const char *path, enum diag_cc cc)
{
	struct diag_set *s = diag_set_new();
	struct diag_parser_opts o = {.cc = cc};
	struct kerr e;
	if (diag_parse_file(s, path, &o, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		diag_set_free(s);
		return NULL;
	}
	return s;
}

struct diag_set *dt_parse_text(const char *text, enum diag_cc cc)
{
	struct diag_set *s = diag_set_new();
	struct diag_parser_opts o = {.cc = cc, .log_name = "text"};
	struct diag_parser *p = diag_parser_new(&o);
	diag_parser_feed(p, text, strlen(text));
	diag_parser_finish(p, s);
	return s;
}

static bool matches(const struct diag *d, const char *file, unsigned line, const char *what)
{
	return !strcmp(d->loc.file, file) && d->loc.line == line &&
	       (!what || strstr(d->flag, what) || strstr(d->message, what));
}

struct diag *dt_find(const struct diag_set *s, const char *file, unsigned line, const char *what)
{
	for (size_t i = 0; i < diag_set_size(s); i++)
		if (matches(diag_set_get(s, i), file, line, what))
			return diag_set_get(s, i);
	return NULL;
}

size_t dt_count(const struct diag_set *s, const char *file, unsigned line)
{
	size_t n = 0;
	for (size_t i = 0; i < diag_set_size(s); i++)
		n += matches(diag_set_get(s, i), file, line, NULL);
	return n;
}

unsigned long dt_grep_count(const char *path, const char *needle)
{
	struct kerr e;
	size_t len;
	char *text = read_file(path, &len, &e);
	unsigned long n = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		n += strstr(line, needle) != NULL;
		line = nl ? nl + 1 : line + strlen(line);
	}
	free(text);
	return n;
}
