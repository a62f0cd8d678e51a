/* The USM kinds by name, and which of them the CPU reaches: what the
 * pool, the allocations and the backends all ask, kept apart from the
 * allocations so that the pool does not call back into usm.c. */
#include <string.h>

#include "core/core.h"

static const char *const kind_names[] = {"unknown", "device", "shared",
                                         "host"};

const char *
ua_usm_kind_name(ua_usm_kind kind)
{
    return (kind >= UA_USM_UNKNOWN && kind <= UA_USM_HOST) ? kind_names[kind]
                                                           : "unknown";
}

ua_status
ua_usm_kind_parse(const char *name, ua_usm_kind *out)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        if (strcmp(name, kind_names[k]) == 0) {
            *out = (ua_usm_kind)k;
            return UA_OK;
        }
    }
    return ua_error_set(UA_ERR_VALUE,
                        "'%.100s' is not a USM kind (expected 'device', "
                        "'shared' or 'host')",
                        name);
}

bool
ua_usm_kind_host_accessible(ua_usm_kind kind)
{
    return kind == UA_USM_SHARED || kind == UA_USM_HOST;
}
