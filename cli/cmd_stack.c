/* klang stack: the patches of base..head, oldest first, as aligned text, TSV
 * (one header line, no quoting, tabs and newlines in fields made spaces) or
 * JSON (every field, for scripts). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cmds.h"
#include "core/stack.h"
#include "core/stackfiles.h"
#include "core/mbox.h"
#include "core/util.h"

enum format { FMT_TEXT, FMT_TSV, FMT_JSON };

static void usage(FILE *f)
{
	fputs("usage: klang stack [--repo DIR] [--base REV] [--head REV] [--tag TAG[,TAG]]\n"
	      "                   [--mbox FILE | --quilt DIR] [--format text|tsv|json]\n\n"
	      "List the patches of base..head, oldest first, following first parents\n"
	      "(a merge is one patch, diffed against its first parent).\n\n"
	      "  --repo DIR     the repository (default: the current directory)\n"
	      "  --base REV     where the stack starts (default: the nearest v* tag\n"
	      "                 reachable from head)\n"
	      "  --head REV     where it ends (default: HEAD)\n"
	      "  --tag LIST     only patches carrying any of these tags (comma-separated,\n"
	      "                 case-insensitive); 'none' selects untagged patches\n"
	      "  --mbox FILE    read the stack from an mbox or patch file instead of git\n"
	      "                 (- for stdin, e.g. from git format-patch --stdout)\n"
	      "  --quilt DIR    read the stack from a quilt series (DIR or DIR/series);\n"
	      "                 with --base, patches are applied in memory on REV\n"
	      "                 (exit 1 when a patch is malformed: each is listed)\n"
	      "  --format F     text (default), tsv or json\n\n"
	      "Tags are the leading WORD: prefixes of a subject, written in upper case:\n"
	      "UPSTREAM BACKPORT FROMGIT FROMLIST HACK CUSTOM OBSOLETE CHROMIUM ANDROID.\n"
	      "'BACKPORT: FROMLIST: x' carries two; 'ANDROID: ARM: x' one (a subsystem is not\n"
	      "a tag); 'DO-NOT-UPSTREAM: x' none; 'Revert \"HACK: x\"' is a revert, untagged.\n\n"
	      "TSV columns: index, commit, tags (comma-joined in subject order, - if none),\n"
	      "subject (without its tags), author, files, insertions, deletions; counted\n"
	      "as git log --numstat counts them. JSON: an array of objects with index,\n"
	      "commit, tags, subject, title, revert, merge, author, email, date (ISO 8601),\n"
	      "body, trailers ([{key, value}]), files, insertions, deletions.\n",
	      f);
}

/* --tag: a bit set of tags; bit TAG_COUNT stands for "untagged". */
static int parse_tag_filter(const char *list, unsigned *mask)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	*mask = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		t = str_trim(t);
		int tag = tag_from_name_icase(t);
		if (tag >= 0) {
			*mask |= TAG_BIT(tag);
		} else if (!strcasecmp(t, "none")) {
			*mask |= TAG_BIT(TAG_COUNT);
		} else {
			struct strbuf known = STRBUF_INIT;
			for (int k = 0; k < TAG_COUNT; k++)
				sb_addf(&known, "%s%s", k ? ", " : "", tag_names[k]);
			warnx_("stack: unknown tag '%s' in --tag (known: %s, none)", t,
			       sb_str(&known));
			sb_free(&known);
			rc = -1;
			break;
		}
	}
	free(copy);
	if (rc == 0 && !*mask) {
		warnx_("stack: --tag needs a tag name");
		rc = -1;
	}
	return rc;
}

static bool tag_match(const struct patch *p, unsigned mask)
{
	return (p->tags & mask) || ((mask & TAG_BIT(TAG_COUNT)) && p->ntag_seq == 0);
}

/* Keep only the matching patches (their index stays their place in the stack). */
static void filter_stack(struct stack *st, unsigned mask)
{
	size_t n = 0;
	for (size_t i = 0; i < st->npatches; i++) {
		if (tag_match(&st->patches[i], mask))
			st->patches[n++] = st->patches[i];
		else
			patch_free(&st->patches[i]);
	}
	st->npatches = n;
}

static char *tags_or_dash(const struct patch *p)
{
	char *t = patch_tags_join(p, ",");
	if (!*t) {
		free(t);
		t = xstrdup("-");
	}
	return t;
}

