/* The docstrings of the reductions, scans, searches, sorts, sets and
 * products (statistical.c, utility.c, searching.c, sorting.c, sets.c,
 * linalg.c): the first line is the signature Python shows. */
#ifndef UA_PY_DOCSTRINGS_REDUCE_H
#define UA_PY_DOCSTRINGS_REDUCE_H

#define UA_DOC_SUM                                                            \
    "sum(x, /, *, axis=None, dtype=None, keepdims=False)\n--\n\n"             \
    "The sum of x's elements over axis (an int, a tuple of ints, or None "    \
    "for\n"                                                                   \
    "all), in dtype: by default x's, with bool and signed integers widened "  \
    "to\n"                                                                    \
    "int64 and unsigned ones to uint64.  Floating sums are pairwise (see "    \
    "the\n"                                                                   \
    "docs' accuracy section) and give the same bits on every run; integers\n" \
    "wrap.  An empty sum is 0."

#define UA_DOC_PROD                                                           \
    "prod(x, /, *, axis=None, dtype=None, keepdims=False)\n--\n\n"            \
    "The product of x's elements over axis, in dtype (chosen as sum's is).\n" \
    "An empty product is 1."

#define UA_DOC_MIN                                                            \
    "min(x, /, *, axis=None, keepdims=False)\n--\n\n"                         \
    "The smallest of x's elements over axis; a NaN propagates.  x must be\n"  \
    "real; a reduction over no elements raises ValueError."

#define UA_DOC_MAX                                                            \
    "max(x, /, *, axis=None, keepdims=False)\n--\n\n"                         \
    "The largest of x's elements over axis; a NaN propagates.  x must be\n"   \
    "real; a reduction over no elements raises ValueError."

#define UA_DOC_MEAN                                                           \
    "mean(x, /, *, axis=None, keepdims=False)\n--\n\n"                        \
    "The arithmetic mean over axis: a pairwise sum divided by the count, "    \
    "in\n"                                                                    \
    "x's floating dtype (the default floating dtype for integers).  The "     \
    "mean\n"                                                                  \
    "of no elements is NaN."

#define UA_DOC_VAR                                                            \
    "var(x, /, *, axis=None, correction=0.0, keepdims=False)\n--\n\n"         \
    "The variance over axis: the pairwise sum of squared deviations from "    \
    "the\n"                                                                   \
    "mean, divided by N - correction (NaN where that is not positive).  x "   \
    "must\n"                                                                  \
    "be real."

#define UA_DOC_STD                                                            \
    "std(x, /, *, axis=None, correction=0.0, keepdims=False)\n--\n\n"         \
    "The standard deviation over axis: the square root of var."

#define UA_DOC_CUMULATIVE_SUM                                                 \
    "cumulative_sum(x, /, *, axis=None, dtype=None, "                         \
    "include_initial=False)\n--\n\n"                                          \
    "The running sums along axis (which may be omitted for a "                \
    "one-dimensional\n"                                                       \
    "x), in sequence as NumPy's cumsum adds, in dtype (chosen as sum's "      \
    "is);\n"                                                                  \
    "with include_initial, a leading 0."

#define UA_DOC_CUMULATIVE_PROD                                                \
    "cumulative_prod(x, /, *, axis=None, dtype=None, "                        \
    "include_initial=False)\n--\n\n"                                          \
    "The running products along axis, as cumulative_sum; with\n"              \
    "include_initial, a leading 1."

#define UA_DOC_ALL                                                            \
    "all(x, /, *, axis=None, keepdims=False)\n--\n\n"                         \
    "Whether every element over axis is true (non-zero; NaN is true)."

#define UA_DOC_ANY                                                            \
    "any(x, /, *, axis=None, keepdims=False)\n--\n\n"                         \
    "Whether any element over axis is true (non-zero; NaN is true)."

#define UA_DOC_DIFF                                                           \
    "diff(x, /, *, axis=-1, n=1, prepend=None, append=None)\n--\n\n"          \
    "The n-th differences along axis: x[i + 1] - x[i], applied n times\n"     \
    "(not_equal for bool), after prepend and append are joined to x along\n"  \
    "axis."

#define UA_DOC_COUNT_NONZERO                                                  \
    "count_nonzero(x, /, *, axis=None, keepdims=False)\n--\n\n"               \
    "The number of non-zero elements over axis, as int64."

