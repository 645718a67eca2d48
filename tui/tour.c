/* The autoplay tour: a tour file (see tour.h) read into steps, played from
 * one loop timer at a time so that builds, pipes and redraws go on between
 * keys, and a caption box drawn over the views. Keys a person presses go
 * through a filter that pauses, resumes or stops the tour. */
#include "tui/tour.h"

#include <ctype.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/display.h"
#include "tui/keys.h"
#include "tui/loop.h"
#include "tui/prompt.h"
#include "tui/view.h"
#include "tui/views.h"

#define DEFAULT_DELAY_MS 800
#define DEFAULT_BUILD_WAIT_MS 300000
#define BUILD_POLL_MS 250
#define CAPTION_ROWS 4

enum step_kind { STEP_KEY, STEP_PAUSE, STEP_CAPTION, STEP_WAIT_BUILDS };

struct step {
	enum step_kind kind;
	int key;
	bool fn;    /* key is a curses KEY_ code */
	int ms;	    /* the wait after a key, a pause, the most a build wait lasts */
	char *text; /* a caption (NULL: none) */
	int caption_no;
};

static struct {
	struct step *steps;
	size_t n, cap, ncaptions;
	double speed;
	size_t next;		  /* the step to run next */
	int timer;		  /* the pending timer, 0 if none */
	long long due;		  /* when it fires (monotonic ms) */
	int left;		  /* ms still to wait when paused */
	long long build_deadline; /* of the :wait-builds in progress, 0 if none */
	bool loaded, playing, paused, injecting;
	const struct step *caption;
	WINDOW *win;
} T = {.speed = 1};

