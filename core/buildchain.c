/* A build tree's warnings across incremental builds (see core/buildlogs.h).
 * Kbuild compiles again only what changed, so a build's log holds the
 * warnings of what it compiled, not those of the tree. The logs of the
 * builds before are kept in OUT/earlier/N.log (N counting up) and read with
 * the newest: each unit's warnings come from the last log that compiled it. */
#include "core/buildlogs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/diag.h"
#include "core/kbuild.h"
#include "core/strmap.h"
#include "core/util.h"

/* What a log's build compiled: its translation units by stem
 * ("kernel/fork" for kernel/fork.o and kernel/fork.c), and whether it
 * linked (ld and modpost warnings are printed again then). */
struct units {
	struct strmap stems;
	bool linked;
};

/* PATH (LEN bytes) without its extension, and without OUT/ before it (OUT
 * as realpath gives it: the objects of an O= build outside the tree are
 * printed with it) */
static const char *stem(const char *path, size_t len, const char *out, struct strbuf *sb)
{
	size_t olen = strlen(out);
	if (len > olen && !memcmp(path, out, olen) && path[olen] == '/')
		path += olen + 1, len -= olen + 1;
	const char *slash = memrchr(path, '/', len), *dot = memrchr(path, '.', len);
	if (dot && (!slash || dot > slash))
		len = (size_t)(dot - path);
	sb_reset(sb);
	sb_add(sb, path, len);
	return sb->buf;
}

static bool compiled(const struct units *u, const char *path, const char *out, struct strbuf *sb)
{
	return *path && strmap_get(&u->stems, stem(path, strlen(path), out, sb));
}

static void unit_line(struct units *u, const char *line, size_t len, const char *out,
		      struct strbuf *sb)
{
	struct kbuild_line kl;
	if (len < 5 || line[0] != ' ' || !kbuild_parse_line(line, len, &kl))
		return;
	if (kl.object || !strcmp(kl.tag, "HOSTCC") || !strcmp(kl.tag, "HOSTCXX"))
		strmap_put(&u->stems, stem(kl.target, kl.target_len, out, sb), u);
	else if (!strcmp(kl.tag, "LD") || !strcmp(kl.tag, "MODPOST"))
		u->linked = true;
}

/* Add what LOG's build compiled to u (a log that cannot be read adds
 * nothing): its quiet lines, each a line of its own (klang's builds run
 * make with --output-sync=line). Read in blocks, as a parse does. */
static void scan_units(const char *log, const char *out, struct units *u)
{
	int fd = open(log, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	enum { BLOCK = 1 << 20 };
	char *buf = xmalloc(BLOCK);
	struct strbuf sb = STRBUF_INIT;
	size_t have = 0;
	bool skip = false; /* in a line longer than the block: not a quiet line */
	for (;;) {
		ssize_t r = read(fd, buf + have, BLOCK - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		char *p = buf, *end = buf + have + (size_t)r, *nl;
		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			if (!skip)
				unit_line(u, p, (size_t)(nl - p), out, &sb);
			skip = false;
			p = nl + 1;
		}
		have = (size_t)(end - p);
		if (have == BLOCK)
			skip = true, have = 0;
		memmove(buf, p, have);
	}
	if (have && !skip)
		unit_line(u, buf, have, out, &sb);
	sb_free(&sb);
	free(buf);
	close(fd);
}

static bool units_within(const struct units *a, const struct units *b)
{
	const char *k;
	void *v;
	for (size_t i = 0; strmap_next(&a->stems, &i, &k, &v);)
		if (!strmap_get(&b->stems, k))
			return false;
	return !a->linked || b->linked;
}

static void units_join(struct units *into, const struct units *from)
{
	const char *k;
	void *v;
	for (size_t i = 0; strmap_next(&from->stems, &i, &k, &v);)
		strmap_put(&into->stems, k, into);
	into->linked |= from->linked;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* The numbers N of OUT/earlier/N.log, oldest first. */
static size_t earlier_list(const char *out, unsigned **nums)
{
	char *path = xasprintf("%s/earlier", out);
	DIR *d = opendir(path);
	free(path);
	size_t n = 0, cap = 0;
	*nums = NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(de->d_name, &end, 10);
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || errno || v > 99999999 ||
		    strcmp(end, ".log"))
			continue;
		ALLOC_GROW(*nums, n + 1, cap);
		(*nums)[n++] = (unsigned)v;
	}
	if (d)
		closedir(d);
	if (n)
		qsort(*nums, n, sizeof(**nums), cmp_unsigned);
	return n;
}

