/* Fuzzes the string parsers: typestrs (read with an explicit length, from
 * a buffer of exactly that length), buffer formats, device filter strings
 * and USM kind names.  What parses must round-trip. */
#include <string.h>

#include "fuzz_region.h"

static void
check_typestr(const char *s, size_t len)
{
    ua_typenum t, again;
    if (ua_dtype_from_typestr(s, len, &t) != UA_OK) {
        return;
    }
    const char *canonical = ua_dtype_typestr(t);
    fuzz_require(ua_dtype_from_typestr(canonical, strlen(canonical), &again) ==
                         UA_OK &&
                     again == t,
                 "a parsed typestr's canonical form parses to it");
}

static void
check_filter(const char *s)
{
    ua_device *d, *again;
    if (ua_device_select(s, &d) != UA_OK) {
        return;
    }
    fuzz_require(ua_device_select(ua_device_filter_string(d), &again) ==
                         UA_OK &&
                     again == d,
                 "a device's filter string selects it");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    uint8_t which = data[0] % 4;
    size--;
    char *s = malloc(size + 1);
    memcpy(s, data + 1, size);
    s[size] = '\0';
    ua_typenum t;
    ua_usm_kind kind;
    switch (which) {
    case 0: {
        /* Exactly size bytes, no terminator: overreads are reported. */
        char *exact = malloc(size ? size : 1);
        memcpy(exact, data + 1, size);
        check_typestr(exact, size);
        free(exact);
        break;
    }
    case 1:
        if (ua_dtype_from_buffer_format(s, &t) == UA_OK) {
            fuzz_require(ua_dtype_itemsize(t) > 0, "formats have a size");
        }
        break;
    case 2:
        check_filter(s);
        break;
    default:
        if (ua_usm_kind_parse(s, &kind) == UA_OK) {
            ua_usm_kind again;
            fuzz_require(ua_usm_kind_parse(ua_usm_kind_name(kind), &again) ==
                                 UA_OK &&
                             again == kind,
                         "a parsed USM kind's name parses to it");
        }
    }
    free(s);
    return 0;
}