static const struct {
	const char *name;
	int key;
	bool fn;
} key_names[] = {
    {"Enter", '\r', false},
    {"Escape", 27, false},
    {"Esc", 27, false},
    {"Tab", '\t', false},
    {"BTab", KEY_BTAB, true},
    {"Space", ' ', false},
    {"BSpace", KEY_BACKSPACE, true},
    {"Up", KEY_UP, true},
    {"Down", KEY_DOWN, true},
    {"Left", KEY_LEFT, true},
    {"Right", KEY_RIGHT, true},
    {"PageUp", KEY_PPAGE, true},
    {"PgUp", KEY_PPAGE, true},
    {"PPage", KEY_PPAGE, true},
    {"PageDown", KEY_NPAGE, true},
    {"PgDn", KEY_NPAGE, true},
    {"NPage", KEY_NPAGE, true},
    {"Home", KEY_HOME, true},
    {"End", KEY_END, true},
    {"IC", KEY_IC, true},
    {"DC", KEY_DC, true},
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct step *add_step(enum step_kind kind)
{
	ALLOC_GROW(T.steps, T.n + 1, T.cap);
	struct step *s = &T.steps[T.n++];
	*s = (struct step){.kind = kind};
	return s;
}

static void add_key(int key, bool fn, int delay)
{
	struct step *s = add_step(STEP_KEY);
	s->key = key;
	s->fn = fn;
	s->ms = delay;
}

/* A tmux key name, C-x, F1..F12, a single character, or a key as the key
 * map writes it (<Down>, <C-f>); false if none. */
static bool parse_key_name(const char *tok, int *key, bool *fn)
{
	size_t len = strlen(tok);
	if (len > 2 && tok[0] == '<' && tok[len - 1] == '>' && key_parse(tok, key) == (int)len) {
		*fn = *key >= KEY_MIN;
		return true;
	}
	if (len == 1 && isgraph((unsigned char)tok[0])) {
		*key = (unsigned char)tok[0];
		*fn = false;
		return true;
	}
	if (len == 3 && (tok[0] == 'C' || tok[0] == 'c') && tok[1] == '-' &&
	    isalpha((unsigned char)tok[2])) {
		*key = tolower((unsigned char)tok[2]) & 0x1f;
		*fn = false;
		return true;
	}
	if ((len == 2 || len == 3) && tok[0] == 'F' && isdigit((unsigned char)tok[1])) {
		int f = atoi(tok + 1);
		if (f >= 1 && f <= 12) {
			*key = KEY_F(f);
			*fn = true;
			return true;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(key_names); i++)
		if (!strcmp(tok, key_names[i].name)) {
			*key = key_names[i].key;
			*fn = key_names[i].fn;
			return true;
		}
	return false;
}

/* A "string": its characters as keys (\" and \\ escape). Returns the end
 * of the token, NULL if the quote is not closed. */
static char *parse_string(char *s, int delay)
{
	for (s++; *s && *s != '"'; s++) {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		add_key((unsigned char)*s, false, delay);
	}
	return *s ? s + 1 : NULL;
}

/* Seconds as milliseconds; -1 if it is not a number >= 0. */
static int parse_seconds(const char *s)
{
	char *end;
	double secs = strtod(s, &end);
	if (end == s || *str_trim(end) || !(secs >= 0) || secs > 86400)
		return -1;
	return (int)(secs * 1000 + 0.5);
}

static int parse_command(char *line, const char *where, int *delay, struct kerr *e)
{
	char *arg = line + strcspn(line, " \t");
	if (*arg)
		*arg++ = '\0';
	arg = str_trim(arg);
	if (!strcmp(line, ":caption")) {
		struct step *s = add_step(STEP_CAPTION);
		if (*arg) {
			s->text = xstrdup(arg);
			s->caption_no = (int)++T.ncaptions;
		}
		return 0;
	}
	if (!strcmp(line, ":pause") || !strcmp(line, ":delay")) {
		int ms = parse_seconds(arg);
		if (ms < 0)
			return kerr_set(e, "%s: %s needs SECONDS (a number >= 0), not '%s'", where,
					line, arg);
		if (line[1] == 'd')
			*delay = ms;
		else
			add_step(STEP_PAUSE)->ms = ms;
		return 0;
	}
	if (!strcmp(line, ":wait-builds")) {
		int ms = *arg ? parse_seconds(arg) : DEFAULT_BUILD_WAIT_MS;
		if (ms < 0)
			return kerr_set(e,
					"%s: :wait-builds takes SECONDS (a number >= 0), not '%s'",
					where, arg);
		add_step(STEP_WAIT_BUILDS)->ms = ms;
		return 0;
	}
	return kerr_set(e, "%s: unknown command '%s'", where, line);
}

/* The message names the token; bytes that are not printable show as '?'. */
static int unknown_key(const char *tok, const char *where, struct kerr *e)
{
	char shown[41];
	size_t n = 0;
	for (; tok[n] && n < sizeof(shown) - 1; n++)
		shown[n] = isprint((unsigned char)tok[n]) ? tok[n] : '?';
	shown[n] = '\0';
	return kerr_set(e, "%s: unknown key '%s%s'", where, shown, tok[n] ? "..." : "");
}

static int parse_line(char *line, const char *where, int *delay, struct kerr *e)
{
	if (*line == ':')
		return parse_command(line, where, delay, e);
	char *s = line;
	while (*(s = s + strspn(s, " \t"))) {
		if (*s == '"') {
			s = parse_string(s, *delay);
			if (!s)
				return kerr_set(e, "%s: a \" is not closed", where);
			continue;
		}
		char *end = s + strcspn(s, " \t");
		char saved = *end;
		*end = '\0';
		int key;
		bool fn;
		if (!parse_key_name(s, &key, &fn))
			return unknown_key(s, where, e);
		add_key(key, fn, *delay);
		*end = saved;
		s = end;
	}
	return 0;
}

int tour_load(const char *path, struct kerr *e)
{
	tour_free();
	char *text = read_file(path, NULL, e);
	if (!text)
		return -1;
	int rc = 0, lineno = 0, delay = DEFAULT_DELAY_MS;
	char *next = text;
	while (next && !rc) {
		char *line = next;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line = str_trim(line);
		if (!*line || *line == '#')
			continue;
		char *where = xasprintf("%s:%d", path, lineno);
		rc = parse_line(line, where, &delay, e);
		free(where);
	}
	free(text);
	if (!rc && !T.n)
		rc = kerr_set(e, "%s: no steps (keys, :caption, :pause ...)", path);
	if (rc)
		tour_free();
	T.loaded = !rc;
	return rc;
}

void tour_set_speed(double speed)
{
	T.speed = speed > 0 ? speed : 1;
}

bool tour_loaded(void)
{
	return T.loaded;
}

bool tour_playing(void)
{
	return T.playing;
}

static void advance(void *data);

static void schedule(int ms)
{
	T.due = now_ms() + ms;
	T.timer = loop_add_timer((unsigned)ms, false, advance, NULL);
}

static int scaled(int ms)
{
	double v = ms / T.speed + 0.5;
	return v < 86400000 ? (int)v : 86400000;
}

static void stop(const char *why)
{
	if (T.timer)
		loop_remove_timer(T.timer);
	T.timer = 0;
	T.playing = T.paused = false;
	T.caption = NULL;
	report("%s", why);
}

/* Run steps until one that takes time; the timer brings us back. */
static void advance(void *data)
{
	(void)data;
	T.timer = 0;
	while (T.next < T.n && !loop_quitting()) {
		const struct step *s = &T.steps[T.next];
		switch (s->kind) {
		case STEP_CAPTION:
			T.caption = s->text ? s : NULL;
			T.next++;
			continue;
		case STEP_KEY:
			T.next++;
			T.injecting = true;
			ui_key(s->key, s->fn);
			T.injecting = false;
			ui_redraw(); /* the next key finds the views it opened loaded */
			schedule(scaled(s->ms));
			return;
		case STEP_PAUSE:
			T.next++;
			schedule(scaled(s->ms));
			return;
		case STEP_WAIT_BUILDS:
			if (!T.build_deadline)
				T.build_deadline = now_ms() + s->ms;
			if (builds_busy() && now_ms() < T.build_deadline) {
				schedule(BUILD_POLL_MS);
				return;
			}
			T.build_deadline = 0;
			T.next++;
			continue;
		}
	}
	if (T.playing && T.next >= T.n)
		stop("tour: played to its end; the workbench is yours (q quits)");
}

/* Keys a person presses while the tour plays. */
static bool person_key(int key, bool fn)
{
	if (!T.playing || T.injecting || (fn && (key == KEY_RESIZE || key == KEY_MOUSE)))
		return false;
	if (!fn && key == 'q') {
		stop("tour stopped: the workbench is yours (q quits)");
		return true;
	}
	if (T.paused) {
		T.paused = false;
		schedule(T.left);
		report("tour: playing");
	} else {
		long long left = T.timer ? T.due - now_ms() : 0;
		T.left = left > 0 ? (int)left : 0;
		if (T.timer)
			loop_remove_timer(T.timer);
		T.timer = 0;
		T.paused = true;
	}
	return true;
}

/* The box over the bottom of the views, above the status bar. */
static void draw_caption(void)
{
	if (T.win)
		delwin(T.win);
	T.win = NULL;
	if (!T.playing || (!T.caption && !T.paused))
		return;
	int width = COLS, inner = width - 4;
	const char *row[CAPTION_ROWS];
	int len[CAPTION_ROWS];
	const char *text = T.caption ? T.caption->text : "(paused)";
	int n = inner > 0 ? text_wrap(text, inner, row, len, CAPTION_ROWS) : 0;
	/* above the bottom view's title bar and the status bar */
	int height = n + 2, y = LINES - 2 - height;
	if (y < 0 || inner <= 0)
		return;
	T.win = newwin(height, width, y, 0);
	if (!T.win)
		return;
	attr_t a = display_attr(ELEM_CAPTION);
	wbkgdset(T.win, ' ' | a);
	werase(T.win);
	wattrset(T.win, a);
	box(T.win, 0, 0);
	WINDOW *in = derwin(T.win, n, inner, 1, 2);
	for (int i = 0; in && i < n; i++) {
		struct line_draw d;
		draw_begin(&d, in, i, inner, 0);
		draw_text(&d, ELEM_CAPTION, row[i], len[i]);
	}
	if (in)
		delwin(in);
	char label[48];
	snprintf(label, sizeof(label), " klang tour %d/%zu ", T.caption ? T.caption->caption_no : 0,
		 T.ncaptions);
	mvwaddstr(T.win, 0, 2, label);
	const char *hint = T.paused ? " paused: any key resumes, q leaves the tour "
				    : " any key pauses, q leaves the tour ";
	int hx = width - 2 - (int)strlen(hint);
	if (hx > (int)strlen(label) + 2)
		mvwaddstr(T.win, height - 1, hx, hint);
	wnoutrefresh(T.win);
}

void tour_start(void)
{
	if (!T.loaded || T.playing)
		return;
	T.playing = true;
	T.next = 0;
	ui_set_key_filter(person_key);
	ui_set_overlay(draw_caption);
	schedule(0);
}

void tour_free(void)
{
	if (T.timer)
		loop_remove_timer(T.timer);
	for (size_t i = 0; i < T.n; i++)
		free(T.steps[i].text);
	free(T.steps);
	ui_set_key_filter(NULL);
	ui_set_overlay(NULL);
	if (T.win)
		delwin(T.win);
	double speed = T.speed;
	memset(&T, 0, sizeof(T));
	T.speed = speed;
}
