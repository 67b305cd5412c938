/* SPDX-License-Identifier: MIT */
/*
 * A pairing heap, the timer queue of both kinds of timer (timer.c,
 * hrtimer.c): insertion and the minimum in O(1), removal of any node in
 * O(log n) amortised, and no allocation, the node living in the timer.  A
 * child's prev is its previous sibling, or its parent when it is the first
 * child; a root has no prev or next.  Each queue gives its own order as
 * @before, inlined at each use.
 */
#ifndef IRQKIT_CORE_PHEAP_H
#define IRQKIT_CORE_PHEAP_H

#include <irqkit/types.h>

typedef bool (*pheap_before_fn)(const struct irqkit__heap_node *a,
				const struct irqkit__heap_node *b);

/* Meld two roots into one. */
static __always_inline struct irqkit__heap_node *pheap_meld(struct irqkit__heap_node *a,
							    struct irqkit__heap_node *b,
							    pheap_before_fn before)
{
	struct irqkit__heap_node *tmp;

	if (!a)
		return b;
	if (!b)
		return a;
	if (before(b, a)) {
		tmp = a;
		a = b;
		b = tmp;
	}
	b->prev = a;
	b->next = a->child;
	if (a->child)
		a->child->prev = b;
	a->child = b;
	return a;
}

/* The two-pass merge of a sibling list into one root. */
static __always_inline struct irqkit__heap_node *pheap_merge_pairs(struct irqkit__heap_node *first,
								   pheap_before_fn before)
{
	struct irqkit__heap_node *stack = NULL, *root = NULL;

	while (first) {
		struct irqkit__heap_node *a = first, *b = a->next, *m;

		first = b ? b->next : NULL;
		a->prev = a->next = NULL;
		if (b)
			b->prev = b->next = NULL;
		m = pheap_meld(a, b, before);
		m->next = stack;		/* the stack links through next */
		stack = m;
	}
	while (stack) {
		struct irqkit__heap_node *next = stack->next;

		stack->next = NULL;
		root = pheap_meld(root, stack, before);
		stack = next;
	}
	return root;
}

/* Insert @n into the heap at *@root. */
static __always_inline void pheap_insert(struct irqkit__heap_node **root, struct irqkit__heap_node *n,
					 pheap_before_fn before)
{
	n->child = n->next = n->prev = NULL;
	*root = pheap_meld(*root, n, before);
}

/* Take @n, a node of the heap at *@root, out of it. */
static __always_inline void pheap_remove(struct irqkit__heap_node **root, struct irqkit__heap_node *n,
					 pheap_before_fn before)
{
	if (n == *root) {
		*root = pheap_merge_pairs(n->child, before);
	} else {
		if (n->prev->child == n)
			n->prev->child = n->next;
		else
			n->prev->next = n->next;
		if (n->next)
			n->next->prev = n->prev;
		*root = pheap_meld(*root, pheap_merge_pairs(n->child, before), before);
	}
	n->child = n->next = n->prev = NULL;
}

#endif /* IRQKIT_CORE_PHEAP_H */
