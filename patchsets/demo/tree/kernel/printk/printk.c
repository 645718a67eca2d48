// SPDX-License-Identifier: GPL-2.0
/* printk(): format into the log buffer, a ring of CONFIG_LOG_BUF_SHIFT bytes. */
#include <linux/kernel.h>
#include <linux/string.h>

#define LOG_BUF_LEN	(1 << CONFIG_LOG_BUF_SHIFT)
#define LOG_LINE_MAX	1024

static char log_buf[LOG_BUF_LEN];
static unsigned long log_next;
static int console_loglevel = 7;

static int printk_get_level(const char *buffer)
{
	if (buffer[0] == KERN_SOH[0] && buffer[1] >= '0' && buffer[1] <= '7')
		return buffer[1] - '0';
	return 4;
}

int vprintk(const char *fmt, va_list args)
{
	char line[LOG_LINE_MAX];
	int len, level, i;

	len = vsnprintf(line, sizeof(line), fmt, args);
	level = printk_get_level(line);
	if (level > console_loglevel)
		return 0;
	for (i = 0; i < len; i++)
		log_buf[(log_next + i) & (LOG_BUF_LEN - 1)] = line[i];
	log_next += len;
	return len;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int r;

	va_start(args, fmt);
	r = vprintk(fmt, args);
	va_end(args);
	return r;
}
