/* What a toolchain name means to Kbuild for one ARCH: the make variables
 * (LLVM=1, CC=clang, CROSS_COMPILE=aarch64-linux-gnu-, ...) and the compiler. */
#ifndef KLANG_CORE_TOOLCHAIN_H
#define KLANG_CORE_TOOLCHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct toolchain {
	char *label;	/* names the build directory: llvm, llvm-15, clang, gcc, gcc-12 */
	char *compiler; /* the C compiler: clang, clang-15, aarch64-linux-gnu-gcc, /opt/x/clang */
	char **vars;	/* NAME=VALUE for make, before the user's own */
	size_t nvars;
};

/* Resolve `name` (llvm, llvm-N, clang, clang-N, gcc, gcc-N, or a path to a
 * compiler) for `arch` in the tree `srcdir`. `wrapper` (ccache, distcc,
 * icecc or NULL) goes in front of CC only. Variables the user sets in
 * `makevars` (e.g. CROSS_COMPILE=...) are not generated. */
int toolchain_resolve(struct toolchain *tc, const char *name, const char *arch, const char *srcdir,
		      const char *wrapper, const char **makevars, size_t nmakevars, struct kerr *e);
void toolchain_free(struct toolchain *tc);

/* The kernel ARCH of this machine (x86_64, arm64, ...). */
const char *toolchain_host_arch(void);
/* True if building `arch` here needs no CROSS_COMPILE. */
bool toolchain_arch_is_native(const char *arch);
/* The first "<triple>-" for `arch` whose `<triple>-<tool>` is on PATH; NULL
 * if none. `tried` (optional) receives the names looked for. Caller frees. */
char *toolchain_cross_prefix(const char *arch, const char *tool, struct strbuf *tried);
/* The first line of `prog --version`, or NULL (also when it does not
 * finish in CLANGVER_TIMEOUT seconds). Caller frees. */
char *tool_version_line(const char *prog);
/* Full path of `prog` on $PATH (or prog itself if it has a '/'), NULL if not
 * executable. Caller frees. */
char *path_search(const char *prog);

#endif
