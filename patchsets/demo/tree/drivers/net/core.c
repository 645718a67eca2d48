// SPDX-License-Identifier: GPL-2.0
/* The list of network devices. */
#include <linux/errno.h>
#include <linux/netdevice.h>
#include <linux/string.h>

static LIST_HEAD(dev_base_head);
static unsigned int dev_count;

int register_netdev(struct net_device *dev)
{
	if (!dev->name[0])
		return -EINVAL;
	if (dev->mtu < dev->min_mtu || dev->mtu > dev->max_mtu)
		return -EINVAL;
	list_add_tail(&dev->dev_list, &dev_base_head);
	dev->state = NETDEV_REGISTERED;
	dev_count++;
	return 0;
}

void unregister_netdev(struct net_device *dev)
{
	list_del(&dev->dev_list);
	dev->state = NETDEV_UNREGISTERED;
	dev_count--;
}
