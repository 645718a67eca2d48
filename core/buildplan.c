/* Planning a build: from a spec (arch, toolchain, config, fragments, make
 * variables, wrapper) to the make steps it runs, the files prepared between
 * them, and the command line that repeats it by hand. */
#include "core/buildplan.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/toolchain.h"

struct argv_builder {
	char **v;
	size_t n, cap;
};

void strv_push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

static void av_add(struct argv_builder *a, char *s)
{
	ALLOC_GROW(a->v, a->n + 2, a->cap);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static bool is_config_target(const char *s)
{
	if (!str_endswith(s, "config") || strlen(s) > 64)
		return false;
	for (const char *p = s; *p; p++)
		if (!(*p == '_' || *p == '-' || *p == '.' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

static char *abs_path(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	if (p[0] == '/')
		return xstrdup(p);
	char *cwd = getcwd(NULL, 0);
	char *r = !strcmp(p, ".") || !*p ? xstrdup(cwd ? cwd : ".")
					 : xasprintf("%s/%s", cwd ? cwd : ".", p);
	free(cwd);
	size_t n = strlen(r);
	while (n > 2 && r[n - 1] == '.' && r[n - 2] == '/')
		r[n -= 2] = '\0';
	while (n > 1 && r[n - 1] == '/')
		r[--n] = '\0';
	return r;
}

/* Shell-quote one word for the reproducer. */
static void sb_add_word(struct strbuf *sb, const char *w)
{
	if (sb->len)
		sb_addc(sb, ' ');
	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			    "_-+=./,:@%") == strlen(w)) {
		sb_adds(sb, w);
		return;
	}
	sb_addc(sb, '\'');
	for (; *w; w++)
		if (*w == '\'')
			sb_adds(sb, "'\\''");
		else
			sb_addc(sb, *w);
	sb_addc(sb, '\'');
}

/* Gather the fragments (files or CONFIG_X=... lines) into one text. */
static char *merge_fragments(const struct build_spec *s, struct kerr *e)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < s->nfragments; i++) {
		const char *f = s->fragments[i];
		if (str_startswith(f, "CONFIG_") || str_startswith(f, "# CONFIG_")) {
			sb_adds(&sb, f);
			sb_addc(&sb, '\n');
			continue;
		}
		char *text = read_file(f, NULL, e);
		if (!text) {
			sb_free(&sb);
			return NULL;
		}
		sb_adds(&sb, text);
		if (sb.len && sb.buf[sb.len - 1] != '\n')
			sb_addc(&sb, '\n');
		free(text);
	}
	return sb_detach(&sb);
}

static bool messages_not_c(void)
{
	const char *v = getenv("LC_ALL");
	if (!v || !*v)
		v = getenv("LC_MESSAGES");
	if (!v || !*v)
		v = getenv("LANG");
	return v && *v && strcmp(v, "POSIX") && !str_startswith(v, "C.") && strcmp(v, "C");
}

static void add_step(struct build *b, enum build_status phase, enum step_pre pre,
		     struct argv_builder *common, const char *goal)
{
	struct argv_builder a = {0};
	for (size_t i = 0; i < common->n; i++)
		av_add(&a, xstrdup(common->v[i]));
	if (goal)
		av_add(&a, xstrdup(goal));
	b->steps = xrealloc(b->steps, (b->nsteps + 1) * sizeof(*b->steps));
	b->steps[b->nsteps++] = (struct build_step){phase, pre, a.v};
}

static void plan_reproducer(struct build *b, int jobs)
{
	struct strbuf sb = STRBUF_INIT;
	sb_add_word(&sb, "mkdir");
	sb_add_word(&sb, "-p");
	sb_add_word(&sb, b->outdir);
	for (size_t i = 0; i < b->nsteps; i++) {
		struct build_step *st = &b->steps[i];
		sb_adds(&sb, " &&");
		if (st->pre == PRE_COPY_CONFIG) {
			sb_add_word(&sb, "cp");
			sb_add_word(&sb, b->config);
			char *dst = xasprintf("%s/.config", b->outdir);
			sb_add_word(&sb, dst);
			free(dst);
			sb_adds(&sb, " &&");
		} else if (st->pre == PRE_MERGE_FRAGMENTS) {
			sb_add_word(&sb, "cat");
			char *p = xasprintf("%s/fragment.config", b->outdir);
			sb_add_word(&sb, p);
			free(p);
			sb_adds(&sb, " >>");
			p = xasprintf("%s/.config", b->outdir);
			sb_add_word(&sb, p);
			free(p);
			sb_adds(&sb, " &&");
		}
		if (messages_not_c())
			sb_add_word(&sb, "LC_MESSAGES=C");
		for (size_t j = 0; st->argv[j]; j++)
			sb_add_word(&sb, j == 0 ? "make" : st->argv[j]);
		if (st->phase == BUILD_BUILDING) {
			char *j = xasprintf("-j%d", jobs);
			sb_add_word(&sb, j);
			free(j);
		}
	}
	b->reproducer = sb_detach(&sb);
}

