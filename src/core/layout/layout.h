/* layout.c's helpers for the rest of the core. */
#ifndef USMARRAY_CORE_LAYOUT_LAYOUT_H
#define USMARRAY_CORE_LAYOUT_LAYOUT_H

#include "core/core.h"

/* Sorts axes[0..n) in place by decreasing |strides[axis]|, keeping the
 * order of ties. */
void ua_layout_sort_axes(int n, int *axes, const ptrdiff_t *strides);

#endif
