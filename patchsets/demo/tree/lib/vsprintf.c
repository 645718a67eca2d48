// SPDX-License-Identifier: GPL-2.0
/* vsnprintf(): the subset of printf formats the kernel uses. */
#include <linux/kernel.h>
#include <linux/string.h>

struct printf_spec {
	unsigned char	base;
	unsigned char	is_signed;
	unsigned char	qualifier;	/* 'l', 'z' or 'h' */
	signed char	width;
};

static char *put_char(char *buf, char *end, char c)
{
	if (buf < end)
		*buf = c;
	return buf + 1;
}

static char *number(char *buf, char *end, unsigned long long num, struct printf_spec spec)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	int i = 0;

	if (spec.is_signed && (long long)num < 0) {
		buf = put_char(buf, end, '-');
		num = -(long long)num;
	}
	do {
		tmp[i++] = digits[num % spec.base];
		num /= spec.base;
	} while (num);
	while (spec.width-- > i)
		buf = put_char(buf, end, ' ');
	while (i > 0)
		buf = put_char(buf, end, tmp[--i]);
	return buf;
}

static char *string(char *buf, char *end, const char *s)
{
	if (!s)
		s = "(null)";
	while (*s)
		buf = put_char(buf, end, *s++);
	return buf;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	char *str = buf, *end = buf + size;
	int nr_specs = 0;

	for (; *fmt; fmt++) {
		struct printf_spec spec = { .base = 10 };

		if (*fmt != '%') {
			str = put_char(str, end, *fmt);
			continue;
		}
		fmt++;
		nr_specs++;
		while (*fmt >= '0' && *fmt <= '9')
			spec.width = spec.width * 10 + (*fmt++ - '0');
		if (*fmt == 'l' || *fmt == 'z' || *fmt == 'h')
			spec.qualifier = *fmt++;
		switch (*fmt) {
		case 'c':
			str = put_char(str, end, (char)va_arg(args, int));
			continue;
		case 's':
			str = string(str, end, va_arg(args, const char *));
			continue;
		case 'p':
			str = string(str, end, "0x");
			spec.base = 16;
			str = number(str, end, (unsigned long)va_arg(args, void *), spec);
			continue;
		case '%':
			str = put_char(str, end, '%');
			continue;
		case 'x':
			spec.base = 16;
			break;
		case 'd':
		case 'i':
			spec.is_signed = 1;
			break;
		case 'u':
			break;
		default:
			continue;
		}
		if (spec.qualifier == 'l' || spec.qualifier == 'z')
			str = number(str, end, spec.is_signed ? (unsigned long long)va_arg(args, long)
							    : va_arg(args, unsigned long), spec);
		else
			str = number(str, end, spec.is_signed ? (unsigned long long)va_arg(args, int)
							    : va_arg(args, unsigned int), spec);
	}
	if (size > 0)
		*(str < end ? str : end - 1) = '\0';
	return str - buf;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int i;

	va_start(args, fmt);
	i = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return i;
}