static char *earlier_path(const char *out, unsigned num)
{
	return xasprintf("%s/earlier/%u.log", out, num);
}

static void rmdir_earlier(const char *out)
{
	char *dir = xasprintf("%s/earlier", out);
	rmdir(dir); /* once empty */
	free(dir);
}

static char *dir_of(const char *log)
{
	const char *slash = strrchr(log, '/');
	return slash ? xstrndup(log, (size_t)(slash - log)) : xstrdup(".");
}

/* Remove the kept logs NUMS (N, oldest first) every unit of which a later
 * build compiled again, and linked again if it did: they have nothing left
 * to say. `later` has what the builds after the newest of them compiled. */
static void prune(const char *out, const char *strip, const unsigned *nums, size_t n,
		  struct units *later)
{
	for (size_t i = n; i-- > 0;) {
		char *p = earlier_path(out, nums[i]);
		struct units u = {STRMAP_INIT, false};
		scan_units(p, strip, &u);
		if (units_within(&u, later))
			unlink(p);
		else
			units_join(later, &u);
		strmap_free(&u.stems);
		free(p);
	}
	rmdir_earlier(out);
}

void buildlogs_prune(const char *out)
{
	char *log = xasprintf("%s/build.log", out), *real = realpath(out, NULL);
	unsigned *nums;
	size_t n = earlier_list(out, &nums);
	struct units later = {STRMAP_INIT, false};
	if (n) {
		scan_units(log, real ? real : out, &later);
		prune(out, real ? real : out, nums, n, &later);
	}
	strmap_free(&later.stems);
	free(nums);
	free(real);
	free(log);
}

/* The config of the build whose log is OUT/build.log, if its summary says
 * (written after the log when it finished), else NULL. Caller frees. */
static char *previous_config(const char *out, const char *log)
{
	char *path = xasprintf("%s/summary.json", out);
	struct stat ss, sl;
	json_t *sum = !stat(path, &ss) && !stat(log, &sl) && ss.st_mtime >= sl.st_mtime
			  ? json_load_file(path, 0, NULL)
			  : NULL;
	const char *c = json_string_value(json_object_get(sum, "config"));
	char *config = c ? xstrdup(c) : NULL;
	json_decref(sum);
	free(path);
	return config;
}

int buildlogs_keep_previous(const char *out, const char *config, struct kerr *e)
{
	char *log = xasprintf("%s/build.log", out), *was = previous_config(out, log);
	unsigned *nums;
	size_t n = earlier_list(out, &nums);
	struct units prev = {STRMAP_INIT, false};
	char *real = realpath(out, NULL);
	const char *strip = real ? real : out;
	int rc = 0;
	if (was && strcmp(was, config)) {
		/* another config: another kernel (the units it no longer
		 * builds would never be compiled again, their warnings kept) */
		for (size_t i = 0; i < n; i++) {
			char *p = earlier_path(out, nums[i]);
			unlink(p);
			free(p);
		}
		rmdir_earlier(out);
		goto done;
	}
	scan_units(log, strip, &prev);
	if (!prev.stems.n && !prev.linked) /* compiled nothing: says nothing */
		goto done;
	char *dir = xasprintf("%s/earlier", out), *to = earlier_path(out, n ? nums[n - 1] + 1 : 1);
	if (mkdir_p(dir, e) < 0)
		rc = -1;
	else if (rename(log, to) < 0)
		rc = kerr_set(e, "keeping %s as %s: %s", log, to, strerror(errno));
	free(dir);
	free(to);
done:
	strmap_free(&prev.stems);
	free(real);
	free(nums);
	free(log);
	free(was);
	return rc;
}

size_t buildlogs_earlier(const char *log)
{
	char *out = dir_of(log);
	unsigned *nums;
	size_t n = earlier_list(out, &nums);
	free(nums);
	free(out);
	return n;
}

