/* klang's settings, read with libyaml from (in order, later wins key by key):
 * the compiled-in defaults, $XDG_CONFIG_HOME/klang/config.yaml (else
 * ~/.config/klang/config.yaml), and .klang/config.yaml in the repository.
 *
 *   theme: projector            editor: nvim        jobs: 16
 *   arches: [arm64, x86_64]     toolchains: [llvm, gcc]
 *   config: defconfig           wrapper: ccache     make: [W=1]
 *   bindings:                   # action name -> a key or a list of keys
 *     quit: q
 *     stack-next: [j, <Down>]
 *
 * Action names and key names belong to the TUI: it passes checkers so that a
 * wrong one is reported here with its place ("config.yaml:7:3: unknown
 * action 'qiut'"). */
#ifndef KLANG_CORE_CONFIG_H
#define KLANG_CORE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct config_binding {
	char *action; /* "quit", "stack-next" ... */
	char **keys;  /* as written, in the format of the compiled-in defaults */
	size_t nkeys; /* 0: the action is unbound ("quit: []" or "quit: none") */
	char *origin; /* "file:line:col" where it was set */
};

struct config {
	char *theme; /* NULL: automatic (theme_choose) */
	char *editor;
	unsigned jobs; /* build slots */
	char **arches;
	size_t narches;
	char **toolchains; /* llvm, clang, gcc */
	size_t ntoolchains;
	char *config_target; /* "config:" - a make target (defconfig) or a file */
	char *wrapper;	     /* ccache, distcc, icecc, or "none" */
	char **makevars;     /* "make:" - NAME=VALUE for every make (W=1) */
	size_t nmakevars;
	struct config_binding *bindings; /* one per action, in the order first set */
	size_t nbindings, bindings_cap;
	char **files; /* the files read, in order */
	size_t nfiles;
	bool file_arches, file_toolchains; /* set by a file, not the defaults */
};

/* What the TUI knows: NULL members accept anything. */
struct config_checks {
	bool (*action)(const char *name);
	bool (*key)(const char *name);
};

/* The defaults that do not come from a file: no theme (automatic), editor
 * $VISUAL / $EDITOR / vi, jobs = online CPUs, arches arm64 x86_64,
 * toolchains llvm gcc, config defconfig, wrapper none, no bindings. c must
 * be zeroed (or hold a configuration) before. */
void config_defaults(struct config *c);
/* Merge YAML text (compiled-in defaults, "label" names it in messages). */
int config_load_text(struct config *c, const char *text, size_t len, const char *label,
		     const struct config_checks *chk, struct kerr *e);
/* Merge a file; a missing file is not an error (0, nothing read). */
int config_load_file(struct config *c, const char *path, const struct config_checks *chk,
		     struct kerr *e);
/* $XDG_CONFIG_HOME/klang/config.yaml or ~/.config/klang/config.yaml; caller frees. */
char *config_user_path(void);
/* The user's file, then .klang/config.yaml at the top of repo's work tree
 * (repo NULL: the repository containing the current directory, if any; a
 * directory that is not in a git repository is its own top). */
int config_load(struct config *c, const char *repo, const struct config_checks *chk,
		struct kerr *e);
/* The wrapper to put in front of CC: w, or NULL for none (or NULL). */
const char *config_wrapper(const char *w);
/* The binding of an action, or NULL when no file set one. */
const struct config_binding *config_binding(const struct config *c, const char *action);
/* The bindings as lines of the TUI's key-file format, "bind SCOPE KEY
 * ACTION", each action in the scope `scope_of` gives it (NULL: "generic"),
 * for keys_load_text(). An action bound to no keys gives no line. Caller
 * frees. */
char *config_keyfile(const struct config *c, const char *(*scope_of)(const char *action));
/* The effective configuration as YAML that config_load_text reads back
 * (klang --dump-config). Caller frees. */
char *config_dump(const struct config *c);
void config_free(struct config *c);

#endif
