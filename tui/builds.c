/* The builds view: the arch x toolchain matrix of the stack's repository
 * (config.yaml's arches, toolchains, config, wrapper and jobs; by default
 * arm64, x86_64 x llvm, gcc, defconfig), one row per build with its status,
 * progress, counts and times, and below the rows the tail of the selected
 * build's log. b starts every build not running, x cancels the selected one,
 * r reruns it. Builds go on while other views are shown. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/build.h"
#include "core/buildlogs.h"
#include "core/buildrec.h"
#include "core/config.h"
#include "tui/loop.h"
#include "tui/prompt.h"
#include "tui/views.h"

#define TAIL_LINES 20
#define TAIL_BYTES 8192
#define BAR_WIDTH 20

static const struct config *cfg; /* builds_view_configure */

/* The configuration the view builds with: the one given, else the defaults. */
static const struct config *conf(void)
{
	static struct config defaults;
	if (!cfg && !defaults.arches)
		config_defaults(&defaults);
	return cfg ? cfg : &defaults;
}

struct row {
	char *name;
	const char *arch, *toolchain;
	struct build *b;       /* NULL until started (or when bmgr_add failed) */
	char *error;	       /* why it could not be queued */
	char *last, *last_log; /* the newest record of this build (klang build) */
	time_t last_mtime;
	bool last_same; /* that record is of the config the row builds */
	bool done;	/* its build was seen finished (report_done) */
};

static struct {
	bool inited, mgr_ok;
	struct build_mgr m;
	struct row *rows;
	size_t nrows;
	char *repo, *out, *records;
	char *home_why; /* why builds go to the cache, not the tree's .klang */
	int timer;
	char *tail[TAIL_LINES];
	size_t ntail;
} B;

static size_t selected_row(const struct view *v)
{
	return v->lineno < B.nrows ? v->lineno : B.nrows - 1;
}

static void clear_tail(void)
{
	for (size_t i = 0; i < B.ntail; i++)
		free(B.tail[i]);
	B.ntail = 0;
}

