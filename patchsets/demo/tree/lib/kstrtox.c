// SPDX-License-Identifier: GPL-2.0
/* kstrtoint(): parse an integer, refusing trailing garbage and overflow. */
#include <linux/errno.h>
#include <linux/kernel.h>

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long val = 0;
	int neg = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (base == 0)
		base = 10;
	if (!*s)
		return -EINVAL;
	for (; *s && *s != '\n'; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		val = val * base + d;
		if (val > INT_MAX)
			return -ERANGE;
	}
	*res = neg ? -val : val;
	return 0;
}
