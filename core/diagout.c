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

/* A TSV field: its text with control bytes (a tab, a line break in a rule's
 * name) made spaces, as fput_flat does ("-" for nothing). Rows come sorted,
 * so a column's interned string (file, family, flag, group) is mostly the
 * one of the row before: its length and whether it holds a control byte
 * are kept per column and worked out again only when the pointer changes. */
struct tsv_col {
	const char *key; /* the string asked for (NULL too) */
	const char *s;	 /* what is written: key, or "-"; NULL before the first */
	size_t n;
	bool ctl;
};

static bool is_ctl(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

static void col_set(struct tsv_col *c, const char *s, size_t n)
{
	if (!n)
		s = "-", n = 1;
	c->s = s;
	c->n = n;
	c->ctl = false;
	for (size_t i = 0; i < n && !c->ctl; i++)
		c->ctl = is_ctl(s[i]);
}

static void col_str(struct tsv_col *c, const char *s)
{
	if (c->s && c->key == s)
		return;
	c->key = s;
	col_set(c, s, s ? strlen(s) : 0);
}

/* Copy a column and its separator to o (room was made). */
static char *put(char *o, const struct tsv_col *c, char sep)
{
	memcpy(o, c->s, c->n);
	for (size_t i = 0; c->ctl && i < c->n; i++)
		if (is_ctl(o[i]))
			o[i] = ' ';
	o[c->n] = sep;
	return o + c->n + 1;
}

static char *put_uint(char *o, unsigned long v, char sep)
{
	char tmp[24];
	size_t i = sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(o, tmp + i, sizeof(tmp) - i);
	o += sizeof(tmp) - i;
	*o++ = sep;
	return o;
}

void diag_write_tsv(FILE *f, struct diag *const *rows, size_t n, enum diag_view v)
{
	struct strbuf b = STRBUF_INIT, g = STRBUF_INIT;
	struct tsv_col side = {0}, file = {0}, family = {0}, flag = {0}, label = {0}, msg = {0};
	const char *group = NULL, *sub = NULL;
	sb_adds(&b, DIAG_TSV_HEADER);
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = rows[i];
		/* rows sorted by place are scattered in memory: ask for the
		 * next ones early */
		if (i + 8 < n)
			__builtin_prefetch(rows[i + 8]);
		if (i + 4 < n)
			__builtin_prefetch(rows[i + 4]->message);
		col_str(&side, diag_row_side(d, v));
		col_str(&file, d->loc.file);
		col_str(&family, d->family ? d->family : d->flag);
		col_str(&flag, d->flag);
		if (!label.s || d->group != group || d->subgroup != sub) {
			group_label(d, &g); /* "group:subgroup" */
			col_set(&label, g.buf, g.len);
			group = d->group;
			sub = d->subgroup;
		}
		col_set(&msg, d->message, d->message ? strlen(d->message) : 0);
		sb_grow(&b, side.n + file.n + family.n + flag.n + label.n + msg.n + 3 * 24 + 6);
		char *o = b.buf + b.len;
		o = put(o, &side, '\t');
		o = put(o, &file, '\t');
		o = put_uint(o, d->loc.line, '\t');
		o = put_uint(o, d->loc.col, '\t');
		o = put(o, &family, '\t');
		o = put(o, &flag, '\t');
		o = put(o, &label, '\t');
		o = put_uint(o, d->occurrences, '\t');
		o = put(o, &msg, '\n');
		b.len = (size_t)(o - b.buf);
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
		fprintf(f, ", %u times in %u units", d->occurrences, d->ntus);
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
		fputs("== ", f);
		fput_flat(f, g[k].name);
		fprintf(f, ": %zu diagnostic%s", g[k].n, g[k].n == 1 ? "" : "s");
		if (g[k].nsub > 1)
			fprintf(f, " in %zu subgroups", g[k].nsub);
		fputc('\n', f);
		const char *sub = NULL;
		for (size_t i = 0; i < g[k].n; i++) {
			const struct diag *d = g[k].diags[i];
			if (d->subgroup && (!sub || strcmp(sub, d->subgroup))) {
				fputs("-- ", f);
				fput_flat(f, sub = d->subgroup);
				fputc('\n', f);
			}
			write_one(f, d, v);
			if (d->kind == DIAG_ERROR)
				err += d->occurrences;
			else
				warn += d->occurrences;
		}
		fputc('\n', f);
	}
	group_collect_free(g, ng);
	fprintf(f, "%zu diagnostic%s (%lu warning%s, %lu error%s reported)", n, n == 1 ? "" : "s",
		warn, warn == 1 ? "" : "s", err, err == 1 ? "" : "s");
	if (sum && v == DIAG_VIEW_COMPILERS)
		fprintf(f, ": clang-only %lu, gcc-only %lu, both %lu", sum->clang_only,
			sum->gcc_only, sum->both);
	else if (sum && v == DIAG_VIEW_BASELINE)
		fprintf(f, ": new %lu, fixed %lu, outstanding %lu", sum->added, sum->fixed,
			sum->outstanding);
	fputc('\n', f);
}
