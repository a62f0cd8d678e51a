/* The catalogue's entries by id (names, arities, kinds, rules) and by
 * name, and a dtype's kind as the catalogue's bit. */
#include <string.h>

#include "core/compute/compute.h"

typedef struct {
    const char *name;
    int arity;
    unsigned kinds;
    ua_ew_rule rule;
} entry;

#define UA_EW_ENTRY_(NAME, ARITY, KINDS, RULE, EXPR)                          \
    {#NAME, ARITY, KINDS, RULE},
static const entry catalogue[UA_EW_COUNT] = {UA_ELEMENTWISE(UA_EW_ENTRY_)};

const char *
ua_ew_name(ua_ew_id f)
{
    return catalogue[f].name;
}

int
ua_ew_arity(ua_ew_id f)
{
    return catalogue[f].arity;
}

ua_ew_rule
ua_ew_rule_of(ua_ew_id f)
{
    return catalogue[f].rule;
}

unsigned
ua_ew_kinds(ua_ew_id f)
{
    return catalogue[f].kinds;
}

bool
ua_ew_find(const char *name, ua_ew_id *f)
{
    for (int i = 0; i < UA_EW_COUNT; i++) {
        if (strcmp(catalogue[i].name, name) == 0) {
            *f = (ua_ew_id)i;
            return true;
        }
    }
    return false;
}

unsigned
ua_ew_kind_bit(ua_typenum t)
{
    switch (ua_dtype_kind(t)) {
    case 'b':
        return UA_EW_K_BOOL;
    case 'i':
        return UA_EW_K_INT;
    case 'u':
        return UA_EW_K_UINT;
    case 'f':
        return UA_EW_K_FLOAT;
    default:
        return UA_EW_K_COMPLEX;
    }
}
