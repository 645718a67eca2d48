/* Text, TSV and quickfix writers. TSV is the bulk format (CI, scripts, the
 * benchmark), so it is built in a buffer without printf. */
#include "core/diagout.h"

#include <string.h>

#include "core/group.h"
#include "core/triage.h"

const char *diag_row_side(const struct diag *d, enum diag_view v)
{
	switch (v) {
	case DIAG_VIEW_COMPILERS:
		return diag_side_name(d->side);
	case DIAG_VIEW_BASELINE:
		return diag_base_name(d->base);
	default:
		return diag_cc_name(d->cc);
	}
}

/* A TSV field and the separator after it: tabs become spaces ("-" for
 * nothing). Stored text has no line breaks (lex_text). */
static void add_field(struct strbuf *b, const char *s, size_t n, char sep)
{
	if (!n)
		s = "-", n = 1;
	sb_grow(b, n + 1);
	char *d = b->buf + b->len;
	memcpy(d, s, n);
	for (char *t = memchr(d, '\t', n); t; t = memchr(t, '\t', (size_t)(d + n - t)))
		*t = ' ';
	d[n] = sep;
	b->len += n + 1;
}

static void add_str(struct strbuf *b, const char *s, char sep)
{
	add_field(b, s, s ? strlen(s) : 0, sep);
}

static void add_uint(struct strbuf *b, unsigned long v, char sep)
{
	char tmp[24];
	size_t i = sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	add_field(b, tmp + i, sizeof(tmp) - i, sep);
}

void diag_write_tsv(FILE *f, struct diag *const *rows, size_t n, enum diag_view v)
{
	struct strbuf b = STRBUF_INIT, g = STRBUF_INIT;
	sb_adds(&b, DIAG_TSV_HEADER);
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = rows[i];
		add_str(&b, diag_row_side(d, v), '\t');
		add_str(&b, d->loc.file, '\t');
		add_uint(&b, d->loc.line, '\t');
		add_uint(&b, d->loc.col, '\t');
		add_str(&b, d->family ? d->family : d->flag, '\t');
		add_str(&b, d->flag, '\t');
		group_label(d, &g);
		add_field(&b, g.buf, g.len, '\t');
		add_uint(&b, d->occurrences, '\t');
		add_str(&b, d->message, '\n');
		if (b.len > (1u << 20)) {
			fwrite(b.buf, 1, b.len, f);
			sb_reset(&b);
		}
	}
	fwrite(b.buf, 1, b.len, f);
	sb_free(&b);
	sb_free(&g);
}

void diag_loc_text(struct strbuf *sb, const struct diag_loc *l)
{
	sb_adds(sb, *l->file ? l->file : "<build>");
	if (l->line)
		sb_addf(sb, ":%u", l->line);
	if (l->col)
		sb_addf(sb, ":%u", l->col);
}

static void print_loc(FILE *f, const struct diag_loc *l)
{
	struct strbuf sb = STRBUF_INIT;
	diag_loc_text(&sb, l);
	fputs(sb_str(&sb), f);
	sb_free(&sb);
}

void diag_write_quickfix(FILE *f, struct diag *const *rows, size_t n, enum diag_view v)
{
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = rows[i];
		if (!*d->loc.file)
			continue;
		print_loc(f, &d->loc);
		fprintf(f, ": %s: %s", diag_kind_name(d->kind), d->message);
		if (*d->flag)
			fprintf(f, " [%s]", d->flag);
		if (v != DIAG_VIEW_PARSE)
			fprintf(f, " (%s)", diag_row_side(d, v));
		fputc('\n', f);
	}
}

static void write_one(FILE *f, const struct diag *d, enum diag_view v)
{
	for (size_t i = 0; i < d->nincludes; i++)
		fprintf(f, "  %s %s:%u\n", i ? "  from" : "In file included from",
			d->includes[i].file, d->includes[i].line);
	print_loc(f, &d->loc);
	fprintf(f, ": %s: %s", diag_kind_name(d->kind), d->message);
	if (*d->flag)
		fprintf(f, " [%s]", d->flag);
	fprintf(f, " {%s", diag_row_side(d, v));
	if (v != DIAG_VIEW_PARSE && d->cc != DIAG_CC_UNKNOWN)
		fprintf(f, ", %s", diag_cc_name(d->cc));
	if (*d->arch)
		fprintf(f, ", %s", d->arch);
	if (d->occurrences > 1)
		fprintf(f, ", %u times in %zu units", d->occurrences, d->ntus);
	if (d->status)
		fprintf(f, ", %s", triage_status_name(d->status));
	fputs("}\n", f);
	if (d->function)
		fprintf(f, "    in function %s\n", d->function);
	if (d->source)
		fprintf(f, "    | %s\n", d->source);
	if (d->spell.line != d->loc.line || strcmp(d->spell.file, d->loc.file)) {
		fputs("    spelled at ", f);
		print_loc(f, &d->spell);
		fputc('\n', f);
	}
	for (size_t i = 0; i < d->nnotes; i++) {
		fputs(i < d->nmacros ? "    macro: " : "    note: ", f);
		print_loc(f, &d->notes[i].loc);
		fprintf(f, ": %s\n", d->notes[i].msg);
	}
	if (d->peer && v == DIAG_VIEW_COMPILERS)
		fprintf(f, "    gcc: %s [%s]\n", d->peer->message, d->peer->flag);
	if (d->triage_note)
		fprintf(f, "    triage: %s\n", d->triage_note);
}

void diag_write_text(FILE *f, struct diag *const *rows, size_t n, enum diag_view v,
		     const struct diag_diff *sum)
{
	size_t ng;
	struct diag_group *g = group_collect(rows, n, &ng);
	unsigned long warn = 0, err = 0;
	for (size_t k = 0; k < ng; k++) {
		fprintf(f, "== %s: %zu diagnostic%s", g[k].name, g[k].n, g[k].n == 1 ? "" : "s");
		if (g[k].nsub > 1)
			fprintf(f, " in %zu subgroups", g[k].nsub);
		fputc('\n', f);
		const char *sub = NULL;
		for (size_t i = 0; i < g[k].n; i++) {
			const struct diag *d = g[k].diags[i];
			if (d->subgroup && (!sub || strcmp(sub, d->subgroup)))
				fprintf(f, "-- %s\n", sub = d->subgroup);
			write_one(f, d, v);
			if (d->kind == DIAG_ERROR)
				err += d->occurrences;
			else
				warn += d->occurrences;
		}
		fputc('\n', f);
	}
	group_collect_free(g, ng);
	fprintf(f, "%zu diagnostic%s (%lu warnings, %lu errors reported)", n, n == 1 ? "" : "s",
		warn, err);
	if (sum && v == DIAG_VIEW_COMPILERS)
		fprintf(f, ": clang-only %lu, gcc-only %lu, both %lu", sum->clang_only,
			sum->gcc_only, sum->both);
	else if (sum && v == DIAG_VIEW_BASELINE)
		fprintf(f, ": new %lu, fixed %lu, outstanding %lu", sum->added, sum->fixed,
			sum->outstanding);
	fputc('\n', f);
}
