// SPDX-License-Identifier: GPL-2.0
/* Bitmaps: arrays of unsigned long, one bit per item. */
#include <linux/bitmap.h>
#include <linux/kernel.h>

void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = 0;
}

void bitmap_set(unsigned long *map, unsigned int start, unsigned int len)
{
	unsigned int bit;

	for (bit = start; bit < start + len; bit++)
		map[BIT_WORD(bit)] |= BIT_MASK(bit);
}

bool bitmap_test(const unsigned long *map, unsigned int bit)
{
	return map[BIT_WORD(bit)] & BIT_MASK(bit);
}

unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int bit, w = 0;

	for (bit = 0; bit < nbits; bit++)
		w += bitmap_test(src, bit);
	return w;
}

unsigned long find_first_zero_bit(const unsigned long *addr, unsigned long size)
{
	unsigned long bit;

	for (bit = 0; bit < size; bit++)
		if (!bitmap_test(addr, bit))
			return bit;
	return size;
}
