/* JSON in and out with jansson. Readers turn GCC's JSON diagnostics and
 * SARIF 2.1.0 results into diagnostics fed to the parser (so paths are
 * normalised like a log's); writers produce klang's JSON (a summary and the
 * diagnostics with notes and chains) and SARIF 2.1.0 for code scanning. */
#include "core/sarif.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/diaglex.h"
#include "core/group.h"
#include "core/strmap.h"
#include "core/triage.h"

/* ---- reading ---- */

/* A diagnostic being built from structured input. Its strings go to one
 * buffer as offsets (the buffer moves while it grows) and become pointers
 * when it is handed to the parser. */
#define NO ((size_t)-1)
struct bnote {
	enum diag_note_kind kind;
	size_t file, msg, macro;
	unsigned line, col;
};

struct build {
	bool have, werror;
	enum diag_kind kind;
	size_t file, msg, flag;
	unsigned line, col;
	struct bnote *notes;
	size_t nnotes, cap;
	struct strbuf text;
	struct diag_note *out;
	size_t outcap;
};

static const char *jget_str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static unsigned jget_uint(json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));
	return v > 0 && v < 100000000 ? (unsigned)v : 0;
}

static size_t keep(struct build *b, const char *s, size_t n)
{
	size_t off = b->text.len;
	sb_add(&b->text, s ? s : "", s ? n : 0);
	sb_addc(&b->text, '\0');
	return off;
}

static size_t keeps(struct build *b, const char *s)
{
	return keep(b, s, s ? strlen(s) : 0);
}

/* "file:///a%20b/c.c" -> "/a b/c.c" */
static size_t keep_uri(struct build *b, const char *uri)
{
	if (!uri)
		return keep(b, "", 0);
	if (!strncmp(uri, "file://", 7))
		uri += 7;
	size_t off = b->text.len;
	for (const char *p = uri; *p; p++) {
		const char *hex = "0123456789abcdef", *h, *l;
		if (p[0] == '%' && p[1] && p[2] && (h = strchr(hex, p[1] | 0x20)) &&
		    (l = strchr(hex, p[2] | 0x20))) {
			int v = (int)(h - hex) * 16 + (int)(l - hex);
			sb_addc(&b->text, v ? (char)v : ' ');
			p += 2;
		} else {
			sb_addc(&b->text, *p);
		}
	}
	sb_addc(&b->text, '\0');
	return off;
}

static const char *at(const struct build *b, size_t off)
{
	return off == NO ? NULL : b->text.buf + off;
}

/* Hand the diagnostic to the parser: the macro chain and the outermost
 * expansion site are found as the log parser finds them. */
static void build_flush(struct diag_parser *p, struct build *b)
{
	if (!b->have)
		return;
	b->have = false;
	struct diag d = {0};
	d.kind = b->kind;
	d.werror = b->werror;
	d.message = at(b, b->msg);
	d.flag = at(b, b->flag);
	d.spell = (struct diag_loc){at(b, b->file), b->line, b->col};
	d.loc = d.spell;
	ALLOC_GROW(b->out, b->nnotes + 1, b->outcap);
	for (size_t i = 0; i < b->nnotes; i++) {
		const struct bnote *n = &b->notes[i];
		b->out[i] = (struct diag_note){n->kind,
					       {at(b, n->file), n->line, n->col},
					       at(b, n->msg),
					       at(b, n->macro),
					       NULL};
		if (n->kind == DIAG_NOTE_PLAIN || d.nmacros != i)
			continue;
		d.nmacros++;
		if (n->kind == DIAG_NOTE_IN_EXPANSION)
			d.loc = b->out[i].loc;
	}
	d.notes = b->out;
	d.nnotes = b->nnotes;
	const char *tu = d.spell.file, *dot = strrchr(tu, '.');
	d.tus = &tu;
	d.ntus = dot && (!strcmp(dot, ".c") || !strcmp(dot, ".S")) ? 1 : 0;
	d.occurrences = 1;
	diag_parser_add(p, &d);
	b->nnotes = 0;
	sb_reset(&b->text);
}

