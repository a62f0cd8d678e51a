/* The Python-level objects of usmarray, for C extensions that use them.
 *
 * The layout of USMArray objects is the one the source document
 * specifies; fields after `base` are private.  Include after Python.h.
 */
#ifndef USMARRAY_USMARRAY_H
#define USMARRAY_USMARRAY_H

#include <Python.h>

#ifdef __cplusplus
extern "C" {
#endif

#define USM_ARRAY_C_CONTIGUOUS 0x1
#define USM_ARRAY_F_CONTIGUOUS 0x2
#define USM_ARRAY_WRITABLE 0x4

/* Arrays of at most this many dimensions keep shape and strides inline. */
#define USM_ARRAY_INLINE_DIMS 6

typedef struct PyUSMArrayObject {
    PyObject_HEAD
    int nd;               /* number of indexes needed to reference an element */
    char *data;           /* USM pointer to the element of zero multi-index */
    Py_ssize_t *shape;    /* ranges of indexes */
    Py_ssize_t *strides;  /* elements to jump per unit increase of an index */
    int typenum;          /* NumPy's type number of the element type */
    int flags;            /* USM_ARRAY_* */
    PyObject *base;       /* the usmarray.Memory that owns the memory */
    /* private */
    PyObject *weakreflist;
    Py_ssize_t inline_dims[2 * USM_ARRAY_INLINE_DIMS];
} PyUSMArrayObject;

#ifdef __cplusplus
}
#endif

#endif /* USMARRAY_USMARRAY_H */
