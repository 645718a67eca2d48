/* Colours from the theme and UTF-8 aware drawing of one line of a view. */
#ifndef KLANG_TUI_DISPLAY_H
#define KLANG_TUI_DISPLAY_H

#include <curses.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/theme.h"

/* Make colour pairs for a theme (after curses is up). The theme is copied. */
void display_set_theme(const struct theme *t);
const struct theme *display_theme(void);
void display_free(void);
/* The curses attributes (pair and attributes) of an element or a tag. */
attr_t display_attr(enum theme_elem e);
attr_t display_tag_attr(const char *tag_name);
/* The element a colour pair was made for (ELEM_COUNT if none): for the
 * headless attribute dump. Tags come back as ELEM_COUNT + 1. */
int display_pair_elem(short pair);

/* Drawing one line: a cursor moving right over a window row. On the
 * selected line every element is drawn in the cursor style; on a dimmed
 * line (a dropped patch) in the dropped style. */
struct line_draw {
	WINDOW *win;
	int row;
	int col, width;	  /* current and last+1 column on screen */
	int skip;	  /* columns still to skip (horizontal scroll) */
	int vcol;	  /* column in the text, for tab stops */
	int last, last_w; /* column and width of the last character drawn */
	bool selected;
	bool dim;
};

void draw_begin(struct line_draw *d, WINDOW *win, int row, int width, int skip);
/* Draw at most `len` bytes of s (len < 0: up to the NUL) and at most the
 * columns left; tabs expand, control bytes and invalid UTF-8 show as '?'.
 * Text cut by the right edge (not by len) ends in '…' ('~' where the
 * locale cannot show it). Returns the columns drawn. */
int draw_text(struct line_draw *d, enum theme_elem e, const char *s, int len);
int draw_textf(struct line_draw *d, enum theme_elem e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* As draw_text, with the matches of `re` (if any) in the search style. */
int draw_matches(struct line_draw *d, enum theme_elem e, const char *s, const regex_t *re);
/* As draw_text with explicit attributes (tag badges keep their colours even
 * on the cursor line). */
int draw_attr_text(struct line_draw *d, attr_t a, const char *s, int len);
/* A tag as a badge " NAME ", returns the columns drawn. */
int draw_tag(struct line_draw *d, const char *name);
/* Pad with spaces to screen column `col`. */
void draw_pad_to(struct line_draw *d, enum theme_elem e, int col);
/* Fill the rest of the row (the cursor bar, a file header bar). */
void draw_fill(struct line_draw *d, enum theme_elem e);

/* Display width of UTF-8 text (invalid bytes count as one column). */
int text_width(const char *s, int len);
/* How many bytes of s fit in `cols` columns. */
int text_fit(const char *s, int len, int cols);
/* Text wrapped at spaces into at most `max` rows of at most `cols`
 * columns: row[i] points into s, len[i] bytes. Returns the rows. */
int text_wrap(const char *s, int cols, const char **row, int *len, int max);

#endif
