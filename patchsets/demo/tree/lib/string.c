// SPDX-License-Identifier: GPL-2.0
/* The C string functions the kernel uses; there is no libc below us. */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

void *memset(void *s, int c, size_t count)
{
	char *xs = s;

	while (count--)
		*xs++ = c;
	return s;
}

void *memcpy(void *dest, const void *src, size_t count)
{
	char *tmp = dest;
	const char *s = src;

	while (count--)
		*tmp++ = *s++;
	return dest;
}

void *memmove(void *dest, const void *src, size_t count)
{
	char *tmp = dest;
	const char *s = src;

	if (dest <= src)
		return memcpy(dest, src, count);
	tmp += count;
	s += count;
	while (count--)
		*--tmp = *--s;
	return dest;
}

int memcmp(const void *a, const void *b, size_t count)
{
	const unsigned char *su1 = a, *su2 = b;

	for (; count > 0; ++su1, ++su2, count--)
		if (*su1 != *su2)
			return *su1 < *su2 ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	const char *sc = s;

	while (*sc)
		sc++;
	return sc - s;
}

size_t strnlen(const char *s, size_t count)
{
	const char *sc = s;

	while (count-- && *sc)
		sc++;
	return sc - s;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

char *strchr(const char *s, int c)
{
	for (; *s != (char)c; ++s)
		if (*s == '\0')
			return NULL;
	return (char *)s;
}

/* Copy a string into a sized buffer; -E2BIG if it had to be truncated. */
ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t i;

	if (count == 0)
		return -E2BIG;
	for (i = 0; i < count - 1 && src[i]; i++)
		dest[i] = src[i];
	dest[i] = '\0';
	return src[i] ? -E2BIG : (ssize_t)i;
}
