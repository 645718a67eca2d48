// SPDX-License-Identifier: GPL-2.0
/* CRC32 (IEEE 802.3), little-endian, one bit at a time. */
#include <linux/crc32.h>
#include <linux/kernel.h>

#define CRC32_POLY_LE 0xedb88320

u32 crc32_le(u32 crc, const unsigned char *p, size_t len)
{
	int i;

	while (len--) {
		crc ^= *p++;
		for (i = 0; i < 8; i++)
			crc = (crc >> 1) ^ ((crc & 1) ? CRC32_POLY_LE : 0);
	}
	return crc;
}