static void sanitize(char *s)
{
	for (; *s; s++)
		if (!(*s == '-' || *s == '_' || *s == '.' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			*s = '_';
}

/* ARCH names the top Makefile maps to another arch/ directory (SRCARCH). */
static const char *src_arch(const char *arch)
{
	static const char *const map[][2] = {{"i386", "x86"},
					     {"x86_64", "x86"},
					     {"sparc32", "sparc"},
					     {"sparc64", "sparc"},
					     {"parisc64", "parisc"}};
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(arch, map[i][0]))
			return map[i][1];
	return arch;
}

/* A tree with an arch/ directory must have the one of ARCH, else make
 * fails later with a less helpful message; the error lists what there is. */
static int check_arch(const char *srcdir, const char *arch, struct kerr *e)
{
	char *dir = xasprintf("%s/arch", srcdir);
	char *mine = xasprintf("%s/%s", dir, src_arch(arch));
	int rc = 0;
	DIR *d;
	if (is_dir(dir) && !is_dir(mine) && (d = opendir(dir))) {
		char **names = NULL;
		size_t n = 0, cap = 0;
		struct dirent *de;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && strcmp(de->d_name, "Kconfig")) {
				ALLOC_GROW(names, n + 1, cap);
				names[n++] = xstrdup(de->d_name);
			}
		closedir(d);
		qsort(names, n, sizeof(*names), cmp_str);
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < n; i++) {
			sb_addf(&sb, "%s%s", i ? " " : "", names[i]);
			free(names[i]);
		}
		free(names);
		char *abs = abs_path(srcdir);
		rc = kerr_set(e, "arch %s: no arch/%s in %s (there: %s)", arch, src_arch(arch), abs,
			      sb_str(&sb));
		free(abs);
		sb_free(&sb);
	}
	free(mine);
	free(dir);
	return rc;
}

/* A make variable that is not klang's to set: it must be NAME=VALUE and not
 * one that would build somewhere else or with another toolchain than the
 * build's directory, log and record say. */
static int check_makevar(const char *var, struct kerr *e)
{
	static const char *const own[][2] = {
	    {"O", "--out"}, {"ARCH", "--arch"}, {"LLVM", "--toolchain llvm or llvm-N"}};
	if (!is_make_assignment(var))
		return kerr_set(e, "'%s': not a make variable assignment (NAME=VALUE)", var);
	size_t n = strcspn(var, "=");
	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		if (strlen(own[i][0]) == n && !strncmp(var, own[i][0], n))
			return kerr_set(e, "'%s': klang sets %s itself (use %s)", var, own[i][0],
					own[i][1]);
	return 0;
}

