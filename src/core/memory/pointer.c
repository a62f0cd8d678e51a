/* Which allocation, of the library's or another's, an address lies in:
 * the registry first, then each backend's driver. */
#include <stdint.h>
#include <string.h>

#include "core/devices/devices.h"
#include "core/memory/registry.h"

/* Memory of other libraries, as far as some backend's driver knows it.  A
 * driver that cannot tell an allocation's range answers nbytes 0; the
 * region [addr, addr + len) then counts as one allocation when its last
 * byte is memory of the same kind and device as its first. */
static bool
query_backend(ua_backend *be, uintptr_t addr, size_t len, ua_pointer_info *out)
{
    const ua_foreign_memory_ops *foreign = ua_backend_foreign_memory(be);
    ua_backend_pointer_attrs attrs, last;
    if (!be->available || foreign == NULL ||
        foreign->pointer_attributes((const void *)addr, &attrs) != UA_OK) {
        return false;
    }
    if (attrs.nbytes == 0) {
        if (len > 1 && (foreign->pointer_attributes(
                            (const void *)(addr + len - 1), &last) != UA_OK ||
                        last.kind != attrs.kind ||
                        last.device_index != attrs.device_index)) {
            return false;
        }
        attrs.start = addr;
        attrs.nbytes = len;
    }
    ua_device *d = ua_backend_device(be, attrs.device_index);
    ua_context *c;
    if (d == NULL || ua_device_default_context(d, &c) != UA_OK ||
        addr < attrs.start || addr - attrs.start > attrs.nbytes ||
        len > attrs.start + attrs.nbytes - addr) {
        return false;
    }
    *out = (ua_pointer_info){.start = attrs.start,
                             .nbytes = attrs.nbytes,
                             .kind = attrs.kind,
                             .device = d,
                             .context = c,
                             .borrowed = true};
    return true;
}

static bool
query_backends(uintptr_t addr, size_t len, ua_pointer_info *out)
{
    for (size_t b = 0; b < ua_backend_count(); b++) {
        if (query_backend(ua_backend_at(b), addr, len, out)) {
            return true;
        }
        ua_error_clear();
    }
    return false;
}

bool
ua_pointer_query_range(uintptr_t addr, size_t len, ua_pointer_info *out)
{
    ua_devices_initialize();
    if (ua_registry_find_range(addr, len, out)) {
        return true;
    }
    /* An allocation the library knows answers for its own bytes alone: the
     * driver's view of the block it came from (a pool's class-sized block,
     * an over-aligned one) must not stretch it. */
    ua_pointer_info known;
    return !ua_registry_find_range(addr, 1, &known) &&
           query_backends(addr, len, out);
}

bool
ua_pointer_query(uintptr_t addr, ua_pointer_info *out)
{
    return ua_pointer_query_range(addr, 1, out);
}
