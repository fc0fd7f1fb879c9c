// SPDX-License-Identifier: GPL-2.0
/*
 * The rxbisect bus: one device per emulated dual-port NIC, so that each has
 * a struct device for devlink, as netdevsim does.
 *
 *   echo ID > /sys/bus/rxbisect/new_device    a new device rxbisectID with
 *                                             a port pair (rxbN, rxbN+1)
 *   echo ID > /sys/bus/rxbisect/del_device    remove it and its ports
 *
 * The devices created at module load (pairs=N) are rxbisect0..N-1.  The
 * driver "rxbisect" binds to each as it is registered, as a PCI driver
 * would to its NIC, so that the device has a driver (devlink dev info
 * reports its name from there on 6.2 and later).
 */
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/dma-mapping.h>
#include "rxbisect.h"

static LIST_HEAD(rxb_bus_devs);
static DEFINE_MUTEX(rxb_bus_lock);	/* rxb_bus_devs */
static bool rxb_bus_enabled;

/* Devices not yet released, plus one while the bus is up.  devlink holds
 * its device and puts it from a work item after an RCU grace period
 * (devlink_release(), 6.12 and later), which can run after the device was
 * unregistered and, without this count, after the module and this
 * release function were gone (an oops seen on 7.2).  rxb_bus_exit() waits
 * for the last release, as netdevsim's bus does.
 */
static refcount_t rxb_bus_devs_live;
static DECLARE_COMPLETION(rxb_bus_devs_released);

static void rxb_bus_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct rxb_bus_dev, dev));
	if (refcount_dec_and_test(&rxb_bus_devs_live))
		complete(&rxb_bus_devs_released);
}

static const struct device_type rxb_bus_dev_type = {
	.name		= "rxbisect",
	.release	= rxb_bus_dev_release,
};

static struct rxb_bus_dev *rxb_bus_dev_find(unsigned int id)
{
	struct rxb_bus_dev *bdev;

	list_for_each_entry(bdev, &rxb_bus_devs, list)
		if (bdev->id == id)
			return bdev;
	return NULL;
}

static struct bus_type rxb_bus;

static int rxb_bus_probe(struct device *dev)
{
	struct rxb_bus_dev *bdev = container_of(dev, struct rxb_bus_dev, dev);

	bdev->probe_err = rxb_dev_probe(bdev);
	return bdev->probe_err;
}

static void rxb_bus_remove(struct device *dev)
{
	rxb_dev_remove(container_of(dev, struct rxb_bus_dev, dev));
}

static struct device_driver rxb_driver = {
	.name		= RXB_DRV_NAME,
	.bus		= &rxb_bus,
	.owner		= THIS_MODULE,
	/* Only the devices this module creates, never by sysfs bind. */
	.suppress_bind_attrs = true,
};

/* Called with rxb_bus_lock held. */
static int rxb_bus_dev_new(unsigned int id)
{
	struct rxb_bus_dev *bdev;
	int err;

	if (rxb_bus_dev_find(id))
		return -EEXIST;
	bdev = kzalloc(sizeof(*bdev), GFP_KERNEL);
	if (!bdev)
		return -ENOMEM;
	refcount_inc(&rxb_bus_devs_live);	/* put by its release */
	bdev->id = id;
	bdev->dev.bus = &rxb_bus;
	bdev->dev.type = &rxb_bus_dev_type;
	dev_set_name(&bdev->dev, "rxbisect%u", id);
	/* The NIC masters 64-bit bus addresses through an identity IOMMU
	 * mapping (nic_dma.c): dma-direct maps for it, at the physical
	 * address (an AF_XDP umem, xsk.c).
	 */
	bdev->dev.dma_mask = &bdev->dev.coherent_dma_mask;
	bdev->dev.coherent_dma_mask = DMA_BIT_MASK(64);
	bdev->probe_err = -ENODEV;
	/* Binds rxb_driver, whose probe runs before this returns. */
	err = device_register(&bdev->dev);
	if (err) {
		put_device(&bdev->dev);
		return err;
	}
	if (!bdev->dev.driver) {
		err = bdev->probe_err;
		device_unregister(&bdev->dev);
		return err;
	}
	list_add_tail(&bdev->list, &rxb_bus_devs);
	return 0;
}

