/* SPDX-License-Identifier: MIT */
/*
 * The driver model's base (base/): devices and their managed resources
 * (devres.c), per-CPU variables (percpu.c).
 */
#ifndef IRQKIT_CORE_BASE_BASE_H
#define IRQKIT_CORE_BASE_BASE_H

#include "core.h"

struct irqkit_device;
/* Is @dev a device irqkit_device_initialize() made?  Reported if not (base/devres.c). */
HIDDEN bool irqkit__device_ok(struct irqkit_device *dev, const char *what);

#endif /* IRQKIT_CORE_BASE_BASE_H */
