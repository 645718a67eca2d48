/* Fuzz target: theme files (themes/NAME.yaml): colours and attributes per
 * element and per tag. Checks: a failed load names the file with its line;
 * every loaded colour is the default or 0..255, and fits 8 and 16 colours. */
#include "fuzz/fuzz.h"

#include "core/theme.h"

static void theme_check_style(const struct theme_style *s)
{
	FUZZ_CHECK(s->fg >= THEME_COLOR_DEFAULT && s->fg <= 255);
	FUZZ_CHECK(s->bg >= THEME_COLOR_DEFAULT && s->bg <= 255);
	for (int n = 8; n <= 16; n += 8) {
		short f = theme_color_fit(s->fg, n);
		FUZZ_CHECK(f == THEME_COLOR_DEFAULT || (f >= 0 && f < n) || s->fg < 0);
	}
}

FUZZ_TARGET(theme)
{
	const char *path = fuzz_file(data, size);
	struct theme t;
	struct kerr e;
	if (theme_load_file(&t, path, "fuzz.yaml", &e) < 0) {
		FUZZ_CHECK(str_startswith(e.msg, "fuzz.yaml"));
		return 0;
	}
	for (size_t i = 0; i < ELEM_COUNT; i++)
		theme_check_style(&t.elem[i]);
	for (size_t i = 0; i < TAG_COUNT; i++)
		theme_check_style(&t.tag[i]);
	for (size_t i = 0; i < t.nextra; i++) {
		theme_check_style(&t.extra[i].style);
		FUZZ_CHECK(theme_tag_style(&t, t.extra[i].name) != NULL);
	}
	FUZZ_CHECK(theme_tag_style(&t, "NO-SUCH-TAG") != NULL);
	theme_strip_colors(&t);
	theme_free(&t);
	return 0;
}
