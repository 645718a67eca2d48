/* Toolchain names to Kbuild make variables, for native and cross builds. */
#include "core/toolchain.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/clangver.h"

/* GNU triples Debian and most distributions use, best first. */
static const struct {
	const char *arch;
	const char *triples;
} cross_triples[] = {
    {"arm64", "aarch64-linux-gnu aarch64-linux"},
    {"x86_64", "x86_64-linux-gnu x86_64-linux"},
    {"x86", "x86_64-linux-gnu x86_64-linux"},
    {"i386", "i686-linux-gnu x86_64-linux-gnu"},
    {"arm", "arm-linux-gnueabi arm-linux-gnueabihf arm-linux"},
    {"riscv", "riscv64-linux-gnu riscv64-linux"},
    {"powerpc", "powerpc64le-linux-gnu powerpc64-linux-gnu powerpc-linux-gnu"},
    {"mips", "mips-linux-gnu mipsel-linux-gnu mips64el-linux-gnuabi64"},
    {"s390", "s390x-linux-gnu"},
    {"loongarch", "loongarch64-linux-gnu"},
    {"sparc", "sparc64-linux-gnu"},
    {"sparc64", "sparc64-linux-gnu"},
    {"m68k", "m68k-linux-gnu"},
    {"parisc", "hppa-linux-gnu"},
    {"sh", "sh4-linux-gnu"},
    {"alpha", "alpha-linux-gnu"},
};

static const struct {
	const char *machine, *arch;
} host_arches[] = {
    {"x86_64", "x86_64"},   {"aarch64", "arm64"}, {"riscv64", "riscv"},
    {"ppc64le", "powerpc"}, {"s390x", "s390"},	  {"loongarch64", "loongarch"},
    {"i686", "i386"},	    {"armv7l", "arm"},
};

const char *toolchain_host_arch(void)
{
	static struct utsname u;
	if (uname(&u) < 0)
		return "";
	for (size_t i = 0; i < ARRAY_SIZE(host_arches); i++)
		if (!strcmp(u.machine, host_arches[i].machine))
			return host_arches[i].arch;
	return u.machine;
}

bool toolchain_arch_is_native(const char *arch)
{
	const char *host = toolchain_host_arch();
	if (!strcmp(arch, host) || !strcmp(arch, "um"))
		return true;
	/* ARCH=x86 means the 64-bit build on an x86_64 host */
	return !strcmp(host, "x86_64") && !strcmp(arch, "x86");
}

char *path_search(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? xstrdup(prog) : NULL;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char *cand = n ? xasprintf("%.*s/%s", (int)n, path, prog) : xasprintf("./%s", prog);
		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
		path += n + (path[n] == ':');
	}
	return NULL;
}

char *tool_version_line(const char *prog)
{
	char *out = NULL, *words[] = {(char *)prog};
	struct kerr e;
	if (run_version(words, 1, &out, &e) < 0)
		return NULL;
	out[strcspn(out, "\n")] = '\0';
	if (!*out) {
		free(out);
		out = NULL;
	}
	return out;
}

char *toolchain_cross_prefix(const char *arch, const char *tool, struct strbuf *tried)
{
	for (size_t i = 0; i < ARRAY_SIZE(cross_triples); i++) {
		if (strcmp(arch, cross_triples[i].arch))
			continue;
		const char *t = cross_triples[i].triples;
		while (*t) {
			size_t n = strcspn(t, " ");
			char *name = xasprintf("%.*s-%s", (int)n, t, tool);
			char *found = path_search(name);
			if (tried)
				sb_addf(tried, "%s%s", tried->len ? ", " : "", name);
			free(name);
			if (found) {
				free(found);
				return xasprintf("%.*s-", (int)n, t);
			}
			t += n + (t[n] == ' ');
		}
	}
	return NULL;
}

static bool user_sets(const char **makevars, size_t n, const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(makevars[i], name, len) && makevars[i][len] == '=')
			return true;
	return false;
}