static void put_num(FILE *f, size_t n)
{
	char buf[24], *p = buf + sizeof(buf);
	do
		*--p = (char)('0' + n % 10);
	while (n /= 10);
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

/* 10,000 rows are printed faster than git log prints them: no printf. */
static void print_tsv(FILE *f, const struct stack *st)
{
	fputs("index\tcommit\ttags\tsubject\tauthor\tfiles\tinsertions\tdeletions\n", f);
	for (size_t i = 0; i < st->npatches; i++) {
		const struct patch *p = &st->patches[i];
		char *tags = tags_or_dash(p);
		put_num(f, p->index);
		fputc('\t', f);
		fputs(p->id, f);
		fputc('\t', f);
		fput_flat(f, tags);
		fputc('\t', f);
		fput_flat(f, p->title);
		fputc('\t', f);
		fput_flat(f, p->author);
		fputc('\t', f);
		put_num(f, p->files);
		fputc('\t', f);
		put_num(f, p->insertions);
		fputc('\t', f);
		put_num(f, p->deletions);
		fputc('\n', f);
		free(tags);
	}
}

static void print_text(FILE *f, const struct stack *st)
{
	int iw = 1, tw = 1;
	for (size_t i = 0; i < st->npatches; i++) {
		int w = snprintf(NULL, 0, "%zu", st->patches[i].index);
		char *tags = tags_or_dash(&st->patches[i]);
		iw = w > iw ? w : iw;
		tw = (int)strlen(tags) > tw ? (int)strlen(tags) : tw;
		free(tags);
	}
	for (size_t i = 0; i < st->npatches; i++) {
		const struct patch *p = &st->patches[i];
		char *tags = tags_or_dash(p);
		fprintf(f, "%*zu %.12s %-*s ", iw, p->index, p->id, tw, tags);
		fput_flat(f, p->title);
		fputs(p->merge ? " (merge)\n" : "\n", f);
		free(tags);
	}
}

/* A JSON string from text that may not be valid UTF-8 (an old commit in
 * Latin-1 without an encoding header): bad bytes become U+FFFD. */
static json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	struct strbuf sb = STRBUF_INIT;
	for (const unsigned char *c = (const unsigned char *)s; *c;) {
		size_t n = *c < 0x80	     ? 1
			   : (*c >> 5) == 6  ? 2
			   : (*c >> 4) == 14 ? 3
			   : (*c >> 3) == 30 ? 4
					     : 0;
		size_t k = 1;
		while (n && k < n && (c[k] & 0xc0) == 0x80)
			k++;
		if (n && k == n) {
			sb_add(&sb, (const char *)c, n);
			c += n;
		} else {
			sb_adds(&sb, "\xef\xbf\xbd");
			c++;
		}
	}
	j = json_string(sb_str(&sb));
	sb_free(&sb);
	return j ? j : json_string("");
}

