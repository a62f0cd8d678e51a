/* manipulation_copies.c: the manipulation functions whose result is new
 * memory: concat, stack, roll, tile and repeat. */
#ifndef UA_PY_MANIPULATION_COPIES_H
#define UA_PY_MANIPULATION_COPIES_H

#include "python/base/state.h"

/* Their entries, which manipulation.c adds to the module. */
extern PyMethodDef ua_py_manipulation_copies[];

#endif