static void build_note(struct build *b, size_t file, unsigned line, unsigned col, const char *msg)
{
	if (!b->have || b->nnotes >= 256)
		return;
	const char *macro;
	size_t ml;
	ALLOC_GROW(b->notes, b->nnotes + 1, b->cap);
	struct bnote *n = &b->notes[b->nnotes++];
	n->kind = lex_note_kind(msg ? msg : "", msg ? strlen(msg) : 0, &macro, &ml);
	n->file = file;
	n->msg = keeps(b, msg);
	n->macro = macro ? keep(b, macro, ml) : NO;
	n->line = line;
	n->col = col;
}

/* Start a diagnostic: message and flag from "-Wfoo", "-Werror=foo", or a
 * "[-Wfoo]" at the end of the text. */
static void build_start(struct build *b, bool error, const char *msg, const char *option)
{
	struct lex_diag l = {0};
	l.msg = msg ? msg : "";
	l.msglen = strlen(l.msg);
	lex_split_flag(&l);
	b->have = true;
	b->kind = error ? DIAG_ERROR : DIAG_WARNING;
	b->werror = l.werror;
	b->nnotes = 0;
	sb_reset(&b->text);
	b->msg = keep(b, l.msg, l.msglen);
	b->flag = NO;
	const char *rest = NULL;
	size_t restlen = 0;
	if (option && !strncmp(option, "-Werror=", 8)) {
		rest = option + 8, restlen = strlen(rest);
		b->werror = true;
	} else if (option) {
		b->flag = keeps(b, option);
	} else if (l.flag && l.flag[0] == '=') {
		rest = l.flag + 1, restlen = l.flaglen - 1;
	} else if (l.flag) {
		b->flag = keep(b, l.flag, l.flaglen);
	}
	if (rest) {
		b->flag = b->text.len;
		sb_adds(&b->text, "-W");
		sb_add(&b->text, rest, restlen);
		sb_addc(&b->text, '\0');
	}
}

static void build_free(struct build *b)
{
	free(b->notes);
	free(b->out);
	sb_free(&b->text);
}

/* GCC: {"kind", "message", "option", "locations": [{"caret": {...}}], "children": [...]} */
static void gcc_one(struct diag_parser *p, struct build *b, json_t *o)
{
	const char *kind = jget_str(o, "kind");
	if (!kind || !strcmp(kind, "note"))
		return;
	build_start(b, strstr(kind, "error") != NULL, jget_str(o, "message"),
		    jget_str(o, "option"));
	json_t *caret =
	    json_object_get(json_array_get(json_object_get(o, "locations"), 0), "caret");
	b->file = keeps(b, jget_str(caret, "file"));
	b->line = jget_uint(caret, "line");
	b->col = jget_uint(caret, "column") ? jget_uint(caret, "column")
					    : jget_uint(caret, "byte-column");
	json_t *children = json_object_get(o, "children");
	for (size_t i = 0; i < json_array_size(children); i++) {
		json_t *c = json_array_get(children, i);
		json_t *cc =
		    json_object_get(json_array_get(json_object_get(c, "locations"), 0), "caret");
		build_note(b, keeps(b, jget_str(cc, "file")), jget_uint(cc, "line"),
			   jget_uint(cc, "column"), jget_str(c, "message"));
	}
	build_flush(p, b);
}

static void gcc_array(struct diag_parser *p, json_t *arr)
{
	struct build b = {0};
	diag_parser_vote(p, DIAG_CC_GCC);
	for (size_t i = 0; i < json_array_size(arr); i++)
		gcc_one(p, &b, json_array_get(arr, i));
	build_free(&b);
}

void diag_gcc_json_line(struct diag_parser *p, const char *s, size_t n)
{
	json_t *arr = json_loadb(s, n, 0, NULL);
	if (json_is_array(arr))
		gcc_array(p, arr);
	json_decref(arr);
}

static const char *sarif_uri(json_t *loc, json_t *artifacts, unsigned *line, unsigned *col)
{
	json_t *phys = json_object_get(loc, "physicalLocation");
	json_t *art = json_object_get(phys, "artifactLocation");
	const char *uri = jget_str(art, "uri");
	json_t *idx = json_object_get(art, "index");
	if (!uri && json_is_integer(idx))
		uri = jget_str(
		    json_object_get(json_array_get(artifacts, (size_t)json_integer_value(idx)),
				    "location"),
		    "uri");
	json_t *region = json_object_get(phys, "region");
	*line = jget_uint(region, "startLine");
	*col = jget_uint(region, "startColumn");
	return uri;
}

