/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STRING_H_
#define _LINUX_STRING_H_

#include <linux/types.h>

void *memcpy(void *dest, const void *src, size_t count);
void *memmove(void *dest, const void *src, size_t count);
void *memset(void *s, int c, size_t count);
int memcmp(const void *a, const void *b, size_t count);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t count);
int strcmp(const char *a, const char *b);
ssize_t strscpy(char *dest, const char *src, size_t count);
char *strchr(const char *s, int c);

#endif
