// SPDX-License-Identifier: GPL-2.0
/* demo-leds: a board's status LED with 256 brightness steps. */
#include <linux/init.h>
#include <linux/leds.h>

#define DEMO_LED_STEPS	256

struct demo_led {
	struct led_classdev	cdev;
	enum led_brightness	boot_brightness;
	u8			steps;
};

static struct demo_led status_led;

static void demo_led_set(struct led_classdev *cdev, enum led_brightness value)
{
	cdev->brightness = value;
}

static void demo_led_parse_state(struct demo_led *led, enum led_default_state state)
{
	led->boot_brightness = state;
}

static int __init demo_leds_init(void)
{
	status_led.cdev.name = "demo:green:status";
	status_led.cdev.max_brightness = LED_FULL;
	status_led.cdev.brightness_set = demo_led_set;
	status_led.steps = DEMO_LED_STEPS;
	demo_led_parse_state(&status_led, LEDS_DEFSTATE_ON);
	return led_classdev_register(&status_led.cdev);
}
module_init(demo_leds_init);

int led_classdev_register(struct led_classdev *led_cdev)
{
	if (!led_cdev->brightness_set)
		return -22;
	led_cdev->brightness_set(led_cdev, LED_OFF);
	return 0;
}
