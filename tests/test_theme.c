/* Tests for core/theme: the shipped themes, messages for broken ones, the
 * choice of theme (NO_COLOR, terminals without colour), colour fitting. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/theme.h"
#include "tests/helpers.h"

static char *shipped(const char *name)
{
	return xasprintf("%s/themes/%s.yaml", test_src_dir(), name);
}

static void test_shipped(void)
{
	struct theme t;
	struct kerr e;
	char *path = shipped("default");
	CU_ASSERT_EQUAL_FATAL(theme_load_file(&t, path, NULL, &e), 0);
	CU_ASSERT_STRING_EQUAL(t.name, "default");
	CU_ASSERT_EQUAL(t.colors, 256);
	CU_ASSERT_EQUAL(t.elem[ELEM_CURSOR].bg, 153);
	CU_ASSERT_EQUAL(t.elem[ELEM_DIFF_ADD].fg, 34);
	CU_ASSERT_EQUAL(t.tag[TAG_HACK].attrs, THEME_BOLD);
	CU_ASSERT_EQUAL(t.elem[ELEM_DEFAULT].fg, THEME_COLOR_DEFAULT);
	/* every tag has a colour of its own */
	for (int i = 0; i < TAG_COUNT; i++)
		CU_ASSERT_NOT_EQUAL(t.tag[i].bg, THEME_COLOR_DEFAULT);
	theme_free(&t);
	free(path);

	path = shipped("mono");
	CU_ASSERT_EQUAL_FATAL(theme_load_file(&t, path, NULL, &e), 0);
	CU_ASSERT_EQUAL(t.colors, 0);
	CU_ASSERT_EQUAL(t.elem[ELEM_CURSOR].attrs, THEME_REVERSE);
	for (int i = 0; i < ELEM_COUNT; i++)
		CU_ASSERT(t.elem[i].fg == THEME_COLOR_DEFAULT &&
			  t.elem[i].bg == THEME_COLOR_DEFAULT);
	theme_free(&t);
	free(path);

	path = shipped("projector");
	CU_ASSERT_EQUAL_FATAL(theme_load_file(&t, path, NULL, &e), 0);
	/* high contrast: dark on white, bold text */
	CU_ASSERT_EQUAL(t.elem[ELEM_DEFAULT].fg, 16);
	CU_ASSERT_EQUAL(t.elem[ELEM_DEFAULT].bg, 231);
	CU_ASSERT(t.elem[ELEM_SUBJECT].attrs & THEME_BOLD);
	CU_ASSERT(t.elem[ELEM_DIFF_ADD].attrs & THEME_BOLD);
	theme_free(&t);
	free(path);

	/* by name, from the data directory, labelled relative to it */
	CU_ASSERT_EQUAL(theme_load(&t, "projector", &e), 0);
	theme_free(&t);
	CU_ASSERT_EQUAL(theme_load(&t, "nosuch", &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "unknown theme 'nosuch': themes/nosuch.yaml not found");
}

/* x^2.4 for x in [0, 1] without libm: x^2 times the fifth root of x^2
 * (Newton's method). */
static double pow24(double x)
{
	double x2 = x * x, y = x > 0 ? 1 : 0;
	for (int i = 0; i < 60 && y > 0; i++)
		y -= (y * y * y * y * y - x2) / (5 * y * y * y * y);
	return x2 * y;
}

/* WCAG relative luminance of an xterm 256-colour index (16..255). */
static double luminance(short c)
{
	static const int cube[6] = {0, 95, 135, 175, 215, 255};
	int rgb[3];
	if (c >= 232)
		rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
	else
		rgb[0] = cube[(c - 16) / 36], rgb[1] = cube[(c - 16) / 6 % 6],
		rgb[2] = cube[(c - 16) % 6];
	static const double weight[3] = {0.2126, 0.7152, 0.0722};
	double l = 0;
	for (int i = 0; i < 3; i++) {
		double v = rgb[i] / 255.0;
		l += weight[i] * (v <= 0.03928 ? v / 12.92 : pow24((v + 0.055) / 1.055));
	}
	return l;
}

/* A style's text over its background (else the theme's) is readable:
 * WCAG AA, 4.5:1. */