/* The last lines of the selected build's log. */
static void read_tail(const struct row *r)
{
	clear_tail();
	const char *log = r->b ? r->b->log_path : r->last_log;
	int fd = log ? open(log, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return;
	off_t end = lseek(fd, 0, SEEK_END);
	off_t start = end > TAIL_BYTES ? end - TAIL_BYTES : 0;
	char buf[TAIL_BYTES + 1];
	ssize_t n = pread(fd, buf, TAIL_BYTES, start);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	char *lines[TAIL_BYTES / 2 + 2];
	size_t nl = 0;
	char *p = buf;
	if (start > 0 && (p = strchr(buf, '\n')))
		p++; /* skip a partial first line */
	while (p && *p) {
		char *nlc = strchr(p, '\n');
		if (nlc)
			*nlc = '\0';
		lines[nl++] = p;
		p = nlc ? nlc + 1 : NULL;
	}
	/* as many as fit below the rows */
	size_t want = TAIL_LINES;
	int room = view_page(&builds_view) - (int)B.nrows - 1;
	if (room > 0 && (size_t)room < want)
		want = (size_t)room;
	size_t first = nl > want ? nl - want : 0;
	for (size_t i = first; i < nl; i++)
		B.tail[B.ntail++] = xstrdup(lines[i]);
}

static void fd_cb(int fd, short revents, void *data)
{
	bmgr_handle_fd(data, fd, revents);
}

static void fd_watch(int fd, bool watch, void *data)
{
	if (watch)
		loop_watch_fd(fd, POLLIN, fd_cb, data);
	else
		loop_unwatch_fd(fd);
}

static void relayout(void)
{
	struct view *v = &builds_view;
	v->lines = B.nrows + (B.ntail ? 1 + B.ntail : 0);
	view_fix_position(v);
}

/* Builds that finished since the last tick: the status bar says so, over
 * the builds' own messages ("builds: 4 started") but no one else's. */
static void report_done(void)
{
	const struct row *last = NULL;
	size_t running = 0, done = 0, kept = 0, count[BUILD_CANCELLED + 1] = {0};
	for (size_t i = 0; i < B.nrows; i++) {
		struct row *r = &B.rows[i];
		bool now = r->b && build_status_done(r->b->status);
		if (now && !r->done)
			last = r;
		r->done = now;
		if (now) {
			done++;
			count[r->b->status]++;
		} else if (r->b) {
			running++;
		}
	}
	const char *msg = report_message();
	if (!last || (*msg && strncmp(msg, "builds: ", 8)))
		return;
	if (running) {
		report("builds: %s %s, %zu running", last->name, build_status_name(last->b->status),
		       running);
		return;
	}
	/* an incremental build's row counts the warnings of what it compiled;
	 * the rest are in the logs kept before it (if those warned at all) */
	for (size_t i = 0; i < B.nrows; i++)
		if (B.rows[i].b && B.rows[i].b->status == BUILD_OK)
			kept += buildlogs_earlier_warned(B.rows[i].b->log_path) > 0;
	struct strbuf sb = STRBUF_INIT;
	for (int s = BUILD_OK; s <= BUILD_CANCELLED; s++)
		if (count[s])
			sb_addf(&sb, "%s%zu %s", sb.len ? ", " : "", count[s],
				build_status_name((enum build_status)s));
	if (kept)
		sb_addf(&sb, "; %zu incremental: press 4 for the warnings of the whole tree", kept);
	report("builds: %zu done: %s", done, sb_str(&sb));
	sb_free(&sb);
}

static void tick(void *data)
{
	(void)data;
	if (!B.mgr_ok)
		return;
	bmgr_tick(&B.m);
	report_done();
	read_tail(&B.rows[selected_row(&builds_view)]);
	relayout();
}

static size_t count_running(void)
{
	size_t n = 0;
	for (size_t i = 0; i < B.nrows; i++)
		n += B.rows[i].b && !build_status_done(B.rows[i].b->status);
	return n;
}

static void on_exit_hook(int sig, void *data)
{
	(void)data;
	if (B.mgr_ok) {
		size_t n = count_running();
		if (n && !sig) { /* waiting for them takes a moment: say why */
			report("cancelling %zu build%s...", n, n == 1 ? "" : "s");
			ui_redraw();
		}
		bmgr_cancel_all(&B.m);
		double deadline = build_now() + 10;
		while (bmgr_busy(&B.m) && build_now() < deadline)
			bmgr_step(&B.m, 100);
		bmgr_free(&B.m);
		B.mgr_ok = false;
	}
	clear_tail();
	for (size_t i = 0; i < B.nrows; i++) {
		free(B.rows[i].name);
		free(B.rows[i].error);
		free(B.rows[i].last);
		free(B.rows[i].last_log);
	}
	free(B.rows);
	free(B.repo);
	free(B.out);
	free(B.records);
	free(B.home_why);
	memset(&B, 0, sizeof(B));
}

static void init_once(void)
{
	if (B.inited)
		return;
	B.inited = true;
	const struct config *c = conf();
	char *const *a = c->arches, *const *t = c->toolchains;
	size_t na = c->narches, nt = c->ntoolchains; /* never 0: config.c */
	B.rows = xcalloc(na * nt + 1, sizeof(*B.rows));
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nt; j++, B.nrows++) {
			struct row *r = &B.rows[B.nrows];
			r->arch = a[i];
			r->toolchain = t[j];
			/* as core/buildplan names it, so its record is found */
			const char *base = strrchr(t[j], '/') ? strrchr(t[j], '/') + 1 : t[j];
			r->name = xasprintf("%s-%s", a[i], base);
		}
	struct stack *st = stack_view_stack();
	B.repo = xstrdup(st && st->repo_path ? st->repo_path : ".");
	size_t len = strlen(B.repo);
	while (len > 1 && B.repo[len - 1] == '/')
		B.repo[--len] = '\0';
	char *home = buildlogs_home(B.repo, &B.home_why);
	B.out = xasprintf("%s/out", home);
	B.records = xasprintf("%s/builds", home);
	free(home);
	loop_on_exit(on_exit_hook, NULL);
}