/* Whether PATH has a warning's or an error's marker, read until the first. */
static bool warns(const char *path)
{
	static const char *const marks[] = {"warning: ", "error: ", "WARNING: "};
	FILE *f = fopen(path, "r");
	char buf[1 << 16];
	size_t keep = 0, n;
	bool hit = false;
	while (f && !hit && (n = fread(buf + keep, 1, sizeof(buf) - keep, f)) > 0) {
		n += keep;
		for (size_t i = 0; i < ARRAY_SIZE(marks) && !hit; i++)
			hit = memmem(buf, n, marks[i], strlen(marks[i]));
		keep = n < 8 ? n : 8; /* a marker across two reads */
		memmove(buf, buf + n - keep, keep);
	}
	if (f)
		fclose(f);
	return hit;
}

size_t buildlogs_earlier_warned(const char *log)
{
	char *out = dir_of(log);
	unsigned *nums;
	size_t n = earlier_list(out, &nums), warned = 0;
	for (size_t i = 0; i < n; i++) {
		char *p = earlier_path(out, nums[i]);
		warned += warns(p);
		free(p);
	}
	free(nums);
	free(out);
	return warned;
}

/* Add d, read from an earlier log, to `into` unless a later build compiled
 * it again: of its units, those not compiled since; without a unit, by its
 * file, or (an object, vmlinux, no file: a link's) by a later link. */
static void carry(struct diag_set *into, const struct diag *d, const struct units *later,
		  const char *out, struct strbuf *sb, const char **tus)
{
	struct diag c = *d;
	if (d->ntus) {
		c.ntus = 0;
		for (uint32_t i = 0; i < d->ntus; i++)
			if (!compiled(later, d->tus[i], out, sb))
				tus[c.ntus++] = d->tus[i];
		if (!c.ntus)
			return;
		c.tus = tus;
		unsigned gone = d->ntus - c.ntus;
		c.occurrences = d->occurrences > gone ? d->occurrences - gone : 1;
	} else if (compiled(later, d->loc.file, out, sb) ||
		   compiled(later, d->spell.file, out, sb)) {
		return;
	} else if (later->linked) {
		static const char *const src[] = {".c", ".h", ".S", ".s", ".rs", ".lds"};
		const char *dot = strrchr(d->loc.file, '.');
		bool source = false;
		for (size_t i = 0; dot && i < ARRAY_SIZE(src) && !source; i++)
			source = !strcmp(dot, src[i]);
		if (!source)
			return;
	}
	diag_set_add(into, &c);
}

/* Parse the kept LOG and carry what a later build did not compile again.
 * A kept log that cannot be read (a build starting in another klang just
 * removed it) adds nothing. */
static void carry_log(struct diag_set *into, const char *log, const struct diag_parser_opts *o,
		      const struct units *later, const char *out)
{
	struct kerr e;
	struct diag_set *s = diag_set_new();
	int rc = diag_parse_file(s, log, o, &e);
	size_t cap = 0;
	for (size_t k = 0; !rc && k < diag_set_size(s); k++)
		if (diag_set_get(s, k)->ntus > cap)
			cap = diag_set_get(s, k)->ntus;
	const char **tus = xcalloc(cap + 1, sizeof(*tus));
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; !rc && k < diag_set_size(s); k++)
		carry(into, diag_set_get(s, k), later, out, &sb, tus);
	sb_free(&sb);
	free(tus);
	diag_set_free(s);
}

int buildlogs_parse(struct diag_set *into, const char *log, const struct diag_parser_opts *o,
		    struct kerr *e)
{
	char *out = dir_of(log), *real = realpath(out, NULL);
	const char *strip = real ? real : out;
	unsigned *nums;
	size_t n = earlier_list(out, &nums);
	int rc = diag_parse_file(into, log, o, e);
	struct units later = {STRMAP_INIT, false};
	if (n)
		scan_units(log, strip, &later);
	/* units and notes are kept (not brief): a unit compiled again says
	 * which of a header's warnings are still to be carried */
	struct diag_parser_opts full = *o;
	full.brief = false;
	full.on_diag = NULL;
	full.log_name = NULL;
	for (size_t i = n; !rc && i-- > 0;) {
		char *p = earlier_path(out, nums[i]);
		struct units u = {STRMAP_INIT, false};
		scan_units(p, strip, &u);
		if (!units_within(&u, &later)) /* else all compiled again since */
			carry_log(into, p, &full, &later, strip);
		units_join(&later, &u);
		strmap_free(&u.stems);
		free(p);
	}
	strmap_free(&later.stems);
	free(nums);
	free(real);
	free(out);
	return rc;
}
