/* A tiny Kbuild-like kernel tree that the build tests create and build for real. */
#ifndef KLANG_TESTS_KBUILD_TREE_H
#define KLANG_TESTS_KBUILD_TREE_H

/* Write the tree under DIR/linux; returns that path (caller frees). defconfig
 * builds 7 objects, tinyconfig 3; CONFIG_WARN=y adds a file with one warning,
 * CONFIG_BROKEN=y one that does not compile. */
char *kbuild_tree_create(const char *dir);

#endif