static bool ensure_mgr(void)
{
	if (B.mgr_ok)
		return true;
	struct kerr e;
	if (bmgr_init(&B.m, (int)conf()->jobs, &e) < 0) {
		report("builds: %s", e.msg);
		return false;
	}
	B.mgr_ok = true;
	bmgr_set_records_dir(&B.m, B.records);
	B.m.fd_watch = fd_watch;
	B.m.fd_watch_data = &B.m;
	if (mkdir_p(B.out, &e) < 0)
		report("builds: %s", e.msg);
	else if (!B.home_why)
		state_dir_ignore_scratch(B.repo);
	loop_on_child(tick, NULL);
	B.timer = loop_add_timer(250, true, tick, NULL);
	return true;
}

static const char *build_config(void)
{
	return conf()->config_target;
}

/* Queue the build of a row that is not running: again, or for the first
 * time with the configuration's settings. False (and why) if it cannot. */
static bool start_row(struct row *r, struct kerr *e)
{
	if (r->b)
		return bmgr_rerun(&B.m, r->b, e) == 0;
	struct build_spec s = {
	    .srcdir = B.repo,
	    .outroot = B.out,
	    .arch = r->arch,
	    .toolchain = r->toolchain,
	    .config = build_config(),
	    .wrapper = config_wrapper(conf()->wrapper),
	    .makevars = (const char **)conf()->makevars,
	    .nmakevars = conf()->nmakevars,
	};
	free(r->error);
	r->error = NULL;
	r->b = bmgr_add(&B.m, &s, e);
	if (!r->b)
		r->error = xstrdup(e->msg);
	return r->b != NULL;
}

static void start_all(void)
{
	init_once();
	if (!ensure_mgr())
		return;
	int started = 0, failed = 0;
	for (size_t i = 0; i < B.nrows; i++) {
		struct row *r = &B.rows[i];
		struct kerr e;
		if (r->b && !build_status_done(r->b->status))
			continue;
		if (start_row(r, &e))
			started++;
		else
			failed++;
	}
	bmgr_tick(&B.m);
	report("builds: %d started%s%s%s%s", started, failed ? ", some could not start" : "",
	       B.home_why ? " in " : "", B.home_why ? B.out : "",
	       B.home_why ? " (the tree cannot be written)" : "");
}

static void fmt_time(char *buf, size_t n, double secs)
{
	long s = secs < 0 ? 0 : (long)secs;
	snprintf(buf, n, "%ld:%02ld", s / 60, s % 60);
}

/* A record of the row's name, newer than the one held: what it says. */
static void last_record(json_t *rec, const struct stat *st, void *data)
{
	(void)data;
	const char *name = json_string_value(json_object_get(rec, "name"));
	const char *status = json_string_value(json_object_get(rec, "status"));
	const char *config = json_string_value(json_object_get(rec, "config"));
	const char *log = json_string_value(json_object_get(rec, "log"));
	/* of this row's config first, then the newest */
	bool same = config && !strcmp(config, build_config());
	for (size_t i = 0; name && status && i < B.nrows; i++) {
		struct row *r = &B.rows[i];
		if (strcmp(name, r->name) ||
		    (r->last && (r->last_same > same ||
				 (r->last_same == same && st->st_mtime <= r->last_mtime))))
			continue;
		char when[32], took[32];
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", localtime(&st->st_mtime));
		fmt_time(took, sizeof(took), json_number_value(json_object_get(rec, "seconds")));
		free(r->last);
		free(r->last_log);
		r->last = xasprintf("last: %s, %s, %lld obj, %lld warn, %lld err, %s, %s", status,
				    config ? config : "?",
				    json_integer_value(json_object_get(rec, "objects")),
				    json_integer_value(json_object_get(rec, "warnings")),
				    json_integer_value(json_object_get(rec, "errors")), took, when);
		r->last_log = log ? xstrdup(log) : NULL;
		r->last_mtime = st->st_mtime;
		r->last_same = same;
	}
}

