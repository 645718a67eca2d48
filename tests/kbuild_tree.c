/* A tiny Kbuild-like kernel tree for the build tests: ARCH (arm64, x86_64),
 * LLVM=1, CC, CROSS_COMPILE, O=, config targets (tinyconfig, defconfig,
 * olddefconfig, last assignment wins), quiet "  CC      path.o" lines,
 * incremental builds (an object is compiled again when its source or what
 * the .config says changes), and freestanding C that gcc and clang compile
 * for real. */
#include "tests/kbuild_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static const char makefile[] =
    "# tiny Kbuild-like tree for klang's tests\n"
    "MAKEFLAGS += -rR --no-print-directory\n"
    "srctree := $(CURDIR)\n"
    "objtree := $(if $(O),$(abspath $(O)),$(CURDIR))\n"
    "SRCARCH := $(if $(filter x86_64 i386,$(ARCH)),x86,$(ARCH))\n"
    "ifeq ($(wildcard $(srctree)/arch/$(SRCARCH)/kernel),)\n"
    "$(error ARCH=$(ARCH): no arch/$(SRCARCH) in this tree)\n"
    "endif\n"
    "ifneq ($(LLVM),)\n"
    "CC = clang\n"
    "LD = ld.lld\n"
    "else\n"
    "CC = $(CROSS_COMPILE)gcc\n"
    "LD = $(CROSS_COMPILE)ld\n"
    "endif\n"
    "Q := $(if $(filter 1,$(V)),,@)\n"
    "CLANG_TARGET_arm64 := aarch64-linux-gnu\n"
    "CLANG_TARGET_x86 := x86_64-linux-gnu\n"
    "ifneq ($(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1)),)\n"
    "KCFLAGS_ARCH := --target=$(CLANG_TARGET_$(SRCARCH))\n"
    "endif\n"
    "CFLAGS := $(KCFLAGS_ARCH) -ffreestanding -nostdinc -fno-pic -O2 -Wall -I$(srctree)/include\n"
    "\n"
    "config-targets := tinyconfig defconfig olddefconfig\n"
    "ifneq ($(filter $(config-targets),$(MAKECMDGOALS)),)\n"
    "tinyconfig defconfig:\n"
    "\t@mkdir -p $(objtree)\n"
    "\t@echo '  GEN     .config'\n"
    "\t$(Q)cp $(srctree)/arch/$(SRCARCH)/configs/$@ $(objtree)/.config\n"
    "olddefconfig:\n"
    "\t@echo '  SYNC    .config'\n"
    "\t$(Q)tac $(objtree)/.config | awk -F= '!seen[$$1]++' | tac > $(objtree)/.config.new\n"
    "\t$(Q)mv $(objtree)/.config.new $(objtree)/.config\n"
    "else\n"
    "include $(objtree)/.config\n"
    "obj-y := init/main.o lib/string.o arch/$(SRCARCH)/kernel/setup.o\n"
    "obj-$(CONFIG_FORK) += kernel/fork.o\n"
    "obj-$(CONFIG_SCHED) += kernel/sched.o\n"
    "obj-$(CONFIG_MM) += mm/page.o mm/slab.o\n"
    "obj-$(CONFIG_WARN) += lib/warn.o\n"
    "obj-$(CONFIG_BROKEN) += lib/broken.o\n"
    "objs := $(addprefix $(objtree)/,$(obj-y))\n"
    "all: $(objtree)/vmlinux\n"
    "$(objtree)/vmlinux: $(objs)\n"
    "\t@echo '  LD      vmlinux'\n"
    "\t$(Q)$(LD) -r -o $@ $^\n"
    "# as Kconfig's syncconfig: rewritten only when .config says something new\n"
    "$(objtree)/include/config/auto.conf: $(objtree)/.config\n"
    "\t@mkdir -p $(dir $@)\n"
    "\t$(Q)cmp -s $< $@ || cp $< $@\n"
    "$(objtree)/%.o: $(srctree)/%.c $(objtree)/include/config/auto.conf\n"
    "\t@mkdir -p $(dir $@)\n"
    "\t@echo '  CC      $*.o'\n"
    "\t$(Q)$(CC) $(CFLAGS) -c -o $@ $<\n"
    "endif\n"
    ".PHONY: all $(config-targets)\n";

static const struct {
	const char *path, *text;
} files[] = {
    {"Makefile", makefile},
    {"Kconfig", "# nothing to see\n"},
    {"include/types.h", "typedef unsigned long size_t;\n"},
    {"init/main.c", "#include <types.h>\nint start_kernel(void) { return 0; }\n"},
    {"lib/string.c", "#include <types.h>\n"
		     "size_t strlen(const char *s)\n{\n\tsize_t n = 0;\n"
		     "\twhile (s[n])\n\t\tn++;\n\treturn n;\n}\n"},
    {"arch/x86/kernel/setup.c", "int setup_arch(void) { return 64; }\n"},
    {"arch/arm64/kernel/setup.c", "int setup_arch(void) { return 8; }\n"},
    {"arch/x86/configs/tinyconfig", "CONFIG_TINY=y\n"},
    {"arch/arm64/configs/tinyconfig", "CONFIG_TINY=y\n"},
    {"arch/x86/configs/defconfig", "CONFIG_FORK=y\nCONFIG_SCHED=y\nCONFIG_MM=y\n"},
    {"arch/arm64/configs/defconfig", "CONFIG_FORK=y\nCONFIG_SCHED=y\nCONFIG_MM=y\n"},
    {"scripts/Kbuild.include", "# how klang knows the top from a subdirectory\n"},
    {"kernel/fork.c", "int do_fork(int x) { return x + 1; }\n"},
    {"kernel/sched.c", "int schedule(int x) { return x * 2; }\n"},
    {"mm/page.c", "int alloc_page(int x) { return x << 12; }\n"},
    {"mm/slab.c", "int kmalloc(int x) { return x + 8; }\n"},
    {"lib/warn.c", "int warn_me(void)\n{\n\tint unused_thing;\n\treturn 0;\n}\n"},
    {"lib/broken.c", "int broken(void) { return 0 }\n"},
};

char *kbuild_tree_create(const char *dir)
{
	struct kerr e;
	char *root = xasprintf("%s/linux", dir);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = xasprintf("%s/%s", root, files[i].path);
		char *slash = strrchr(path, '/');
		*slash = '\0';
		if (mkdir_p(path, &e) < 0)
			goto fail;
		*slash = '/';
		if (write_file_atomic(path, files[i].text, strlen(files[i].text), &e) < 0)
			goto fail;
		free(path);
		continue;
	fail:
		fprintf(stderr, "kbuild_tree_create: %s\n", e.msg);
		exit(2);
	}
	return root;
}