static const char *user_value(const char **makevars, size_t n, const char *name)
{
	const char *v = NULL;
	size_t len = strlen(name);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(makevars[i], name, len) && makevars[i][len] == '=')
			v = makevars[i] + len + 1;
	return v;
}

static void add_var(struct toolchain *tc, char *var)
{
	tc->vars = xrealloc(tc->vars, (tc->nvars + 1) * sizeof(*tc->vars));
	tc->vars[tc->nvars++] = var;
}

/* Does the tree understand LLVM=-N (Linux 5.18 and later)? */
static bool tree_has_llvm_suffix(const char *srcdir)
{
	char *path = xasprintf("%s/Makefile", srcdir);
	struct kerr e;
	char *text = read_file(path, NULL, &e);
	bool yes = text && strstr(text, "LLVM_SUFFIX");
	free(text);
	free(path);
	return yes;
}

static int version_suffix(const char *name, const char *base)
{
	size_t n = strlen(base);
	if (strncmp(name, base, n) || name[n] != '-' || !isdigit((unsigned char)name[n + 1]))
		return -1;
	for (const char *p = name + n + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -1;
	return atoi(name + n + 1);
}

/* Where a toolchain needs GNU binutils or gcc for a foreign arch. */
static int cross(struct toolchain *tc, const char *arch, const char *tool, const char **mv,
		 size_t nmv, char **prefix, struct kerr *e)
{
	*prefix = NULL;
	const char *given = user_value(mv, nmv, "CROSS_COMPILE");
	if (given) {
		*prefix = xstrdup(given);
		return 0;
	}
	if (toolchain_arch_is_native(arch)) {
		*prefix = xstrdup("");
		return 0;
	}
	struct strbuf tried = STRBUF_INIT;
	*prefix = toolchain_cross_prefix(arch, tool, &tried);
	if (!*prefix) {
		if (tried.len)
			kerr_set(e,
				 "%s: no cross %s on PATH (tried %s); pass -- CROSS_COMPILE=PREFIX",
				 arch, tool, tried.buf);
		else
			kerr_set(e, "%s: no known cross triple; pass -- CROSS_COMPILE=PREFIX",
				 arch);
		sb_free(&tried);
		return -1;
	}
	sb_free(&tried);
	add_var(tc, xasprintf("CROSS_COMPILE=%s", *prefix));
	return 0;
}

static void set_cc(struct toolchain *tc, const char *wrapper, const char **mv, size_t nmv)
{
	if (user_sets(mv, nmv, "CC"))
		return;
	add_var(tc, wrapper ? xasprintf("CC=%s %s", wrapper, tc->compiler)
			    : xasprintf("CC=%s", tc->compiler));
}

static int resolve_llvm(struct toolchain *tc, int ver, const char *arch, const char *srcdir,
			const char *wrapper, const char **mv, size_t nmv, struct kerr *e)
{
	static const char *const tools[] = {"LD=ld.lld",
					    "AR=llvm-ar",
					    "NM=llvm-nm",
					    "OBJCOPY=llvm-objcopy",
					    "OBJDUMP=llvm-objdump",
					    "READELF=llvm-readelf",
					    "STRIP=llvm-strip",
					    "HOSTCC=clang",
					    "HOSTCXX=clang++"};
	tc->compiler = ver < 0 ? xstrdup("clang") : xasprintf("clang-%d", ver);
	char *found = path_search(tc->compiler);
	if (!found)
		return kerr_set(e, "%s: %s not found on PATH", tc->label, tc->compiler);
	free(found);
	if (ver < 0) {
		add_var(tc, xstrdup("LLVM=1"));
	} else if (tree_has_llvm_suffix(srcdir)) {
		add_var(tc, xasprintf("LLVM=-%d", ver));
	} else {
		/* older trees: name every tool */
		add_var(tc, xstrdup("LLVM=1"));
		if (!wrapper && !user_sets(mv, nmv, "CC"))
			add_var(tc, xasprintf("CC=%s", tc->compiler));
		for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
			add_var(tc, xasprintf("%s-%d", tools[i], ver));
	}
	if (wrapper && !user_sets(mv, nmv, "CC"))
		add_var(tc, xasprintf("CC=%s %s", wrapper, tc->compiler));
	/* LLVM_IAS=0 assembles with GNU as: that needs the target's binutils */
	const char *ias = user_value(mv, nmv, "LLVM_IAS");
	if (ias && !strcmp(ias, "0")) {
		char *prefix;
		if (cross(tc, arch, "as", mv, nmv, &prefix, e) < 0)
			return -1;
		free(prefix);
	}
	return 0;
}

int toolchain_resolve(struct toolchain *tc, const char *name, const char *arch, const char *srcdir,
		      const char *wrapper, const char **mv, size_t nmv, struct kerr *e)
{
	memset(tc, 0, sizeof(*tc));
	int ver = -1;
	char *prefix = NULL;
	if (!name || !*name)
		return kerr_set(e, "empty toolchain name");
	if (strchr(name, '/')) {
		const char *base = strrchr(name, '/') + 1;
		char *abs = path_search(name);
		if (!abs || !*base) {
			free(abs);
			return kerr_set(e, "%s: not an executable compiler", name);
		}
		tc->label = xstrdup(base);
		tc->compiler = abs;
		bool is_clang = strstr(base, "clang") != NULL;
		if (cross(tc, arch, is_clang ? "as" : "gcc", mv, nmv, &prefix, e) < 0)
			goto fail;
		if (!user_sets(mv, nmv, "CC"))
			add_var(tc, wrapper ? xasprintf("CC=%s %s", wrapper, abs)
					    : xasprintf("CC=%s", abs));
	} else if (!strcmp(name, "llvm") || (ver = version_suffix(name, "llvm")) >= 0) {
		tc->label = xstrdup(name);
		if (resolve_llvm(tc, strcmp(name, "llvm") ? ver : -1, arch, srcdir, wrapper, mv,
				 nmv, e) < 0)
			goto fail;
	} else if (!strcmp(name, "clang") || version_suffix(name, "clang") >= 0) {
		tc->label = xstrdup(name);
		tc->compiler = xstrdup(name);
		char *found = path_search(name);
		if (!found) {
			kerr_set(e, "%s: not found on PATH", name);
			goto fail;
		}
		free(found);
		if (cross(tc, arch, "as", mv, nmv, &prefix, e) < 0)
			goto fail;
		set_cc(tc, wrapper, mv, nmv);
	} else if (!strcmp(name, "gcc") || version_suffix(name, "gcc") >= 0) {
		tc->label = xstrdup(name);
		if (cross(tc, arch, name, mv, nmv, &prefix, e) < 0)
			goto fail;
		tc->compiler = xasprintf("%s%s", prefix, name);
		char *found = path_search(tc->compiler);
		if (!found) {
			kerr_set(e, "%s: %s not found on PATH", name, tc->compiler);
			goto fail;
		}
		free(found);
		if (user_sets(mv, nmv, "CC"))
			;
		else if (wrapper)
			add_var(tc, xasprintf("CC=%s %s", wrapper, tc->compiler));
		else if (strcmp(name, "gcc"))
			add_var(tc, xasprintf("CC=%s", tc->compiler));
	} else {
		return kerr_set(e,
				"unknown toolchain '%s' (llvm, llvm-N, clang, clang-N, gcc, "
				"gcc-N, or a compiler path)",
				name);
	}
	free(prefix);
	return 0;
fail:
	free(prefix);
	toolchain_free(tc);
	return -1;
}

void toolchain_free(struct toolchain *tc)
{
	for (size_t i = 0; i < tc->nvars; i++)
		free(tc->vars[i]);
	free(tc->vars);
	free(tc->label);
	free(tc->compiler);
	memset(tc, 0, sizeof(*tc));
}
