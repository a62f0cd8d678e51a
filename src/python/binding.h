/* Everything the binding's files share, one header per concern: the
 * object layouts (objects.h), the module state (state.h) and the helpers
 * each concern offers the others.  The binding calls the core only, never
 * a driver. */
#ifndef USMARRAY_BINDING_H
#define USMARRAY_BINDING_H

#include "python/base/pyheaders.h"
#include "python/base/docstrings.h"
#include "python/base/state.h"
#include "python/base/objects.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/types/devices.h"
#include "python/types/memory.h"
#include "python/base/dtypes.h"
#include "python/base/convert.h"
#include "python/protocols/iface.h"
#include "python/protocols/cai.h"
#include "python/protocols/suai.h"
#include "python/types/arrays.h"
#include "python/protocols/dlpack_interop.h"

#endif
