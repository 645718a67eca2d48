/* Build records and summaries as JSON, written atomically. */
#include "core/buildrec.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_str(json_t *o, const char *key, const char *val)
{
	json_t *v = val ? json_string(val) : json_null();
	json_object_set_new(o, key, v ? v : json_string("(not UTF-8)"));
}

static json_t *build_json(const struct build *b)
{
	json_t *o = json_object();
	set_str(o, "name", b->name);
	set_str(o, "arch", b->arch);
	set_str(o, "toolchain", b->toolchain);
	set_str(o, "config", b->config);
	set_str(o, "compiler", b->compiler);
	set_str(o, "compiler_version", b->compiler_version);
	set_str(o, "wrapper", b->wrapper);
	set_str(o, "command", b->reproducer);
	set_str(o, "status", build_status_name(b->status));
	json_object_set_new(o, "exit_code",
			    b->exit_code < 0 && !build_status_done(b->status)
				? json_null()
				: json_integer(b->exit_code));
	json_object_set_new(o, "seconds",
			    json_real((double)(long)(build_elapsed(b) * 10 + 0.5) / 10));
	json_object_set_new(o, "objects", json_integer((json_int_t)b->progress.objects));
	json_object_set_new(o, "steps", json_integer((json_int_t)b->progress.steps));
	json_object_set_new(o, "warnings", json_integer((json_int_t)b->warnings));
	json_object_set_new(o, "errors", json_integer((json_int_t)b->errors));
	set_str(o, "log", b->log_path);
	set_str(o, "out_dir", b->outdir);
	if (b->error)
		set_str(o, "error", b->error);
	return o;
}

static char *dump(json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(o);
	char *r = xasprintf("%s\n", s ? s : "null");
	free(s);
	return r;
}

char *build_summary_json(const struct build *b)
{
	return dump(build_json(b));
}

char *bmgr_summary_json(const struct build_mgr *m, int jobs)
{
	json_t *o = json_object(), *a = json_array();
	json_object_set_new(o, "jobs", json_integer(jobs));
	for (size_t i = 0; i < m->nbuilds; i++)
		json_array_append_new(a, build_json(m->builds[i]));
	json_object_set_new(o, "builds", a);
	return dump(o);
}

int bmgr_write_summary(const struct build_mgr *m, const char *path, struct kerr *e)
{
	char *s = bmgr_summary_json(m, m->js.slots);
	int r = write_file_replace(path, s, strlen(s), e);
	free(s);
	return r;
}

void bmgr_set_records_dir(struct build_mgr *m, const char *dir)
{
	free(m->records_dir);
	m->records_dir = dir ? xstrdup(dir) : NULL;
}

/* A record's objects if it finished ok, else 0. */
static unsigned long record_objects(json_t *r)
{
	const char *st = json_string_value(json_object_get(r, "status"));
	json_int_t n = json_integer_value(json_object_get(r, "objects"));
	return st && !strcmp(st, "ok") && n > 0 ? (unsigned long)n : 0;
}

/* What the record's build directory says now: its summary.json if a later
 * build of the same name wrote it (one cancelled leaves no record, but its
 * log replaced the recorded one), with that file's stat in *st; else the
 * record itself. Returns a new reference. */
static json_t *newest(json_t *rec, struct stat *st)
{
	const char *dir = json_string_value(json_object_get(rec, "out_dir"));
	const char *name = json_string_value(json_object_get(rec, "name"));
	char *p = dir && name ? xasprintf("%s/summary.json", dir) : NULL;
	struct stat ss;
	json_t *s =
	    p && !stat(p, &ss) && ss.st_mtime > st->st_mtime ? json_load_file(p, 0, NULL) : NULL;
	free(p);
	const char *sn = json_string_value(json_object_get(s, "name"));
	if (!json_is_object(s) || !sn || strcmp(sn, name)) {
		json_decref(s);
		return json_incref(rec);
	}
	*st = ss;
	return s;
}

void buildrec_each(const char *dir, bool newest_summary, buildrec_fn fn, void *data)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !str_endswith(de->d_name, ".json"))
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		json_t *o = stat(p, &st) ? NULL : json_load_file(p, 0, NULL);
		free(p);
		if (json_is_object(o) && newest_summary) {
			json_t *n = newest(o, &st);
			json_decref(o);
			o = n;
		}
		if (json_is_object(o))
			fn(o, &st, data);
		json_decref(o);
	}
	if (d)
		closedir(d);
}

struct estimate {
	struct build *b;
	int best;
};

/* an estimate: the same config built for this arch with another toolchain
 * compiles nearly the same objects; another arch, roughly */
static void estimate(json_t *o, const struct stat *st, void *data)
{
	struct estimate *es = data;
	(void)st;
	const char *config = json_string_value(json_object_get(o, "config"));
	const char *arch = json_string_value(json_object_get(o, "arch"));
	unsigned long objs = record_objects(o);
	if (objs && config && !strcmp(config, es->b->config)) {
		int score = arch && !strcmp(arch, es->b->arch) ? 2 : 1;
		if (score > es->best) {
			es->best = score;
			es->b->progress.expected = objs;
			es->b->expected_estimated = true;
		}
	}
}

void buildrec_load_expected(const char *dir, struct build *b)
{
	b->progress.expected = 0;
	b->expected_estimated = false;
	if (!dir)
		return;
	char *path = xasprintf("%s/%s", dir, b->record_key);
	json_t *r = json_load_file(path, 0, NULL);
	free(path);
	unsigned long n = r ? record_objects(r) : 0;
	json_decref(r);
	if (n) {
		b->progress.expected = n;
		return;
	}
	buildrec_each(dir, false, estimate, &(struct estimate){b, 0});
}

/* Kbuild records what it saw: CONFIG_CC_VERSION_TEXT in <out>/.config. */
static char *version_from_config(const char *outdir)
{
	char *path = xasprintf("%s/.config", outdir);
	struct kerr e;
	char *text = read_file(path, NULL, &e), *v = NULL;
	free(path);
	const char *p = text ? strstr(text, "\nCONFIG_CC_VERSION_TEXT=\"") : NULL;
	if (p) {
		p += strlen("\nCONFIG_CC_VERSION_TEXT=\"");
		v = xstrndup(p, strcspn(p, "\"\n"));
	}
	free(text);
	return v;
}

void buildrec_finish(struct build_mgr *m, struct build *b)
{
	struct kerr e;
	char *v = version_from_config(b->outdir);
	if (v) {
		free(b->compiler_version);
		b->compiler_version = v;
	}
	char *s = build_summary_json(b);
	char *path = xasprintf("%s/summary.json", b->outdir);
	if (is_dir(b->outdir) && write_file_replace(path, s, strlen(s), &e) < 0 && !b->error)
		b->error = xstrdup(e.msg);
	free(path);
	if (m->records_dir && b->status != BUILD_CANCELLED) {
		path = xasprintf("%s/%s", m->records_dir, b->record_key);
		if ((mkdir_p(m->records_dir, &e) < 0 ||
		     write_file_replace(path, s, strlen(s), &e) < 0) &&
		    !b->error)
			b->error = xstrdup(e.msg);
		free(path);
	}
	free(s);
}