#define UA_DOC_ARGMAX                                                         \
    "argmax(x, /, *, axis=None, keepdims=False)\n--\n\n"                      \
    "The index of the first maximum along axis (of the flattened array "      \
    "where\n"                                                                 \
    "axis is None); the first NaN where there is one, as NumPy's.  x must "   \
    "be\n"                                                                    \
    "real and the axis not empty."

#define UA_DOC_ARGMIN                                                         \
    "argmin(x, /, *, axis=None, keepdims=False)\n--\n\n"                      \
    "The index of the first minimum along axis; the first NaN where there "   \
    "is\n"                                                                    \
    "one, as NumPy's."

#define UA_DOC_NONZERO                                                        \
    "nonzero(x, /)\n--\n\n"                                                   \
    "The indices of x's non-zero elements, one int64 array per axis, in C\n"  \
    "order.  It waits for the queue: the count sizes the result."

#define UA_DOC_SEARCHSORTED                                                   \
    "searchsorted(x1, x2, /, *, side='left', sorter=None)\n--\n\n"            \
    "Where each element of x2 would go in the one-dimensional x1, sorted "    \
    "in\n"                                                                    \
    "ascending order (or in the order the indices sorter give): before "      \
    "equal\n"                                                                 \
    "elements ('left') or after them ('right').  NaNs sort last."

#define UA_DOC_SORT                                                           \
    "sort(x, /, *, axis=-1, descending=False, stable=True)\n--\n\n"           \
    "x sorted along axis, stably: NaNs last (first when descending), -0.0\n"  \
    "equal to 0.0; equal elements keep their order in either direction.\n"    \
    "Complex numbers sort as in NumPy: by real part, then imaginary part,\n"  \
    "those with a NaN imaginary part, then a NaN real part, then both last."

#define UA_DOC_ARGSORT                                                        \
    "argsort(x, /, *, axis=-1, descending=False, stable=True)\n--\n\n"        \
    "The indices that sort x along axis, stably, in sort's order."

#define UA_DOC_UNIQUE_ALL                                                     \
    "unique_all(x, /)\n--\n\n"                                                \
    "The distinct values of x (flattened, sorted, every NaN distinct), the\n" \
    "index of each one's first occurrence, the inverse indices (of x's "      \
    "shape)\n"                                                                \
    "and the counts, as a named tuple."

#define UA_DOC_UNIQUE_COUNTS                                                  \
    "unique_counts(x, /)\n--\n\n"                                             \
    "The distinct values of x and how often each occurs, as a named tuple."

#define UA_DOC_UNIQUE_INVERSE                                                 \
    "unique_inverse(x, /)\n--\n\n"                                            \
    "The distinct values of x and, for each element of x, the index of its\n" \
    "value among them (of x's shape), as a named tuple."

#define UA_DOC_ISIN                                                           \
    "isin(x1, x2, /, *, invert=False)\n--\n\n"                                \
    "Whether each element of x1 equals an element of x2 (with invert, that\n" \
    "none does), in x1's shape: values compare in their promoted dtype as\n"  \
    "==, NaN equal to nothing.  Either side may be a Python scalar (x1 a\n"   \
    "scalar: a 0-d result)."

#define UA_DOC_UNIQUE_VALUES                                                  \
    "unique_values(x, /)\n--\n\n"                                             \
    "The distinct values of x, sorted, every NaN distinct."

#define UA_DOC_MATMUL                                                         \
    "matmul(x1, x2, /)\n--\n\n"                                               \
    "The matrix product, as NumPy's matmul: batches broadcast, a\n"           \
    "one-dimensional operand is a row (x1) or a column (x2) whose axis the\n" \
    "result drops.  Floating types go to the host's BLAS where one is found."

#define UA_DOC_TENSORDOT                                                      \
    "tensordot(x1, x2, /, *, axes=2)\n--\n\n"                                 \
    "Sums of products over axes: the last axes of x1 with the first of x2\n"  \
    "(an int), or the axes that two sequences pair."

#define UA_DOC_VECDOT                                                         \
    "vecdot(x1, x2, /, *, axis=-1)\n--\n\n"                                   \
    "The dot products of vectors along axis, conjugating x1, the other "      \
    "axes\n"                                                                  \
    "broadcast."

#define UA_DOC_MATRIX_TRANSPOSE                                               \
    "matrix_transpose(x, /)\n--\n\n"                                          \
    "A view of x with its last two axes swapped."

#endif