/* A result and its notes: relatedLocations (gcc), or the "note" results
 * that follow it (clang). */
static void sarif_result(struct diag_parser *p, struct build *b, json_t *r, json_t *rules,
			 json_t *artifacts)
{
	const char *level = jget_str(r, "level");
	const char *text = jget_str(json_object_get(r, "message"), "text");
	unsigned line, col;
	const char *uri =
	    sarif_uri(json_array_get(json_object_get(r, "locations"), 0), artifacts, &line, &col);
	if (level && !strcmp(level, "note")) {
		build_note(b, keep_uri(b, uri), line, col, text);
		return;
	}
	build_flush(p, b);
	/* the flag: a rule id like -Wfoo or kernel-doc (clang numbers its rules
	 * and may name the flag in the rule) */
	const char *rule = jget_str(r, "ruleId");
	json_t *ri = json_object_get(r, "ruleIndex");
	if ((!rule || strncmp(rule, "-W", 2)) && json_is_integer(ri)) {
		const char *name =
		    jget_str(json_array_get(rules, (size_t)json_integer_value(ri)), "name");
		if (name && !strncmp(name, "-W", 2))
			rule = name;
	}
	if (rule && (!*rule || strspn(rule, "0123456789") == strlen(rule) ||
		     !strcmp(rule, "klang-unflagged")))
		rule = NULL;
	build_start(b, level && !strcmp(level, "error"), text, rule);
	b->file = keep_uri(b, uri);
	b->line = line;
	b->col = col;
	json_t *rel = json_object_get(r, "relatedLocations");
	for (size_t i = 0; i < json_array_size(rel); i++) {
		json_t *rl = json_array_get(rel, i);
		const char *nuri = sarif_uri(rl, artifacts, &line, &col);
		build_note(b, keep_uri(b, nuri), line, col,
			   jget_str(json_object_get(rl, "message"), "text"));
	}
}

/* The first byte from `at` on that is not JSON white space (len if none):
 * the text is not NUL-terminated. */
