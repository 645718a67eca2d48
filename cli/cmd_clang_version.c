/* klang clang-version: the Clang version a compiler reports, as
 * MAJOR.MINOR.PATCH, or every clang and clang-N on PATH with theirs. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "core/clangver.h"
#include "core/util.h"

static void usage(FILE *f)
{
	fputs("usage: klang clang-version [--cc PATH] [--all] [--format text|json]\n\n"
	      "Run the compiler's --version and print its Clang version as MAJOR.MINOR.PATCH.\n\n"
	      "  --cc PATH    the compiler (default: $CC, else clang); $CC may hold a\n"
	      "               wrapper and flags (\"ccache clang\")\n"
	      "  --all        every clang and clang-N on PATH: name, version, vendor, path\n"
	      "               (newest first; a name shadowed later on PATH is not listed)\n"
	      "  --format F   text (default) or json\n\n"
	      "Vendor builds are recognised (Debian, Ubuntu, Android, Chromium OS, Fedora,\n"
	      "Homebrew, ...). Apple clang numbers Apple's releases, not LLVM's: klang says\n"
	      "so and does not guess the LLVM version.\n\n"
	      "Exit status: 0; 1 when the output cannot be written; 2 when the compiler is\n"
	      "missing or is not clang.\n",
	      f);
}

static json_t *version_json(const struct clang_version *v)
{
	char b[32];
	json_t *o = json_object();
	json_object_set_new(o, "version", json_string(clangver_str(v, b, sizeof(b))));
	json_object_set_new(o, "major", json_integer(v->major));
	json_object_set_new(o, "minor", json_integer(v->minor));
	json_object_set_new(o, "patch", json_integer(v->patch));
	json_object_set_new(o, "suffix", json_string(v->suffix));
	json_object_set_new(o, "vendor", json_string(v->vendor));
	json_object_set_new(o, "detail", json_string(v->detail));
	json_object_set_new(o, "apple", json_boolean(v->apple));
	json_object_set_new(o, "llvm_version",
			    v->apple ? json_null() : json_string(clangver_str(v, b, sizeof(b))));
	return o;
}

/* "Apple clang 15.0.0 (clang-1500.1.0.2.5)" and what that does not say. */
static void apple_note(const char *cc, const struct clang_version *v)
{
	char b[32];
	warnx_("%s is Apple clang %s%s%s%s: Apple's version numbers are not LLVM's; the LLVM "
	       "version is not known (give it to klang series with --clang)",
	       cc, clangver_str(v, b, sizeof(b)), v->detail[0] ? " (" : "", v->detail,
	       v->detail[0] ? ")" : "");
}

static void list_all(bool json)
{
	size_t n;
	struct clang_found *f = clangver_find_all(&n);
	json_t *arr = json ? json_array() : NULL;
	for (size_t i = 0; i < n; i++) {
		char b[32];
		if (json) {
			json_t *o = f[i].error ? json_object() : version_json(&f[i].v);
			json_object_set_new(o, "name", json_string(f[i].name));
			json_object_set_new(o, "path", json_string(f[i].path));
			if (f[i].error)
				json_object_set_new(o, "error", json_string(f[i].error));
			json_array_append_new(arr, o);
		} else if (f[i].error) {
			printf("%-10s %-8s %-12s %s (%s)\n", f[i].name, "?", "-", f[i].path,
			       f[i].error);
		} else {
			printf("%-10s %-8s %-12s %s%s\n", f[i].name,
			       clangver_str(&f[i].v, b, sizeof(b)),
			       f[i].v.vendor[0] ? f[i].v.vendor : "LLVM", f[i].path,
			       f[i].v.apple ? " (Apple numbering, not LLVM's)" : "");
		}
	}
	if (json) {
		json_dumpf(arr, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(arr);
	} else if (!n) {
		warnx_("no clang or clang-N on PATH");
	}
	clangver_found_free(f, n);
}

int cmd_clang_version(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"cc", required_argument, NULL, 'c'},
	    {"all", no_argument, NULL, 'a'},
	    {"format", required_argument, NULL, 'f'},
	    {"help", no_argument, NULL, 'h'},
	    {0},
	};
	const char *cc = NULL;
	bool all = false, json = false;
	int c;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!*optarg) { /* not $CC or clang: say so */
				warnx_("clang-version: --cc needs a value (see klang clang-version "
				       "--help)");
				return EXIT_USAGE;
			}
			cc = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				warnx_("clang-version: --format must be text or json, not '%s'",
				       optarg);
				return EXIT_USAGE;
			}
			json = !strcmp(optarg, "json");
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return option_error("clang-version", c, argv);
		}
	}
	if (optind < argc) {
		warnx_("clang-version: unexpected argument '%s' (see klang clang-version --help)",
		       argv[optind]);
		return EXIT_USAGE;
	}
	if (all) {
		list_all(json);
		return output_written("clang-version") ? EXIT_OK : EXIT_FOUND;
	}
	struct clang_version v;
	struct kerr e;
	cc = clangver_default_cc(cc);
	if (clangver_detect(cc, &v, &e) < 0) {
		warnx_("clang-version: %s", e.msg);
		return EXIT_USAGE;
	}
	if (v.apple)
		apple_note(cc, &v);
	if (json) {
		json_t *o = version_json(&v);
		json_object_set_new(o, "cc", json_string(cc));
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		char b[32];
		printf("%s%s\n", v.apple ? "Apple " : "", clangver_str(&v, b, sizeof(b)));
	}
	return output_written("clang-version") ? EXIT_OK : EXIT_FOUND;
}