static char *iso_date(int64_t t, int tz)
{
	time_t local = (time_t)(t + (int64_t)tz * 60);
	struct tm tm;
	char buf[32];
	gmtime_r(&local, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	int a = tz < 0 ? -tz : tz;
	return xasprintf("%s%c%02d:%02d", buf, tz < 0 ? '-' : '+', a / 60, a % 60);
}

static json_t *patch_json(const struct patch *p)
{
	json_t *o = json_object(), *tags = json_array(), *tr = json_array();
	for (size_t i = 0; i < p->ntag_seq; i++) {
		short t = p->tag_seq[i];
		json_array_append_new(tags,
				      json_text(t >= 0 ? tag_names[t] : p->extra_tags[-t - 1]));
	}
	for (size_t i = 0; i < p->ntrailers; i++)
		json_array_append_new(tr,
				      json_pack("{s:o,s:o}", "key", json_text(p->trailers[i].key),
						"value", json_text(p->trailers[i].value)));
	char *date = iso_date(p->time, p->tz_offset);
	json_object_set_new(o, "index", json_integer((json_int_t)p->index));
	json_object_set_new(o, "commit", json_string(p->id));
	json_object_set_new(o, "tags", tags);
	json_object_set_new(o, "subject", json_text(p->subject));
	json_object_set_new(o, "title", json_text(p->title));
	json_object_set_new(o, "revert", json_boolean(p->revert));
	json_object_set_new(o, "merge", json_boolean(p->merge));
	json_object_set_new(o, "author", json_text(p->author));
	json_object_set_new(o, "email", json_text(p->author_email));
	json_object_set_new(o, "date", json_string(date));
	json_object_set_new(o, "body", json_text(p->body));
	json_object_set_new(o, "trailers", tr);
	json_object_set_new(o, "files", json_integer((json_int_t)p->files));
	json_object_set_new(o, "insertions", json_integer((json_int_t)p->insertions));
	json_object_set_new(o, "deletions", json_integer((json_int_t)p->deletions));
	free(date);
	return o;
}

static void print_json(FILE *f, const struct stack *st)
{
	json_t *a = json_array();
	for (size_t i = 0; i < st->npatches; i++)
		json_array_append_new(a, patch_json(&st->patches[i]));
	json_dumpf(a, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(a);
}

int cmd_stack(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"repo", required_argument, NULL, 'r'},
	    {"base", required_argument, NULL, 'b'},
	    {"head", required_argument, NULL, 'H'},
	    {"tag", required_argument, NULL, 't'},
	    {"format", required_argument, NULL, 'f'},
	    {"help", no_argument, NULL, 'h'},
	    {"mbox", required_argument, NULL, 'm'},
	    {"quilt", required_argument, NULL, 'q'},
	    {NULL, 0, NULL, 0},
	};
	const char *files = NULL;
	enum stack_files_kind kind = STACK_FILES_MBOX;
	struct stack_opts o = {0};
	enum format fmt = FMT_TEXT;
	unsigned mask = 0;
	int c;
	optind = 0; /* full reset: getopt may have run before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o.repo = optarg;
			break;
		case 'b':
			o.base = optarg;
			break;
		case 'H':
			o.head = optarg;
			break;
		case 'm':
		case 'q':
			if (files) {
				warnx_("stack: one --mbox FILE or --quilt DIR, not two sources");
				return EXIT_USAGE;
			}
			files = optarg;
			kind = c == 'm' ? STACK_FILES_MBOX : STACK_FILES_QUILT;
			break;
		case 't':
			if (parse_tag_filter(optarg, &mask) < 0)
				return EXIT_USAGE;
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(optarg, "tsv"))
				fmt = FMT_TSV;
			else if (!strcmp(optarg, "json"))
				fmt = FMT_JSON;
			else {
				warnx_("stack: unknown format '%s' (text, tsv or json)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return option_error("stack", c, argv);
		}
	}
	if (optind < argc) {
		warnx_("stack: unexpected argument '%s' (see klang stack --help)", argv[optind]);
		return EXIT_USAGE;
	}

	struct stack st;
	struct kerr e;
	struct patch_files bad;
	bool malformed = false;
	if (files) {
		if (stack_open_files(&st, files, kind, o.base, o.repo, &bad, &e) < 0) {
			warnx_("%s", e.msg);
			return EXIT_USAGE;
		}
		/* malformed patches are listed, never dropped silently */
		patch_files_print_malformed(&bad, stderr);
		malformed = bad.nmalformed > 0;
		patch_files_free(&bad);
	} else if (stack_open(&st, &o, &e) < 0) {
		warnx_("%s", e.msg);
		return EXIT_USAGE;
	}
	if (mask)
		filter_stack(&st, mask);
	if (fmt != FMT_TEXT && stack_load_all_stats(&st, &e) < 0) {
		warnx_("%s", e.msg);
		stack_free(&st);
		return EXIT_USAGE;
	}
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (fmt == FMT_TSV)
		print_tsv(stdout, &st);
	else if (fmt == FMT_JSON)
		print_json(stdout, &st);
	else
		print_text(stdout, &st);
	if (st.npatches == 0 && fmt == FMT_TEXT && files) /* no range: name the file */
		warnx_("stack: no patches in %s%s", strcmp(files, "-") ? files : "stdin",
		       mask ? " with those tags" : "");
	else if (st.npatches == 0 && fmt == FMT_TEXT)
		warnx_("stack: no patches in %s..%s%s", st.base_ref, st.head_ref,
		       mask ? " with those tags" : "");
	stack_free(&st);
	if (!output_written("stack"))
		return EXIT_FOUND;
	return malformed ? EXIT_FOUND : EXIT_OK;
}
