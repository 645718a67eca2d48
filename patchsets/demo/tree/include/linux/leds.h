/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_LEDS_H_INCLUDED
#define __LINUX_LEDS_H_INCLUDED

#include <linux/kernel.h>

enum led_brightness {
	LED_OFF		= 0,
	LED_ON		= 1,
	LED_HALF	= 127,
	LED_FULL	= 255,
};

enum led_default_state {
	LEDS_DEFSTATE_OFF	= 0,
	LEDS_DEFSTATE_ON	= 1,
	LEDS_DEFSTATE_KEEP	= 2,
};

struct led_classdev {
	const char		*name;
	u8			brightness;
	u8			max_brightness;
	unsigned int		flags;
	void			(*brightness_set)(struct led_classdev *, enum led_brightness);
};

int led_classdev_register(struct led_classdev *led_cdev);

#endif
