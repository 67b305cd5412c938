/* SPDX-License-Identifier: MIT */
/* Linux's GFP flags over irqkit (see <irqkit/kernel.h>); 2.6's __GFP_WAIT is "may sleep". */
#ifndef IRQKIT_COMPAT_LINUX_GFP_H
#define IRQKIT_COMPAT_LINUX_GFP_H

#include <irqkit/kernel.h>

#define __GFP_DMA		IRQKIT___GFP_DMA
#define __GFP_HIGHMEM		IRQKIT___GFP_HIGHMEM
#define __GFP_DMA32		IRQKIT___GFP_DMA32
#define __GFP_HIGH		IRQKIT___GFP_HIGH
#define __GFP_IO		IRQKIT___GFP_IO
#define __GFP_FS		IRQKIT___GFP_FS
#define __GFP_ZERO		IRQKIT___GFP_ZERO
#define __GFP_NOWARN		IRQKIT___GFP_NOWARN
#define __GFP_DIRECT_RECLAIM	IRQKIT___GFP_DIRECT_RECLAIM
#define __GFP_KSWAPD_RECLAIM	IRQKIT___GFP_KSWAPD_RECLAIM
#define __GFP_RECLAIM		IRQKIT___GFP_RECLAIM
#define __GFP_WAIT		IRQKIT___GFP_DIRECT_RECLAIM
#define GFP_ATOMIC		IRQKIT_GFP_ATOMIC
#define GFP_NOWAIT		IRQKIT_GFP_NOWAIT
#define GFP_NOIO		IRQKIT_GFP_NOIO
#define GFP_NOFS		IRQKIT_GFP_NOFS
#define GFP_KERNEL		IRQKIT_GFP_KERNEL
#define GFP_USER		IRQKIT_GFP_USER
#define GFP_DMA			IRQKIT_GFP_DMA
typedef unsigned int		gfp_t;

#endif
