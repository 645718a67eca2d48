/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_NETDEVICE_H
#define _LINUX_NETDEVICE_H

#include <linux/kernel.h>
#include <linux/list.h>

#define IFNAMSIZ		16
#define ETH_ALEN		6

typedef u64 netdev_features_t;

#define NETIF_F_SG		BIT(0)
#define NETIF_F_HW_CSUM		BIT(3)
#define NETIF_F_HIGHDMA		BIT(5)
#define NETIF_F_LLTX		BIT(12)
#define NETIF_F_GSO_SOFTWARE	BIT(16)
#define NETIF_F_GSO_ENCAP_ALL	BIT(32)

enum netdev_state {
	NETDEV_UNREGISTERED,
	NETDEV_REGISTERED,
	NETDEV_UP,
	NETDEV_GOING_DOWN,
	NETDEV_DOWN,
	NETDEV_CHANGEMTU,
};

struct net_device {
	char			name[IFNAMSIZ];
	netdev_features_t	features;
	netdev_features_t	hw_features;
	unsigned int		mtu, min_mtu, max_mtu;
	unsigned int		flags;
	enum netdev_state	state;
	u8			dev_addr[ETH_ALEN];
	unsigned long		tx_packets, tx_bytes, rx_packets, rx_bytes;
	struct list_head	dev_list;
};

struct sk_buff {
	unsigned int		len;
	unsigned char		*data;
	struct net_device	*dev;
};

int register_netdev(struct net_device *dev);
void unregister_netdev(struct net_device *dev);

#endif