static void check_contrast(const struct theme *t, const struct theme_style *s)
{
	if (s->fg < 16)
		return;
	short bg = s->bg >= 16 ? s->bg : t->elem[ELEM_DEFAULT].bg;
	double a = luminance(s->fg), b = luminance(bg);
	double ratio = a > b ? (a + 0.05) / (b + 0.05) : (b + 0.05) / (a + 0.05);
	if (ratio < 4.5)
		fprintf(stderr, "projector: colour %d on %d: contrast %.2f\n", s->fg, bg, ratio);
	CU_ASSERT(ratio >= 4.5);
}

/* Every element and tag of the projector theme, dropped patches too. */
static void test_projector_contrast(void)
{
	struct theme t;
	struct kerr e;
	char *path = shipped("projector");
	CU_ASSERT_EQUAL_FATAL(theme_load_file(&t, path, NULL, &e), 0);
	for (int i = 0; i < ELEM_COUNT; i++)
		check_contrast(&t, &t.elem[i]);
	for (int i = 0; i < TAG_COUNT; i++)
		check_contrast(&t, &t.tag[i]);
	check_contrast(&t, &t.other_tag);
	theme_free(&t);
	free(path);
}

/* Load `text` as x.yaml and return the message (or "" if it loaded). */
static char *load_text(const char *text)
{
	static char msg[1024];
	char *dir = test_tmpdir(), *path = xasprintf("%s/x.yaml", dir);
	struct kerr e;
	struct theme t;
	CU_ASSERT_EQUAL(write_file_atomic(path, text, strlen(text), &e), 0);
	if (theme_load_file(&t, path, "themes/x.yaml", &e) == 0) {
		theme_free(&t);
		msg[0] = '\0';
	} else {
		snprintf(msg, sizeof(msg), "%s", e.msg);
	}
	free(path);
	test_rmdir(dir);
	free(dir);
	return msg;
}

static void test_broken(void)
{
	/* the element on line 12, column 3 */
	CU_ASSERT_STRING_EQUAL(load_text("# a theme\n"
					 "name: x\n"
					 "colors: 256\n"
					 "elements:\n"
					 "  cursor: { fg: black, bg: 153 }\n"
					 "  title-focus: { attrs: [bold] }\n"
					 "  header: { fg: 252 }\n"
					 "  index: { fg: 244 }\n"
					 "  id: { fg: 136 }\n"
					 "  subject: {}\n"
					 "  author: { fg: green }\n"
					 "  foo: { fg: red }\n"),
			       "themes/x.yaml:12:3: unknown element 'foo'");
	CU_ASSERT_STRING_EQUAL(load_text("elements:\n  cursor: { fg: pink }\n"),
			       "themes/x.yaml:2:17: unknown colour 'pink'");
	CU_ASSERT_STRING_EQUAL(load_text("elements:\n  cursor: { bg: 256 }\n"),
			       "themes/x.yaml:2:17: colour out of range 0..255: '256'");
	CU_ASSERT_STRING_EQUAL(load_text("elements:\n  cursor: { attrs: [bold, blod] }\n"),
			       "themes/x.yaml:2:27: unknown attribute 'blod'");
	CU_ASSERT_STRING_EQUAL(load_text("elements:\n  cursor: { attrs: bold underline }\n"), "");
	CU_ASSERT_STRING_EQUAL(load_text("elements:\n  cursor: { color: red }\n"),
			       "themes/x.yaml:2:13: unknown style key 'color'");
	CU_ASSERT_STRING_EQUAL(
	    load_text("elements:\n  cursor: red\n"),
	    "themes/x.yaml:2:11: a style must be a mapping like { fg: red, attrs: "
	    "[bold] }");
	CU_ASSERT_STRING_EQUAL(load_text("name: x\nfont: big\n"),
			       "themes/x.yaml:2:1: unknown key 'font'");
	CU_ASSERT_STRING_EQUAL(load_text("colors: 100\n"),
			       "themes/x.yaml:1:9: colors must be 0, 8, 16 or 256");
	CU_ASSERT_STRING_EQUAL(load_text("- a\n- b\n"),
			       "themes/x.yaml:1:1: a theme must be a mapping (name, colors, "
			       "elements, tags)");
	CU_ASSERT_STRING_EQUAL(load_text(""), "themes/x.yaml: empty theme");
	/* a YAML syntax error names its place too */
	char *msg = load_text("elements:\n  cursor: { fg: red\n");
	CU_ASSERT(!strncmp(msg, "themes/x.yaml:3:", 16));
	/* tags: known ones, patchset tags, and a style for all others */
	CU_ASSERT_STRING_EQUAL(load_text("tags:\n  HACK: { fg: red }\n  NOUPSTREAM: { bg: 3 }\n"
					 "  other: { attrs: [dim] }\n"),
			       "");
}

