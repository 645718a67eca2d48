/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_BITMAP_H
#define __LINUX_BITMAP_H

#include <linux/bits.h>
#include <linux/types.h>

#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

void bitmap_zero(unsigned long *dst, unsigned int nbits);
void bitmap_set(unsigned long *map, unsigned int start, unsigned int len);
bool bitmap_test(const unsigned long *map, unsigned int bit);
unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits);
unsigned long find_first_zero_bit(const unsigned long *addr, unsigned long size);

#endif
