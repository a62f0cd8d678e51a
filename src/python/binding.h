/* Everything the binding's files share, one header per concern: the
 * object layouts (objects.h), the module state (state.h) and the helpers
 * each concern offers the others.  The binding calls the core only, never
 * a driver. */
#ifndef USMARRAY_BINDING_H
#define USMARRAY_BINDING_H

#include "pyheaders.h"
#include "docstrings.h"
#include "state.h"
#include "objects.h"
#include "errors.h"
#include "gil.h"
#include "devices.h"
#include "memory.h"
#include "dtypes.h"
#include "convert.h"
#include "iface.h"
#include "cai.h"
#include "suai.h"
#include "arrays.h"
#include "dlpack_interop.h"

#endif