static void test_tag_styles(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/t.yaml", dir);
	const char *text = "tags:\n  HACK: { fg: red }\n  NOUPSTREAM: { bg: 3 }\n"
			   "  other: { attrs: [dim] }\n";
	struct kerr e;
	struct theme t;
	CU_ASSERT_EQUAL(write_file_atomic(path, text, strlen(text), &e), 0);
	CU_ASSERT_EQUAL_FATAL(theme_load_file(&t, path, NULL, &e), 0);
	CU_ASSERT_EQUAL(theme_tag_style(&t, "HACK")->fg, 1);
	CU_ASSERT_EQUAL(theme_tag_style(&t, "NOUPSTREAM")->bg, 3);
	CU_ASSERT_EQUAL(theme_tag_style(&t, "VENDOR")->attrs, THEME_DIM);
	theme_strip_colors(&t);
	CU_ASSERT_EQUAL(theme_tag_style(&t, "HACK")->fg, THEME_COLOR_DEFAULT);
	CU_ASSERT_EQUAL(theme_tag_style(&t, "NOUPSTREAM")->bg, THEME_COLOR_DEFAULT);
	CU_ASSERT_EQUAL(t.colors, 0);
	theme_free(&t);
	free(path);
	test_rmdir(dir);
	free(dir);
}

static void test_choose(void)
{
	CU_ASSERT_STRING_EQUAL(theme_choose(NULL, false, 256), "default");
	CU_ASSERT_STRING_EQUAL(theme_choose(NULL, false, 8), "default");
	CU_ASSERT_STRING_EQUAL(theme_choose(NULL, true, 256), "mono");
	CU_ASSERT_STRING_EQUAL(theme_choose(NULL, false, 0), "mono");
	CU_ASSERT_STRING_EQUAL(theme_choose(NULL, false, 2), "mono");
	/* asking by name wins over NO_COLOR */
	CU_ASSERT_STRING_EQUAL(theme_choose("projector", true, 256), "projector");
	struct theme t;
	theme_builtin(&t);
	CU_ASSERT_EQUAL(t.colors, 0);
	CU_ASSERT_EQUAL(t.elem[ELEM_CURSOR].attrs, THEME_REVERSE);
	theme_free(&t);
}

static void test_color_fit(void)
{
	CU_ASSERT_EQUAL(theme_color_fit(THEME_COLOR_DEFAULT, 8), THEME_COLOR_DEFAULT);
	CU_ASSERT_EQUAL(theme_color_fit(3, 8), 3);
	CU_ASSERT_EQUAL(theme_color_fit(200, 256), 200);
	CU_ASSERT_EQUAL(theme_color_fit(9, 8), 1);   /* bright red */
	CU_ASSERT_EQUAL(theme_color_fit(196, 8), 1); /* cube red */
	CU_ASSERT_EQUAL(theme_color_fit(196, 16), 9);
	CU_ASSERT_EQUAL(theme_color_fit(34, 8), 2);  /* green */
	CU_ASSERT_EQUAL(theme_color_fit(25, 8), 4);  /* blue */
	CU_ASSERT_EQUAL(theme_color_fit(16, 16), 0); /* cube black */
	CU_ASSERT_EQUAL(theme_color_fit(231, 8), 7); /* cube white */
	CU_ASSERT_EQUAL(theme_color_fit(231, 16), 15);
	CU_ASSERT_EQUAL(theme_color_fit(232, 8), 0);  /* dark grey */
	CU_ASSERT_EQUAL(theme_color_fit(250, 16), 7); /* light grey */
	CU_ASSERT_EQUAL(theme_color_fit(255, 16), 15);
}

void suite_theme(void)
{
	CU_pSuite s = CU_add_suite("theme", NULL, NULL);
	CU_add_test(s, "shipped themes", test_shipped);
	CU_add_test(s, "broken themes name file, line, column", test_broken);
	CU_add_test(s, "tag styles", test_tag_styles);
	CU_add_test(s, "choosing a theme", test_choose);
	CU_add_test(s, "fitting colours", test_color_fit);
	CU_add_test(s, "projector: every colour readable (4.5:1)", test_projector_contrast);
}
