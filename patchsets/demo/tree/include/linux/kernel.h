/* SPDX-License-Identifier: GPL-2.0 */
/* The catch-all header nearly every file includes. */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/types.h>

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((typeof(x))(a) - 1))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#define min(x, y)		((x) < (y) ? (x) : (y))
#define max(x, y)		((x) > (y) ? (x) : (y))
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define clamp(val, lo, hi)	min(max(val, lo), hi)

__printf(1, 2) __noreturn __cold void panic(const char *fmt, ...);
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int kstrtoint(const char *s, unsigned int base, int *res);

#define BUG() panic("BUG at %s:%d", __FILE__, __LINE__)
#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)
#define WARN_ON(cond) ({ int __ret = !!(cond); if (unlikely(__ret)) \
	printk(KERN_WARNING "WARNING at %s:%d\n", __FILE__, __LINE__); unlikely(__ret); })

/*
 * Can a count of 'len' longs be allocated without overflowing size_t?
 * (The same check as xdr_stream_decode_uint32_array() in 6.1: always true
 * for a 32-bit len on 64-bit, which clang's W=1 build points out.)
 */
static inline bool array_size_ok(u32 len)
{
	if (len > SIZE_MAX / sizeof(long))
		return false;
	return true;
}

#endif
