/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

typedef signed char		s8;
typedef unsigned char		u8;
typedef signed short		s16;
typedef unsigned short		u16;
typedef signed int		s32;
typedef unsigned int		u32;
typedef signed long long	s64;
typedef unsigned long long	u64;

typedef unsigned long		size_t;
typedef long			ssize_t;
typedef long			loff_t;
typedef unsigned long		uintptr_t;
typedef int			pid_t;
typedef unsigned int		gfp_t;
typedef unsigned short		umode_t;
typedef _Bool			bool;

#define false	0
#define true	1
#define NULL	((void *)0)

#define SIZE_MAX	(~(size_t)0)
#define INT_MAX		((int)(~0U >> 1))
#define U8_MAX		((u8)~0U)
#define U32_MAX		((u32)~0U)

typedef __builtin_va_list va_list;
#define va_start(v, l)	__builtin_va_start(v, l)
#define va_end(v)	__builtin_va_end(v)
#define va_arg(v, T)	__builtin_va_arg(v, T)

struct list_head {
	struct list_head *next, *prev;
};

#endif