static size_t skip_space(const char *text, size_t at, size_t len)
{
	while (at < len &&
	       (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n'))
		at++;
	return at;
}

/* GCC's JSON: an array per compile, one after another (make runs many, and
 * an array whose compile printed nothing is "[]"). An error is placed in
 * the file: jansson counts from the array it was reading. */
static int gcc_arrays(struct diag_parser *p, const char *text, size_t len, const char *name,
		      struct kerr *e)
{
	for (size_t at = 0;;) {
		at = skip_space(text, at, len);
		if (at >= len)
			return 0;
		json_error_t je;
		json_t *arr = json_loadb(text + at, len - at, JSON_DISABLE_EOF_CHECK, &je);
		if (!json_is_array(arr)) {
			json_decref(arr);
			int line = 0;
			size_t bol = 0;
			for (size_t i = 0; i < at; i++)
				if (text[i] == '\n')
					line++, bol = i + 1;
			if (arr) /* a value, but not an array: its place */
				je.line = 1, je.column = 1;
			return kerr_set(e, "%s:%d:%d: %s", name, line + je.line,
					je.column + (je.line == 1 ? (int)(at - bol) : 0),
					arr ? "expected a GCC JSON array" : je.text);
		}
		gcc_array(p, arr);
		json_decref(arr);
		at += je.position;
	}
}

int diag_read_json(struct diag_parser *p, const char *text, size_t len, const char *name,
		   struct kerr *e)
{
	size_t first = skip_space(text, 0, len);
	if (first < len && text[first] == '[')
		return gcc_arrays(p, text, len, name, e);
	json_error_t je;
	json_t *doc = json_loadb(text, len, 0, &je);
	if (!doc)
		return kerr_set(e, "%s:%d:%d: %s", name, je.line, je.column, je.text);
	json_t *runs = json_object_get(doc, "runs");
	int rc = json_is_array(runs)
		     ? 0
		     : kerr_set(e, "%s: neither SARIF (no \"runs\") nor a GCC JSON array", name);
	struct build b = {0};
	for (size_t i = 0; !rc && i < json_array_size(runs); i++) {
		json_t *run = json_array_get(runs, i);
		json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
		const char *tool = jget_str(driver, "name");
		if (tool && strstr(tool, "clang"))
			diag_parser_vote(p, DIAG_CC_CLANG);
		else if (tool && (strstr(tool, "GNU") || strstr(tool, "gcc")))
			diag_parser_vote(p, DIAG_CC_GCC);
		json_t *results = json_object_get(run, "results");
		for (size_t k = 0; !rc && k < json_array_size(results); k++) {
			json_t *r = json_array_get(results, k);
			if (!json_is_object(r))
				rc = kerr_set(e, "%s: runs[%zu].results[%zu] is not an object",
					      name, i, k);
			else
				sarif_result(p, &b, r, json_object_get(driver, "rules"),
					     json_object_get(run, "artifacts"));
		}
		build_flush(p, &b);
	}
	build_free(&b);
	json_decref(doc);
	return rc;
}

/* ---- writing ---- */

/* A JSON string; text that is not UTF-8 (a path from the command line) is cleaned. */
static json_t *jstr(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (!j) {
		struct strbuf b = STRBUF_INIT;
		lex_text(s, strlen(s), &b);
		j = json_string(sb_str(&b));
		sb_free(&b);
	}
	return j ? j : json_string("");
}

static json_t *jloc(const struct diag_loc *l)
{
	return json_pack("{s:o,s:i,s:i}", "file", jstr(l->file), "line", (json_int_t)l->line,
			 "column", (json_int_t)l->col);
}

static const char *note_kind_name(enum diag_note_kind k)
{
	static const char *names[] = {"note",	       "in-expansion",	"in-definition",
				      "expanded-from", "expanded-here", "reference"};
	return names[k];
}

static json_t *json_diag(const struct diag *d, enum diag_view v)
{
	struct strbuf g = STRBUF_INIT;
	char fp[17];
	snprintf(fp, sizeof(fp), "%016llx", (unsigned long long)diag_fp(d));
	json_t *o = json_pack(
	    "{s:s,s:s,s:s,s:o,s:o,s:i,s:i,s:o,s:o,s:o,s:o,s:i,s:s,s:s}", "side",
	    diag_row_side(d, v), "kind", diag_kind_name(d->kind), "compiler", diag_cc_name(d->cc),
	    "arch", jstr(d->arch), "file", jstr(d->loc.file), "line", (json_int_t)d->loc.line,
	    "column", (json_int_t)d->loc.col, "flag", jstr(d->flag), "family",
	    jstr(d->family ? d->family : d->flag), "group", jstr(group_label(d, &g)), "message",
	    jstr(d->message), "occurrences", (json_int_t)d->occurrences, "fingerprint", fp,
	    "status", triage_status_name(d->status));
	sb_free(&g);
	if (d->werror)
		json_object_set_new(o, "werror", json_true());
	if (d->loc.line != d->spell.line || d->loc.col != d->spell.col ||
	    strcmp(d->loc.file, d->spell.file))
		json_object_set_new(o, "spelling", jloc(&d->spell));
	const char *opt[] = {"function", d->function,	"source",	d->source, "fixit",
			     d->fixit,	 "triage_note", d->triage_note, "log",	   d->log};
	for (size_t i = 0; i < ARRAY_SIZE(opt); i += 2)
		if (opt[i + 1])
			json_object_set_new(o, opt[i], jstr(opt[i + 1]));
	json_t *units = json_array(), *incs = json_array(), *macros = json_array(),
	       *notes = json_array();
	for (size_t i = 0; i < d->ntus; i++)
		json_array_append_new(units, jstr(d->tus[i]));
	for (size_t i = 0; i < d->nincludes; i++)
		json_array_append_new(incs,
				      json_pack("{s:o,s:i}", "file", jstr(d->includes[i].file),
						"line", (json_int_t)d->includes[i].line));
	for (size_t i = 0; i < d->nnotes; i++) {
		const struct diag_note *n = &d->notes[i];
		json_t *j = jloc(&n->loc);
		json_object_set_new(j, "kind", json_string(note_kind_name(n->kind)));
		json_object_set_new(j, "message", jstr(n->msg));
		if (n->macro)
			json_object_set_new(j, "macro", jstr(n->macro));
		if (n->source)
			json_object_set_new(j, "source", jstr(n->source));
		json_array_append_new(i < d->nmacros ? macros : notes, j);
	}
	json_object_set_new(o, "units", units);
	json_object_set_new(o, "includes", incs);
	json_object_set_new(o, "macros", macros);
	json_object_set_new(o, "notes", notes);
	if (d->peer) {
		json_t *p = jloc(&d->peer->loc);
		json_object_set_new(p, "compiler", json_string(diag_cc_name(d->peer->cc)));
		json_object_set_new(p, "flag", jstr(d->peer->flag));
		json_object_set_new(p, "message", jstr(d->peer->message));
		json_object_set_new(p, "occurrences", json_integer(d->peer->occurrences));
		json_object_set_new(o, v == DIAG_VIEW_BASELINE ? "baseline" : "peer", p);
	}
	return o;
}

#define JSON_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER)

/* Big documents are written a diagnostic at a time, never built whole (a
 * tree of 270,000 diagnostics took 1.7 GB and most of the time in malloc):
 * `v` goes out as it would inside the document at nesting `depth`, each of
 * its lines after the first indented by depth spaces, and is freed. */
struct jout {
	FILE *f;
	struct strbuf dump, text;
	int rc;
};

static void put_nested(struct jout *o, json_t *v, int depth)
{
	size_t n = json_dumpb(v, o->dump.buf, o->dump.cap, JSON_FLAGS);
	if (n > o->dump.cap) {
		sb_grow(&o->dump, n);
		n = json_dumpb(v, o->dump.buf, o->dump.cap, JSON_FLAGS);
	}
	json_decref(v);
	if (!n) {
		o->rc = -1;
		return;
	}
	struct strbuf *t = &o->text;
	sb_reset(t);
	const char *s = o->dump.buf, *e = s + n;
	for (const char *nl; (nl = memchr(s, '\n', (size_t)(e - s))); s = nl + 1) {
		sb_add(t, s, (size_t)(nl + 1 - s));
		for (int k = 0; k < depth; k++)
			sb_addc(t, ' ');
	}
	sb_add(t, s, (size_t)(e - s));
	fwrite(t->buf, 1, t->len, o->f);
}

/* "name": [ items ] at depth (the items at depth + 1), as jansson writes it. */
static void put_list_open(struct jout *o, const char *name, size_t n, int depth)
{
	fprintf(o->f, "\"%s\": %s", name, n ? "[\n" : "[]");
	if (n)
		fprintf(o->f, "%*s", depth + 1, "");
}

static void put_list_next(struct jout *o, size_t i, size_t n, int depth)
{
	if (i + 1 < n)
		fprintf(o->f, ",\n%*s", depth + 1, "");
	else
		fprintf(o->f, "\n%*s]", depth, "");
}

static int jout_end(struct jout *o, const char *tail)
{
	fputs(tail, o->f);
	sb_free(&o->dump);
	sb_free(&o->text);
	return o->rc;
}

int diag_write_json(FILE *f, struct diag *const *rows, size_t n, enum diag_view v,
		    const struct diag_diff *sum)
{
	json_t *summary;
	if (v == DIAG_VIEW_COMPILERS && sum) {
		summary =
		    json_pack("{s:i,s:i,s:i}", "clang_only", (json_int_t)sum->clang_only,
			      "gcc_only", (json_int_t)sum->gcc_only, "both", (json_int_t)sum->both);
	} else if (v == DIAG_VIEW_BASELINE && sum) {
		summary =
		    json_pack("{s:i,s:i,s:i}", "new", (json_int_t)sum->added, "fixed",
			      (json_int_t)sum->fixed, "outstanding", (json_int_t)sum->outstanding);
	} else {
		json_int_t w = 0, e = 0;
		for (size_t i = 0; i < n; i++)
			*(rows[i]->kind == DIAG_ERROR ? &e : &w) += rows[i]->occurrences;
		summary = json_pack("{s:i,s:i,s:i}", "warnings", w, "errors", e, "distinct",
				    (json_int_t)n);
	}
	struct jout o = {.f = f};
	fputs("{\n \"summary\": ", f);
	put_nested(&o, summary, 1);
	fputs(",\n ", f);
	put_list_open(&o, "diagnostics", n, 1);
	for (size_t i = 0; i < n; i++) {
		put_nested(&o, json_diag(rows[i], v), 2);
		put_list_next(&o, i, n, 1);
	}
	return jout_end(&o, "\n}\n");
}

static json_t *sarif_location(const struct diag_loc *l, const char *msg)
{
	json_t *phys = json_pack("{s:{s:o}}", "artifactLocation", "uri", jstr(l->file));
	if (l->file[0] != '/' && l->file[0] != '<')
		json_object_set_new(json_object_get(phys, "artifactLocation"), "uriBaseId",
				    json_string("%SRCROOT%"));
	if (l->line) {
		json_t *region = json_pack("{s:i}", "startLine", (json_int_t)l->line);
		if (l->col)
			json_object_set_new(region, "startColumn", json_integer(l->col));
		json_object_set_new(phys, "region", region);
	}
	json_t *loc = json_pack("{s:o}", "physicalLocation", phys);
	if (msg)
		json_object_set_new(loc, "message", json_pack("{s:o}", "text", jstr(msg)));
	return loc;
}

static const char *rule_id(const struct diag *d)
{
	return *d->flag ? d->flag : "klang-unflagged";
}

/* The rules (one per flag, in order of first use) and the index of each
 * row's rule. */
static json_t *sarif_rules(struct diag *const *rows, size_t n, size_t *rule)
{
	json_t *rules = json_array();
	struct strmap index = STRMAP_INIT;
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = rows[i];
		const char *id = rule_id(d);
		uintptr_t ri = (uintptr_t)strmap_get(&index, id);
		if (!ri) {
			ri = json_array_size(rules) + 1;
			strmap_put(&index, id, (void *)ri);
			json_array_append_new(
			    rules, json_pack("{s:o,s:{s:o},s:{s:o}}", "id", jstr(id),
					     "shortDescription", "text", jstr(id), "properties",
					     "family", jstr(d->family ? d->family : d->flag)));
		}
		rule[i] = ri - 1;
	}
	strmap_free(&index);
	return rules;
}

static json_t *json_result(const struct diag *d, size_t rule, enum diag_view v, struct strbuf *g)
{
	char fp[17];
	snprintf(fp, sizeof(fp), "%016llx", (unsigned long long)diag_fp(d));
	json_t *r =
	    json_pack("{s:o,s:i,s:s,s:{s:o},s:{s:s}}", "ruleId", jstr(rule_id(d)), "ruleIndex",
		      (json_int_t)rule, "level", d->kind == DIAG_ERROR ? "error" : "warning",
		      "message", "text", jstr(d->message), "partialFingerprints", "klang/v1", fp);
	if (*d->loc.file)
		json_object_set_new(r, "locations",
				    json_pack("[o]", sarif_location(&d->loc, NULL)));
	json_t *rel = json_array();
	for (size_t k = 0; k < d->nnotes; k++)
		if (*d->notes[k].loc.file)
			json_array_append_new(rel,
					      sarif_location(&d->notes[k].loc, d->notes[k].msg));
	if (json_array_size(rel))
		json_object_set_new(r, "relatedLocations", rel);
	else
		json_decref(rel);
	json_object_set_new(r, "properties",
			    json_pack("{s:s,s:s,s:o,s:o,s:i,s:s}", "side", diag_row_side(d, v),
				      "compiler", diag_cc_name(d->cc), "arch", jstr(d->arch),
				      "group", jstr(group_label(d, g)), "occurrences",
				      (json_int_t)d->occurrences, "status",
				      triage_status_name(d->status)));
	return r;
}

int diag_write_sarif(FILE *f, struct diag *const *rows, size_t n, enum diag_view v)
{
	size_t *rule = xmalloc((n + 1) * sizeof(*rule));
	json_t *tool = json_pack("{s:{s:s,s:s,s:o}}", "driver", "name", "klang", "version",
				 KLANG_VERSION, "rules", sarif_rules(rows, n, rule));
	struct jout o = {.f = f};
	struct strbuf g = STRBUF_INIT;
	fputs("{\n \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      " \"version\": \"2.1.0\",\n \"runs\": [\n  {\n   \"tool\": ",
	      f);
	put_nested(&o, tool, 3);
	fputs(",\n   ", f);
	put_list_open(&o, "results", n, 3);
	for (size_t i = 0; i < n; i++) {
		put_nested(&o, json_result(rows[i], rule[i], v, &g), 4);
		put_list_next(&o, i, n, 3);
	}
	sb_free(&g);
	free(rule);
	return jout_end(&o, "\n  }\n ]\n}\n");
}