struct build *buildplan_new(const struct build_spec *s, const char *make, int jobs, struct kerr *e)
{
	struct toolchain tc;
	if (!s->srcdir || !s->outroot || !s->arch || !*s->arch) {
		kerr_set(e, "build: source dir, out dir and arch are required");
		return NULL;
	}
	for (size_t i = 0; i < s->nmakevars; i++)
		if (check_makevar(s->makevars[i], e) < 0)
			return NULL;
	if (strspn(s->arch, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(s->arch)) {
		kerr_set(e, "'%s': not an ARCH name", s->arch);
		return NULL;
	}
	const char *config = s->config ? s->config : "defconfig";
	bool config_file = strchr(config, '/') || file_exists(config);
	if (!config_file && !is_config_target(config)) {
		kerr_set(e, "config '%s': no such file, and not a config target", config);
		return NULL;
	}
	if (config_file && access(config, R_OK) < 0) {
		kerr_set(e, "config %s: %s", config, strerror(errno));
		return NULL;
	}
	if (config_file && is_dir(config)) {
		kerr_set(e, "config %s: a directory, not a .config file", config);
		return NULL;
	}
	char *srcmk = xasprintf("%s/Makefile", s->srcdir);
	bool has_mk = file_exists(srcmk);
	free(srcmk);
	if (!has_mk) {
		kerr_set(e, "%s: not a kernel tree (no Makefile)", s->srcdir);
		return NULL;
	}
	if (check_arch(s->srcdir, s->arch, e) < 0)
		return NULL;
	if (s->wrapper && strcmp(s->wrapper, "ccache") && strcmp(s->wrapper, "distcc") &&
	    strcmp(s->wrapper, "icecc")) {
		kerr_set(e, "wrapper '%s': must be ccache, distcc or icecc", s->wrapper);
		return NULL;
	}
	if (s->wrapper) {
		char *w = path_search(s->wrapper);
		free(w);
		if (!w) {
			kerr_set(e, "wrapper %s: not found on PATH", s->wrapper);
			return NULL;
		}
	}
	if (toolchain_resolve(&tc, s->toolchain, s->arch, s->srcdir, s->wrapper, s->makevars,
			      s->nmakevars, e) < 0)
		return NULL;

	struct build *b = xcalloc(1, sizeof(*b));
	b->out_fd = b->log_fd = b->lock_fd = -1;
	b->exit_code = -1;
	b->arch = xstrdup(s->arch);
	b->toolchain = xstrdup(s->toolchain);
	b->name = xasprintf("%s-%s", s->arch, tc.label);
	sanitize(b->name);
	b->srcdir = abs_path(s->srcdir);
	char *root = abs_path(s->outroot);
	b->outdir = xasprintf("%s/%s", root, b->name);
	free(root);
	b->log_path = xasprintf("%s/build.log", b->outdir);
	b->config = config_file ? abs_path(config) : xstrdup(config);
	b->wrapper = s->wrapper ? xstrdup(s->wrapper) : NULL;
	b->target = s->target ? xstrdup(s->target) : NULL;
	b->compiler = xstrdup(tc.compiler);
	const char *cbase = strrchr(b->config, '/') ? strrchr(b->config, '/') + 1 : b->config;
	b->record_key = xasprintf("%s-%s.json", b->name, cbase);
	sanitize(b->record_key);
	if (s->nfragments) {
		b->fragments = merge_fragments(s, e);
		if (!b->fragments) {
			toolchain_free(&tc);
			buildplan_free(b);
			return NULL;
		}
	}

	struct argv_builder common = {0};
	av_add(&common, xstrdup(make));
	av_add(&common, xstrdup("-C"));
	av_add(&common, xstrdup(b->srcdir));
	/* whole lines only: parallel compilers otherwise cut each other's
	 * diagnostics mid-line in the one log ("…/vmscan.c  CC  fair.o") */
	av_add(&common, xstrdup("--output-sync=line"));
	av_add(&common, xasprintf("O=%s", b->outdir));
	av_add(&common, xasprintf("ARCH=%s", b->arch));
	for (size_t i = 0; i < tc.nvars; i++)
		av_add(&common, xstrdup(tc.vars[i]));
	for (size_t i = 0; i < s->nmakevars; i++)
		av_add(&common, xstrdup(s->makevars[i]));
	if (config_file)
		add_step(b, BUILD_CONFIGURING, PRE_COPY_CONFIG, &common, "olddefconfig");
	else
		add_step(b, BUILD_CONFIGURING, PRE_NONE, &common, config);
	if (b->fragments)
		add_step(b, BUILD_CONFIGURING, PRE_MERGE_FRAGMENTS, &common, "olddefconfig");
	add_step(b, BUILD_BUILDING, PRE_NONE, &common, b->target);
	strv_free(common.v);
	toolchain_free(&tc);
	plan_reproducer(b, jobs);
	return b;
}

void buildplan_free(struct build *b)
{
	for (size_t i = 0; i < b->nsteps; i++)
		strv_free(b->steps[i].argv);
	free(b->steps);
	free(b->name);
	free(b->arch);
	free(b->toolchain);
	free(b->config);
	free(b->wrapper);
	free(b->target);
	free(b->srcdir);
	free(b->outdir);
	free(b->log_path);
	free(b->compiler);
	free(b->compiler_version);
	free(b->reproducer);
	free(b->record_key);
	free(b->fragments);
	free(b->error);
	sb_free(&b->partial);
	free(b);
}

int buildplan_pre_step(struct build *b, struct kerr *e)
{
	enum step_pre pre = b->steps[b->step].pre;
	char *dst = xasprintf("%s/.config", b->outdir);
	int r = 0;
	if (pre == PRE_COPY_CONFIG) {
		size_t len;
		char *text = read_file(b->config, &len, e);
		r = text ? write_file_replace(dst, text, len, e) : -1;
		free(text);
	} else if (pre == PRE_MERGE_FRAGMENTS) {
		/* Kconfig takes the last assignment of a symbol: appending is merging */
		char *frag = xasprintf("%s/fragment.config", b->outdir);
		size_t len;
		char *text = read_file(dst, &len, e);
		r = text ? write_file_replace(frag, b->fragments, strlen(b->fragments), e) : -1;
		if (r == 0) {
			struct strbuf sb = STRBUF_INIT;
			sb_add(&sb, text, len);
			sb_adds(&sb, b->fragments);
			r = write_file_replace(dst, sb.buf, sb.len, e);
			sb_free(&sb);
		}
		free(text);
		free(frag);
	}
	free(dst);
	return r;
}
