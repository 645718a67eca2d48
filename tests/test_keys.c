/* Tests for tui/keys: key names, the action table and key files. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tui/keys.h"

static void test_key_names(void)
{
	int k;
	CU_ASSERT_EQUAL(key_parse("j", &k), 1);
	CU_ASSERT_EQUAL(k, 'j');
	CU_ASSERT_EQUAL(key_parse("<Down>x", &k), 6);
	CU_ASSERT_EQUAL(k, KEY_DOWN);
	CU_ASSERT_EQUAL(key_parse("<enter>", &k), 7);
	CU_ASSERT_EQUAL(k, '\r');
	CU_ASSERT_EQUAL(key_parse("<C-f>", &k), 5);
	CU_ASSERT_EQUAL(k, 6);
	CU_ASSERT_EQUAL(key_parse("<F10>", &k), 5);
	CU_ASSERT_EQUAL(k, KEY_F(10));
	/* a '<' that names nothing is the key '<' */
	CU_ASSERT_EQUAL(key_parse("<nope>", &k), 1);
	CU_ASSERT_EQUAL(k, '<');
	CU_ASSERT_STRING_EQUAL(key_name(KEY_NPAGE), "<PgDown>");
	CU_ASSERT_STRING_EQUAL(key_name(2), "<C-b>");
	CU_ASSERT_STRING_EQUAL(key_name(' '), "<Space>");
	CU_ASSERT_STRING_EQUAL(key_name('G'), "G");
}

static void test_actions(void)
{
	CU_ASSERT(ACT_NONE > KEY_MAX);
	CU_ASSERT_EQUAL(action_from_name("next-patch"), ACT_NEXT_PATCH);
	CU_ASSERT_EQUAL(action_from_name("filter-HACK"), ACT_FILTER_HACK);
	CU_ASSERT_EQUAL(action_tag(ACT_FILTER_HACK), TAG_HACK);
	CU_ASSERT_EQUAL(action_filter_tag(TAG_ANDROID), ACT_FILTER_ANDROID);
	CU_ASSERT_EQUAL(action_tag(ACT_QUIT), -1);
	CU_ASSERT_EQUAL(action_info(ACT_SERIES_TOGGLE)->scope, SCOPE_STACK);
	CU_ASSERT_PTR_NULL(action_info(ACT_NONE));
	/* every action has a name and a help text */
	for (int a = ACT_NONE + 1; a < ACT_END; a++)
		CU_ASSERT(action_info(a)->name[0] && action_info(a)->help[0]);
}

static void test_bindings(void)
{
	keys_init();
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_PATCH, 'J'), ACT_NEXT_PATCH);
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_PATCH, ']'), ACT_NEXT_PATCH);
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_STACK, 'H'), ACT_FILTER_HACK);
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_PATCH, 'H'), ACT_NONE);
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_STACK, ' '), ACT_SERIES_TOGGLE);
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_PATCH, ' '), ACT_MOVE_PAGE_DOWN);
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_HELP, KEY_NPAGE), ACT_MOVE_PAGE_DOWN);
	struct strbuf sb = STRBUF_INIT;
	keys_describe(ACT_NEXT_PATCH, &sb);
	CU_ASSERT_STRING_EQUAL(sb_str(&sb), "J ]");
	sb_free(&sb);
	struct kerr e;
	CU_ASSERT_EQUAL(keys_load_text("# mine\n\nbind stack x series-toggle\n", "keys", &e), 0);
	CU_ASSERT_EQUAL(keys_lookup(SCOPE_STACK, 'x'), ACT_SERIES_TOGGLE);
	CU_ASSERT_EQUAL(keys_load_text("bind stack x\n", "keys", &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "keys:1: expected 'bind SCOPE KEY ACTION'");
	CU_ASSERT_EQUAL(keys_load_text("\nbind nowhere x quit\n", "keys", &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "keys:2: unknown scope 'nowhere'");
	CU_ASSERT_EQUAL(keys_load_text("bind stack <Nope> quit\n", "keys", &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "keys:1: unknown key '<Nope>'");
	CU_ASSERT_EQUAL(keys_load_text("bind stack z frobnicate\n", "keys", &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "keys:1: unknown action 'frobnicate'");
	CU_ASSERT_EQUAL(keys_load_text("set x y\n", "keys", &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "keys:1: unknown command 'set' (expected bind)");
}

void suite_keys(void)
{
	CU_pSuite s = CU_add_suite("keys", NULL, NULL);
	CU_add_test(s, "key names", test_key_names);
	CU_add_test(s, "action table", test_actions);
	CU_add_test(s, "bindings and key files", test_bindings);
}