static void builds_open(struct view *v)
{
	init_once();
	/* builds run before (here or by klang build, any --out): their
	 * outcome and log until this row's build starts */
	for (size_t i = 0; i < B.nrows; i++) {
		free(B.rows[i].last);
		free(B.rows[i].last_log);
		B.rows[i].last = B.rows[i].last_log = NULL;
	}
	buildrec_each(B.records, true, last_record, NULL);
	read_tail(&B.rows[selected_row(v)]);
	relayout();
}

static enum theme_elem status_elem(enum build_status s)
{
	switch (s) {
	case BUILD_OK:
		return ELEM_OK;
	case BUILD_FAILED:
		return ELEM_FAILED;
	case BUILD_CANCELLED:
		return ELEM_DROPPED;
	case BUILD_QUEUED:
		return ELEM_DEFAULT;
	default:
		return ELEM_RUNNING;
	}
}

static void draw_row(struct line_draw *d, const struct row *r)
{
	draw_textf(d, ELEM_DEFAULT, "%-14s", r->name);
	if (!r->b) {
		if (r->error)
			draw_text(d, ELEM_FAILED, r->error, -1);
		else
			draw_text(d, ELEM_DEFAULT, "idle (b to start)", -1);
		if (r->last)
			draw_textf(d, ELEM_META, "   %s", r->last);
		return;
	}
	const struct build *b = r->b;
	draw_textf(d, status_elem(b->status), "%-12s", build_status_name(b->status));
	/* the bar gives way on a narrow screen (to a percentage): the numbers
	 * after it count more */
	int bw = d->width - d->col - 50;
	bw = bw > BAR_WIDTH ? BAR_WIDTH : bw;
	double f = build_fraction(b);
	char bar[BAR_WIDTH + 3];
	if (bw < 8) {
		if (f < 0)
			snprintf(bar, sizeof(bar), "  ...");
		else
			snprintf(bar, sizeof(bar), "%4d%%", (int)(f * 100 + 0.5));
	} else if (f < 0) {
		snprintf(bar, sizeof(bar), "[%*s%-*s]", (bw - 3) / 2, "", bw - (bw - 3) / 2, "...");
	} else {
		int fill = (int)(f * bw + 0.5);
		bar[0] = '[';
		for (int i = 0; i < bw; i++)
			bar[1 + i] = i < fill ? '#' : '.';
		bar[bw + 1] = ']';
		bar[bw + 2] = '\0';
	}
	draw_textf(d, ELEM_DEFAULT, "%s ", bar);
	char objs[48];
	/* of a finished build the count reached (the total was an estimate) */
	if (kbuild_total_known(&b->progress) && !build_status_done(b->status))
		snprintf(objs, sizeof(objs), "%lu/%lu", b->progress.objects, b->progress.expected);
	else
		snprintf(objs, sizeof(objs), "%lu", b->progress.objects);
	draw_textf(d, ELEM_DEFAULT, "%9s obj ", objs);
	draw_textf(d, b->warnings ? ELEM_WARNING : ELEM_DEFAULT, "%4lu warn ", b->warnings);
	draw_textf(d, b->errors ? ELEM_FAILED : ELEM_DEFAULT, "%4lu err ", b->errors);
	char el[32], eta[32];
	fmt_time(el, sizeof(el), build_elapsed(b));
	draw_textf(d, ELEM_DEFAULT, " %s", el);
	if (!build_status_done(b->status)) { /* a finished build has no eta */
		long left = build_eta(b);
		if (left >= 0)
			fmt_time(eta, sizeof(eta), (double)left);
		else
			snprintf(eta, sizeof(eta), "-");
		draw_textf(d, ELEM_DEFAULT, " eta %s", eta);
	}
	if (b->error)
		draw_textf(d, ELEM_FAILED, "  %s", b->error);
}

