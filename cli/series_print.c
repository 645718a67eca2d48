/* klang series output: text, TSV and JSON renderings of a decided series. */
#include "cli/series_print.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

int series_format_parse(const char *s, enum series_format *out)
{
	static const char *const names[] = {"text", "tsv", "json"};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return *out = (enum series_format)i, 0;
	return -1;
}

static const char *override_name(const struct override *o, char *buf, size_t len)
{
	char b[32];
	if (!o)
		return NULL;
	if (o->kind == OV_UNTIL)
		snprintf(buf, len, "until:%s", clangver_str_short(&o->until, b, sizeof(b)));
	else
		snprintf(buf, len, "%s", o->kind == OV_KEEP ? "keep" : "drop");
	return buf;
}

static void print_tsv(FILE *f, const struct series *s)
{
	fputs("index\tcommit\ttags\tdecision\treason\tsubject\n", f);
	for (size_t i = 0; i < s->nitems; i++) {
		const struct series_item *it = &s->items[i];
		char *tags = patch_tags_join(it->patch, ",");
		fprintf(f, "%zu\t%s\t%s\t%s\t", it->patch->index, it->patch->id, *tags ? tags : "-",
			it->keep ? "keep" : "drop");
		fput_flat(f, it->reason);
		fputc('\t', f);
		fput_flat(f, it->patch->title);
		fputc('\n', f);
		free(tags);
	}
}

static void print_counts(FILE *f, const struct series *s)
{
	struct series_counts c;
	series_count_tags(s, &c);
	const char *sep = "by tag: ";
	for (int t = 0; t < TAG_COUNT; t++) {
		if (!c.tag[t].kept && !c.tag[t].dropped)
			continue;
		fprintf(f, "%s%s %zu kept, %zu dropped", sep, tag_names[t], c.tag[t].kept,
			c.tag[t].dropped);
		sep = "; ";
	}
	for (size_t x = 0; x < c.nextra; x++) {
		if (!c.extra[x].kept && !c.extra[x].dropped)
			continue;
		fprintf(f, "%s%s %zu kept, %zu dropped", sep, s->st->extra_tag_names[x],
			c.extra[x].kept, c.extra[x].dropped);
		sep = "; ";
	}
	if (c.untagged.kept || c.untagged.dropped)
		fprintf(f, "%suntagged %zu kept, %zu dropped", sep, c.untagged.kept,
			c.untagged.dropped);
	fputc('\n', f);
	series_counts_free(&c);
}

