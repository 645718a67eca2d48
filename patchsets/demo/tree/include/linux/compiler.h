/* SPDX-License-Identifier: GPL-2.0 */
/* Attributes and small compiler helpers, for GCC and Clang alike. */
#ifndef __LINUX_COMPILER_H
#define __LINUX_COMPILER_H

#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define __noreturn		__attribute__((__noreturn__))
#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __section(s)		__attribute__((__section__(s)))
#define __used			__attribute__((__used__))
#define __weak			__attribute__((__weak__))
#define __maybe_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __cold			__attribute__((__cold__))
#define fallthrough		__attribute__((__fallthrough__))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")

#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile typeof(x) *)&(x) = (val))

#define offsetof(TYPE, MEMBER)	__builtin_offsetof(TYPE, MEMBER)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
