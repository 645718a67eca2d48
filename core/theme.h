/* Colour themes: themes/NAME.yaml read with libyaml into a style (fg, bg,
 * attributes) per UI element and per subject tag. No curses here: the TUI
 * turns styles into colour pairs (tui/display.c). */
#ifndef KLANG_CORE_THEME_H
#define KLANG_CORE_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/tags.h"
#include "core/util.h"

/* Every element a view may draw with: id, name in the YAML file. Views added
 * later (builds, warnings, source) have their slots here already. */
#define THEME_ELEMENTS(X)                                                                          \
	X(DEFAULT, "default")                                                                      \
	X(CURSOR, "cursor")                                                                        \
	X(TITLE_FOCUS, "title-focus")                                                              \
	X(TITLE_BLUR, "title-blur")                                                                \
	X(STATUS, "status")                                                                        \
	X(ERROR, "error")                                                                          \
	X(PROMPT, "prompt")                                                                        \
	X(HEADER, "header")                                                                        \
	X(INDEX, "index")                                                                          \
	X(ID, "id")                                                                                \
	X(SUBJECT, "subject")                                                                      \
	X(AUTHOR, "author")                                                                        \
	X(DATE, "date")                                                                            \
	X(SEARCH, "search-match")                                                                  \
	X(KEEP, "keep")                                                                            \
	X(DROP, "drop")                                                                            \
	X(DROPPED, "dropped")                                                                      \
	X(COMMIT, "commit")                                                                        \
	X(META, "meta")                                                                            \
	X(TRAILER, "trailer")                                                                      \
	X(DIFF_FILE, "diff-file")                                                                  \
	X(DIFF_META, "diff-meta")                                                                  \
	X(DIFF_CHUNK, "diff-chunk")                                                                \
	X(DIFF_ADD, "diff-add")                                                                    \
	X(DIFF_DEL, "diff-del")                                                                    \
	X(DIFF_STAT, "diff-stat")                                                                  \
	X(HELP_GROUP, "help-group")                                                                \
	X(HELP_KEY, "help-key")                                                                    \
	X(CHECKBOX, "checkbox")                                                                    \
	X(OK, "ok")                                                                                \
	X(FAILED, "failed")                                                                        \
	X(RUNNING, "running")                                                                      \
	X(WARNING, "warning")                                                                      \
	X(NOTE, "note")                                                                            \
	X(LINE_NUMBER, "line-number")                                                              \
	X(CAPTION, "caption")

/* clang-format off */ /* (it misreads an X-macro list in an enum) */
enum theme_elem {
#define THEME_ELEM_ENUM(id, name) ELEM_##id,
	THEME_ELEMENTS(THEME_ELEM_ENUM)
#undef THEME_ELEM_ENUM
	ELEM_COUNT
};
/* clang-format on */

extern const char *const theme_elem_names[ELEM_COUNT];

enum theme_attr {
	THEME_BOLD = 1 << 0,
	THEME_DIM = 1 << 1,
	THEME_REVERSE = 1 << 2,
	THEME_UNDERLINE = 1 << 3,
	THEME_ITALIC = 1 << 4,
	THEME_STANDOUT = 1 << 5,
	THEME_BLINK = 1 << 6,
};

#define THEME_COLOR_DEFAULT (-1)

struct theme_style {
	short fg, bg;	/* THEME_COLOR_DEFAULT or 0..255 */
	unsigned attrs; /* enum theme_attr bits */
};

/* A tag a patchset declares (not in enum tag) with its own style. */
struct theme_extra_tag {
	char *name;
	struct theme_style style;
};

struct theme {
	char *name;
	char *description;
	int colors; /* colours the theme is written for: 0 (attributes only), 8, 16, 256 */
	struct theme_style elem[ELEM_COUNT];
	struct theme_style tag[TAG_COUNT];
	struct theme_style other_tag; /* tags without a style of their own */
	struct theme_extra_tag *extra;
	size_t nextra;
};

/* Load a theme file; `label` names it in messages ("themes/x.yaml:12:3:
 * unknown element 'foo'"); NULL = path. Returns -1 with a message. */
int theme_load_file(struct theme *t, const char *path, const char *label, struct kerr *e);
/* Load by name (themes/NAME.yaml in the data directory) or by path (a name
 * containing '/' or ending in .yaml). */
int theme_load(struct theme *t, const char *name, struct kerr *e);
/* Attributes only, compiled in: used when no theme file can be found. */
void theme_builtin(struct theme *t);
void theme_free(struct theme *t);

/* The theme to use: the requested one; else "mono" when NO_COLOR is set or
 * the terminal has fewer than 8 colours; else "default". */
const char *theme_choose(const char *requested, bool no_color, int term_colors);
/* Drop colours, keep attributes (a colour theme on a terminal without colour). */
void theme_strip_colors(struct theme *t);
/* A colour (0..255) as the nearest of the first `ncolors` (8 or 16). */
short theme_color_fit(short color, int ncolors);
/* The style of a tag by name (known tags, extra tags, else other_tag). */
const struct theme_style *theme_tag_style(const struct theme *t, const char *name);

#endif