static void print_text(FILE *f, const struct series *s, const char *from)
{
	char b[32];
	fprintf(f, "clang %s (%s); ", clangver_str(&s->clang, b, sizeof(b)), from);
	if (s->st->repo_path) /* not for a stack read from files without a base */
		fprintf(f, "%s..%s in %s", s->st->base_ref, s->st->head_ref, s->st->repo_path);
	else
		fprintf(f, "%s (patch files, no base)", s->st->head_ref);
	fprintf(f, ": %zu patch%s, %zu kept, %zu dropped\n", s->nitems, s->nitems == 1 ? "" : "es",
		s->kept, s->dropped);
	if (s->ps)
		fprintf(f, "patchset %s (%s, %zu rules)\n", s->ps->name, s->ps->path,
			s->ps->nrules);
	fputc('\n', f);
	int w = snprintf(NULL, 0, "%zu", s->nitems);
	for (size_t i = 0; i < s->nitems; i++) {
		const struct series_item *it = &s->items[i];
		fprintf(f, "%*zu %s %.12s ", w, it->patch->index, it->keep ? "keep" : "DROP",
			it->patch->id);
		fput_flat(f, it->patch->subject);
		fprintf(f, "\n%*s ", w + 18, "");
		fput_flat(f, it->reason); /* a rule's why: is the patchset's text */
		fputc('\n', f);
		if (it->version_unknown && it->nhints) {
			fprintf(f, "%*s suggestions:", w + 18, "");
			for (size_t h = 0; h < it->nhints; h++) {
				fprintf(f, "%s %s (\"", h ? "," : "", it->hints[h].version);
				fput_flat(f, it->hints[h].text);
				fputs("\")", f);
			}
			fputc('\n', f);
		}
		if (it->warning) {
			fprintf(f, "%*s warning: ", w + 18, "");
			fput_flat(f, it->warning);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	print_counts(f, s);
}

/* JSON text; bytes that are not UTF-8 (an old Latin-1 commit) become '?'. */
static json_t *jstr(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	char *copy = xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j ? j : json_string("");
}

static json_t *item_json(const struct series_item *it)
{
	const struct patch *p = it->patch;
	char b[32];
	json_t *o = json_object(), *tags = json_array(), *hints = json_array();
	char *joined = patch_tags_join(p, "\n");
	for (char *save = NULL, *t = strtok_r(joined, "\n", &save); t;
	     t = strtok_r(NULL, "\n", &save))
		json_array_append_new(tags, jstr(t));
	free(joined);
	for (size_t h = 0; h < it->nhints; h++)
		json_array_append_new(hints, json_pack("{s:s,s:o}", "version", it->hints[h].version,
						       "text", jstr(it->hints[h].text)));
	json_object_set_new(o, "index", json_integer((json_int_t)p->index));
	json_object_set_new(o, "commit", json_string(p->id));
	json_object_set_new(o, "tags", tags);
	json_object_set_new(o, "decision", json_string(it->keep ? "keep" : "drop"));
	json_object_set_new(o, "source", json_string(series_source_names[it->source]));
	json_object_set_new(o, "reason", jstr(it->reason));
	json_object_set_new(o, "automatic", json_string(it->auto_keep ? "keep" : "drop"));
	json_object_set_new(o, "override", jstr(override_name(it->ov, b, sizeof(b))));
	json_object_set_new(o, "version_unknown", json_boolean(it->version_unknown));
	json_object_set_new(o, "suggestions", hints);
	json_object_set_new(o, "warning", jstr(it->warning));
	json_object_set_new(o, "needed_by",
			    it->needed_by ? json_integer((json_int_t)it->needed_by) : json_null());
	json_object_set_new(o, "subject", jstr(p->subject));
	json_object_set_new(o, "title", jstr(p->title));
	return o;
}

static json_t *counts_json(const struct series *s)
{
	struct series_counts c;
	series_count_tags(s, &c);
	json_t *o = json_object();
	for (int t = 0; t < TAG_COUNT; t++)
		if (c.tag[t].kept || c.tag[t].dropped)
			json_object_set_new(o, tag_names[t],
					    json_pack("{s:I,s:I}", "kept",
						      (json_int_t)c.tag[t].kept, "dropped",
						      (json_int_t)c.tag[t].dropped));
	for (size_t x = 0; x < c.nextra; x++)
		if (c.extra[x].kept || c.extra[x].dropped)
			json_object_set_new(o, s->st->extra_tag_names[x],
					    json_pack("{s:I,s:I}", "kept",
						      (json_int_t)c.extra[x].kept, "dropped",
						      (json_int_t)c.extra[x].dropped));
	json_object_set_new(o, "untagged",
			    json_pack("{s:I,s:I}", "kept", (json_int_t)c.untagged.kept, "dropped",
				      (json_int_t)c.untagged.dropped));
	series_counts_free(&c);
	return o;
}

static void print_json(FILE *f, const struct series *s, const char *from)
{
	char b[32];
	json_t *o = json_object(), *items = json_array();
	for (size_t i = 0; i < s->nitems; i++)
		json_array_append_new(items, item_json(&s->items[i]));
	json_object_set_new(o, "clang", json_string(clangver_str(&s->clang, b, sizeof(b))));
	json_object_set_new(o, "clang_from", jstr(from));
	json_object_set_new(o, "repo", jstr(s->st->repo_path));
	json_object_set_new(o, "base", jstr(s->st->base_ref));
	json_object_set_new(o, "base_commit", json_string(s->st->base_id));
	json_object_set_new(o, "head", jstr(s->st->head_ref));
	json_object_set_new(o, "head_commit", json_string(s->st->head_id));
	json_object_set_new(o, "patchset", s->ps ? jstr(s->ps->path) : json_null());
	json_object_set_new(o, "kept", json_integer((json_int_t)s->kept));
	json_object_set_new(o, "dropped", json_integer((json_int_t)s->dropped));
	json_object_set_new(o, "tags", counts_json(s));
	json_object_set_new(o, "patches", items);
	json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(o);
}

void series_print(FILE *f, const struct series *s, enum series_format fmt, const char *from)
{
	if (fmt == SERIES_TSV)
		print_tsv(f, s);
	else if (fmt == SERIES_JSON)
		print_json(f, s, from);
	else
		print_text(f, s, from);
}

void series_print_warnings(FILE *f, const struct series *s)
{
	for (size_t i = 0; i < s->nitems; i++)
		if (s->items[i].warning) {
			fprintf(f, "klang: warning: patch %zu (", i + 1);
			fput_flat(f, s->items[i].patch->subject);
			fputs("): ", f);
			fput_flat(f, s->items[i].warning);
			fputc('\n', f);
		}
}