static void builds_draw(struct view *v, struct line_draw *d, size_t lineno)
{
	(void)v;
	if (lineno < B.nrows) {
		draw_row(d, &B.rows[lineno]);
		return;
	}
	if (lineno == B.nrows) {
		const struct row *r = &B.rows[selected_row(v)];
		if (r->b)
			draw_textf(d, ELEM_HEADER, "-- log of %s --", r->name);
		else
			draw_textf(d, ELEM_HEADER, "-- last log of %s: %s --", r->name,
				   r->last_log);
		return;
	}
	size_t i = lineno - B.nrows - 1;
	if (i < B.ntail)
		draw_text(d, ELEM_META, B.tail[i], -1);
}

static void builds_title(struct view *v, struct strbuf *sb)
{
	(void)v;
	sb_addf(sb, "%s %s", B.repo ? B.repo : "", build_config());
	for (size_t i = 0; i < conf()->nmakevars; i++)
		sb_addf(sb, " %s", conf()->makevars[i]);
	sb_addf(sb, " -> %s", B.out ? B.out : "");
}

static void builds_select(struct view *v)
{
	if (v->lineno >= B.nrows) {
		view_select_line(v, B.nrows - 1);
		return;
	}
	read_tail(&B.rows[selected_row(v)]);
	relayout();
}

static bool builds_request(struct view *v, int action)
{
	struct row *r = &B.rows[selected_row(v)];
	struct kerr e;
	switch (action) {
	case ACT_BUILD_START:
		start_all();
		relayout();
		return true;
	case ACT_BUILD_CANCEL:
		if (r->b && !build_status_done(r->b->status)) {
			bmgr_cancel(&B.m, r->b);
			report("builds: cancelling %s", r->name);
		} else {
			report("builds: %s is not running", r->name);
		}
		return true;
	case ACT_ENTER:
		/* what a finished build is for: its warnings */
		if (r->b && !build_status_done(r->b->status)) {
			report("%s is %s: its log is below", r->name,
			       build_status_name(r->b->status));
		} else if (!r->b && !r->last) {
			report("%s has not run yet: r starts it", r->name);
		} else {
			warnings_show_arch(r->arch);
			view_open(&warnings_view, OPEN_FULL);
		}
		return true;
	case ACT_BUILD_RESTART: {
		bool again = r->b != NULL;
		if (again && !build_status_done(r->b->status)) {
			report("builds: %s is still running", r->name);
			return true;
		}
		if (!ensure_mgr()) /* it says why */
			return true;
		if (!start_row(r, &e)) {
			report("builds: %s", e.msg);
		} else {
			bmgr_tick(&B.m);
			report("builds: %s %s", again ? "rerunning" : "starting", r->name);
		}
		relayout();
		return true;
	}
	}
	return false;
}

static bool start_handler(struct view *focused, int action, void *data)
{
	(void)focused;
	(void)action;
	(void)data;
	start_all();
	relayout();
	return true;
}

static void quit_answer(const char *yes, void *data)
{
	(void)data;
	if (yes)
		loop_quit(); /* on_exit_hook cancels them */
}

/* Quitting cancels the builds running: ask first. */
static bool quit_guard(void)
{
	size_t n = count_running();
	if (!n)
		return false;
	char *q = xasprintf("%zu build%s running: cancel %s and quit? y/N ", n, n == 1 ? "" : "s",
			    n == 1 ? "it" : "them");
	prompt_confirm(q, quit_answer, NULL);
	free(q);
	return true;
}

bool builds_busy(void)
{
	return B.mgr_ok && bmgr_busy(&B.m);
}

void builds_view_configure(const struct config *c)
{
	cfg = c;
}

void builds_view_init(void)
{
	action_set_handler(ACT_BUILD_START, start_handler, NULL);
	ui_set_quit_guard(quit_guard);
}

static const struct view_ops builds_ops = {
    .name = "builds",
    .scope = SCOPE_BUILDS,
    .flags = VIEW_CURSOR,
    .open = builds_open,
    .draw = builds_draw,
    .title = builds_title,
    .request = builds_request,
    .select = builds_select,
};

struct view builds_view = {.ops = &builds_ops};