/* Called with rxb_bus_lock held. */
static void rxb_bus_dev_del(struct rxb_bus_dev *bdev)
{
	list_del(&bdev->list);
	/* Unbinds rxb_driver: rxb_bus_remove() tears the ports down. */
	device_unregister(&bdev->dev);
}

/* Called with rxb_bus_lock held. */
static int rxb_bus_dev_del_id(unsigned int id)
{
	struct rxb_bus_dev *bdev = rxb_bus_dev_find(id);

	if (!bdev)
		return -ENOENT;
	rxb_bus_dev_del(bdev);
	return 0;
}

/* new_device and del_device: parse a device id from @buf and run @op on
 * it under rxb_bus_lock; @off_err while the bus is not (or no longer)
 * enabled.
 */
static ssize_t rxb_bus_id_store(const char *buf, size_t count,
				int (*op)(unsigned int id), int off_err)
{
	unsigned int id;
	int err;

	err = kstrtouint(buf, 0, &id);
	if (err)
		return err;
	mutex_lock(&rxb_bus_lock);
	err = rxb_bus_enabled ? op(id) : off_err;
	mutex_unlock(&rxb_bus_lock);
	return err ?: count;
}

static ssize_t new_device_store(rxb_bus_type_t *bus, const char *buf,
				size_t count)
{
	/* Ports pin page_pool memory no memcg is charged for (netdev.c:
	 * rxb_newlink()): root's file mode alone is not enough.
	 */
	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	return rxb_bus_id_store(buf, count, rxb_bus_dev_new, -EBUSY);
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(rxb_bus_type_t *bus, const char *buf,
				size_t count)
{
	return rxb_bus_id_store(buf, count, rxb_bus_dev_del_id, -ENOENT);
}
static BUS_ATTR_WO(del_device);

static struct attribute *rxb_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rxb_bus);

static struct bus_type rxb_bus = {
	.name		= RXB_DRV_NAME,
	.dev_name	= RXB_DRV_NAME,
	.bus_groups	= rxb_bus_groups,
	.probe		= rxb_bus_probe,
	.remove		= rxb_bus_remove,
};

/**
 * rxb_bus_init() - register the bus and create devices 0..@ndev-1.
 * @ndev: devices to create.
 *
 * Return: 0 or a negative error; on error nothing is left registered.
 */
int rxb_bus_init(unsigned int ndev)
{
	unsigned int i;
	int err;

	err = bus_register(&rxb_bus);
	if (err)
		return err;
	refcount_set(&rxb_bus_devs_live, 1);
	err = driver_register(&rxb_driver);
	if (err) {
		bus_unregister(&rxb_bus);
		return err;
	}
	mutex_lock(&rxb_bus_lock);
	rxb_bus_enabled = true;
	for (i = 0; i < ndev && !err; i++)
		err = rxb_bus_dev_new(i);
	mutex_unlock(&rxb_bus_lock);
	if (err)
		rxb_bus_exit();
	return err;
}

/**
 * rxb_bus_exit() - remove every device, then the bus.
 */
void rxb_bus_exit(void)
{
	struct rxb_bus_dev *bdev, *tmp;

	mutex_lock(&rxb_bus_lock);
	rxb_bus_enabled = false;
	list_for_each_entry_safe_reverse(bdev, tmp, &rxb_bus_devs, list)
		rxb_bus_dev_del(bdev);
	mutex_unlock(&rxb_bus_lock);
	if (refcount_dec_and_test(&rxb_bus_devs_live))
		complete(&rxb_bus_devs_released);
	wait_for_completion(&rxb_bus_devs_released);
	driver_unregister(&rxb_driver);
	bus_unregister(&rxb_bus);
}
