/* layout.c's helpers for the rest of the core. */
#ifndef USMARRAY_CORE_LAYOUT_LAYOUT_H
#define USMARRAY_CORE_LAYOUT_LAYOUT_H

#include "core/core.h"

/* Sorts axes[0..n) in place by decreasing |strides[axis]|, keeping the
 * order of ties. */
void ua_layout_sort_axes(int n, int *axes, const ptrdiff_t *strides);
/* Dense strides for shape whose axes lie in memory in `order`, the
 * outermost first (saturating past addressable shapes, as
 * ua_layout_default_strides does). */
void ua_layout_dense_strides(int nd, const ptrdiff_t *shape, const int *order,
                             ptrdiff_t *strides);

#endif
