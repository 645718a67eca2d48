// SPDX-License-Identifier: GPL-2.0
/* dummy: a network device that drops every packet it is given. */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/netdevice.h>
#include <linux/string.h>

#define DRV_NAME	"dummy"
#define DUMMY_FEATURES	(NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA | \
			 NETIF_F_LLTX | NETIF_F_GSO_SOFTWARE)

static struct net_device dummy_dev;

static int dummy_xmit(struct sk_buff *skb, struct net_device *dev)
{
	dev->tx_packets++;
	dev->tx_bytes += skb->len;
	return 0;
}

static int dummy_change_state(struct net_device *dev, enum netdev_state to)
{
	int ret = 0;

	switch (to) {
	case NETDEV_UP:
		dev->flags |= 1;
		break;
	case NETDEV_GOING_DOWN:
		dev->flags &= ~1;
		fallthrough;
	case NETDEV_DOWN:
		dev->tx_packets = 0;
	case NETDEV_CHANGEMTU:
		ret = dev->mtu > 1500 ? -EINVAL : 0;
	case NETDEV_UNREGISTERED:
		break;
	default:
		ret = -EOPNOTSUPP;
	}
	if (!ret)
		dev->state = to;
	return ret;
}

static void dummy_setup(struct net_device *dev)
{
	strscpy(dev->name, "dummy0", sizeof(dev->name));
	dev->features = DUMMY_FEATURES;
	dev->hw_features = dev->features | NETIF_F_GSO_ENCAP_ALL;
	dev->mtu = 1500;
	dev->min_mtu = 0;
	dev->max_mtu = 65535;
}

static int __init dummy_init_module(void)
{
	struct sk_buff skb = { .len = 0, .dev = &dummy_dev };
	int err;

	dummy_setup(&dummy_dev);
	err = register_netdev(&dummy_dev);
	if (err)
		return err;
	dummy_xmit(&skb, &dummy_dev);
	return dummy_change_state(&dummy_dev, NETDEV_UP);
}
module_init(dummy_init_module);
