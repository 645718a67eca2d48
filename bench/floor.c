/* The least work a parser of build logs must do for `klang diag parse
 * --format tsv`, as a reference for bench/diag.sh: find the lines with
 * ": warning: " as grep does, split each into file, line, column, message
 * and flag, count equal ones in a hash table, sort the distinct ones by
 * place and print them. Nothing more: no notes (so no macro expansion
 * sites), no include chains, no path normalisation, no flag families, no
 * groups, no errors. Whatever klang does beyond grep, this does less of.
 *   floor LOG >rows.tsv */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct row {
	uint64_t hash;
	const char *text; /* path, message, flag: in the arena */
	uint32_t plen, mlen, flen, line, col, count;
};

static struct row *table;
static size_t cap = 1024, used;

static void *must(void *p)
{
	if (!p) {
		perror("floor");
		exit(2);
	}
	return p;
}

static uint64_t hash(const char *s, size_t n, uint64_t h)
{
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xff51afd7ed558ccdull;
	return h ^ h >> 31;
}

/* Strings of new rows, in blocks that are never moved. */
static char *copy(const char *a, size_t an, const char *b, size_t bn, const char *c, size_t cn)
{
	static char *block;
	static size_t left;
	size_t n = an + bn + cn;
	if (n > left) {
		left = n > (1u << 20) ? n : 1u << 20;
		block = must(malloc(left));
	}
	char *p = block;
	memcpy(p, a, an);
	memcpy(p + an, b, bn);
	memcpy(p + an + bn, c, cn);
	block += n;
	left -= n;
	return p;
}

static void grow(void)
{
	struct row *old = table;
	size_t ocap = cap;
	cap *= 2;
	table = must(calloc(cap, sizeof(*table)));
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].count)
			continue;
		size_t j = old[i].hash & (cap - 1);
		while (table[j].count)
			j = (j + 1) & (cap - 1);
		table[j] = old[i];
	}
	free(old);
}

/* "path:line:col: warning: message [-Wflag]" from s to e; mark is ": warning: ". */
static void warning(const char *s, const char *mark, const char *e)
{
	const char *p = mark;
	unsigned num[2] = {0, 0};
	for (int k = 1; k >= 0; k--) {
		unsigned v = 0, scale = 1;
		while (p > s && p[-1] >= '0' && p[-1] <= '9') {
			v += (unsigned)(*--p - '0') * scale;
			scale *= 10;
		}
		if (p == s || p[-1] != ':')
			return;
		num[k] = v;
		p--;
	}
	size_t plen = (size_t)(p - s);
	const char *m = mark + 11, *f = "";
	size_t mlen = (size_t)(e - m), flen = 0;
	if (mlen > 3 && m[mlen - 1] == ']') {
		const char *o = memrchr(m, '[', mlen);
		if (o && o > m) {
			f = o + 1;
			flen = (size_t)(m + mlen - 1 - f);
			mlen = (size_t)(o - 1 - m);
		}
	}
	uint64_t h = hash(m, mlen, hash(s, plen, (uint64_t)num[0] << 32 | num[1]));
	h = hash(f, flen, h);
	if (2 * (used + 1) > cap)
		grow();
	size_t j = h & (cap - 1);
	for (; table[j].count; j = (j + 1) & (cap - 1)) {
		struct row *r = &table[j];
		if (r->hash == h && r->line == num[0] && r->col == num[1] && r->plen == plen &&
		    r->mlen == mlen && r->flen == flen && !memcmp(r->text, s, plen) &&
		    !memcmp(r->text + plen, m, mlen) && !memcmp(r->text + plen + mlen, f, flen)) {
			r->count++;
			return;
		}
	}
	table[j] = (struct row){h, copy(s, plen, m, mlen, f, flen), (uint32_t)plen, (uint32_t)mlen,
				(uint32_t)flen, num[0], num[1], 1};
	used++;
}

static int by_place(const void *pa, const void *pb)
{
	const struct row *a = *(struct row *const *)pa, *b = *(struct row *const *)pb;
	int c = memcmp(a->text, b->text, a->plen < b->plen ? a->plen : b->plen);
	if (c || a->plen != b->plen)
		return c ? c : a->plen < b->plen ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->col < b->col ? -1 : a->col > b->col;
}

static char *put(char *o, const char *s, size_t n, char sep)
{
	memcpy(o, s, n);
	o[n] = sep;
	return o + n + 1;
}

static char *put_uint(char *o, unsigned v, char sep)
{
	char tmp[16];
	int i = sizeof(tmp);
	do
		tmp[--i] = (char)('0' + v % 10);
	while (v /= 10);
	return put(o, tmp + i, sizeof(tmp) - (size_t)i, sep);
}

int main(int argc, char **argv)
{
	int fd = argc == 2 ? open(argv[1], O_RDONLY) : -1;
	if (fd < 0) {
		fprintf(stderr, "usage: floor LOG\n");
		return 2;
	}
	size_t bufcap = 128u << 10, have = 0;
	char *buf = must(malloc(bufcap + 1));
	table = must(calloc(cap, sizeof(*table)));
	for (;;) {
		ssize_t n = read(fd, buf + have, bufcap - have);
		if (n < 0) {
			perror(argv[1]);
			return 2;
		}
		have += (size_t)n;
		char *last = memrchr(buf, '\n', have);
		if (n == 0 && !last && have) /* the last line, unterminated */
			buf[have] = '\n', last = buf + have++;
		if (!last) {
			if (n == 0)
				break;
			if (have == bufcap) /* a line longer than the buffer: dropped */
				have = 0;
			continue;
		}
		const char *line = buf;
		for (const char *q = buf; (q = memmem(q, (size_t)(last - q), ": warning: ", 11));) {
			const char *st = memrchr(line, '\n', (size_t)(q - line));
			const char *e = memchr(q, '\n', (size_t)(last + 1 - q));
			warning(st ? st + 1 : line, q, e);
			line = q = e + 1;
		}
		have = (size_t)(buf + have - (last + 1));
		memmove(buf, last + 1, have);
		if (n == 0)
			break;
	}
	struct row **rows = must(malloc((used + 1) * sizeof(*rows)));
	size_t k = 0;
	for (size_t i = 0; i < cap; i++)
		if (table[i].count)
			rows[k++] = &table[i];
	qsort(rows, used, sizeof(*rows), by_place);
	char *out = must(malloc((2u << 20) + 64));
	char *o = out;
	for (size_t i = 0; i < used; i++) {
		const struct row *r = rows[i];
		if (o - out + r->plen + r->mlen + r->flen + 64 > (2u << 20)) {
			fwrite(out, 1, (size_t)(o - out), stdout);
			o = out;
		}
		o = put(o, r->text, r->plen, '\t');
		o = put_uint(o, r->line, '\t');
		o = put_uint(o, r->col, '\t');
		o = put(o, r->text + r->plen + r->mlen, r->flen, '\t');
		o = put_uint(o, r->count, '\t');
		o = put(o, r->text + r->plen, r->mlen, '\n');
	}
	fwrite(out, 1, (size_t)(o - out), stdout);
	return 0;
}
