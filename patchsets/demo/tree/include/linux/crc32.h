/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CRC32_H
#define _LINUX_CRC32_H

#include <linux/types.h>

u32 crc32_le(u32 crc, const unsigned char *p, size_t len);
#define crc32(seed, data, length) crc32_le(seed, (const unsigned char *)(data), length)

#endif
