/* Kbuild quiet lines, build progress and the stand-in diagnostics counter. */
#include "core/kbuild.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

static bool is_tag_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool kbuild_parse_line(const char *line, size_t len, struct kbuild_line *out)
{
	size_t i = 2, t;
	if (len < 5 || line[0] != ' ' || line[1] != ' ' || !(line[2] >= 'A' && line[2] <= 'Z'))
		return false;
	while (i < len && is_tag_char(line[i]))
		i++;
	t = i - 2;
	if (t >= sizeof(out->tag) || i >= len || line[i] != ' ')
		return false;
	memcpy(out->tag, line + 2, t);
	out->tag[t] = '\0';
	out->module = len - i >= 4 && !memcmp(line + i, " [M]", 4);
	if (out->module)
		i += 4;
	if (i >= len || line[i] != ' ')
		return false;
	while (i < len && line[i] == ' ')
		i++;
	while (len > i && (line[len - 1] == ' ' || line[len - 1] == '\r'))
		len--;
	if (i >= len)
		return false;
	out->target = line + i;
	out->target_len = len - i;
	out->object = !strcmp(out->tag, "CC") || !strcmp(out->tag, "AS");
	return true;
}

/* Parallel jobs share one pipe: a quiet line can land in the middle of a
 * diagnostic another job was writing ("In file included from   CC      x.o").
 * Find an object's quiet line there too. */
static bool embedded_object(const char *line, size_t len, struct kbuild_line *kl)
{
	static const char *const heads[] = {"  CC      ", "  CC [M]  ", "  AS      ", "  AS [M]  "};
	for (size_t h = 0; h < ARRAY_SIZE(heads); h++) {
		const char *p = memmem(line + 1, len - 1, heads[h], 10);
		if (p && kbuild_parse_line(p, len - (size_t)(p - line), kl))
			return true;
	}
	return false;
}

void kbuild_progress_line(struct kbuild_progress *p, const char *line, size_t len)
{
	struct kbuild_line kl;
	if (!kbuild_parse_line(line, len, &kl) && (len < 11 || !embedded_object(line, len, &kl)))
		return;
	p->steps++;
	if (kl.object)
		p->objects++;
	snprintf(p->last, sizeof(p->last), "%s%s %.*s", kl.tag, kl.module ? " [M]" : "",
		 (int)kl.target_len, kl.target);
}

bool kbuild_total_known(const struct kbuild_progress *p)
{
	return p->expected && p->objects <= p->expected;
}

double kbuild_progress_fraction(const struct kbuild_progress *p)
{
	if (!kbuild_total_known(p))
		return -1;
	double f = (double)p->objects / (double)p->expected;
	/* linking follows the last object: never claim 100% before the end */
	return f > 0.99 ? 0.99 : f;
}

long kbuild_eta(const struct kbuild_progress *p, double elapsed)
{
	if (!kbuild_total_known(p) || p->objects < 5 || elapsed <= 0)
		return -1;
	if (p->objects >= p->expected)
		return 0;
	double rate = (double)p->objects / elapsed;
	return (long)((double)(p->expected - p->objects) / rate + 0.5);
}

static void *simple_open(const char *arch, const char *toolchain)
{
	(void)arch;
	(void)toolchain;
	return NULL;
}

static bool contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	if (n > len)
		return false;
	return memmem(s, len, needle, n) != NULL;
}

static void simple_line(void *state, const char *line, size_t len, unsigned long *warnings,
			unsigned long *errors)
{
	(void)state;
	if (contains(line, len, ": warning:") || (len > 9 && !memcmp(line, "WARNING: ", 9)))
		(*warnings)++;
	else if (contains(line, len, ": error:") || contains(line, len, ": fatal error:") ||
		 (len > 7 && !memcmp(line, "ERROR: ", 7)))
		(*errors)++;
}

static void simple_close(void *state)
{
	(void)state;
}

const struct diag_counter_ops kbuild_simple_counter = {
    .open = simple_open,
    .line = simple_line,
    .close = simple_close,
};

/* The line of CONFIG that starts with "CONFIG_<sym>=" or "# CONFIG_<sym> is
 * not set", 0 if none. */
static unsigned symbol_line(const char *config, const char *sym, size_t len)
{
	unsigned ln = 1;
	for (const char *s = config; *s; ln++) {
		const char *c = !strncmp(s, "# ", 2) ? s + 2 : s;
		if (!strncmp(c, "CONFIG_", 7) && !strncmp(c + 7, sym, len) &&
		    (c[7 + len] == '=' || (c != s && !strncmp(c + 7 + len, " is not set", 11))))
			return ln;
		const char *nl = strchr(s, '\n');
		if (!nl)
			break;
		s = nl + 1;
	}
	return 0;
}

unsigned kbuild_config_line(const char *config, const char *message)
{
	for (const char *m = message; *m;) {
		size_t len = strspn(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		bool upper = len && strcspn(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") < len;
		if (!strncmp(m, "CONFIG_", 7) && len > 7)
			m += 7, len -= 7; /* named with its prefix */
		unsigned ln = upper && len > 1 && (m == message || !isalnum((unsigned char)m[-1]))
				  ? symbol_line(config, m, len)
				  : 0;
		if (ln)
			return ln;
		m += len ? len : 1;
	}
	return 0;
}
