/* Type promotion as one table, filled once from the rules below. */
#include <pthread.h>

#include "core/compute/promote.h"

/* The smallest IEEE type that holds every value of t exactly, in bits of
 * its real part: 16 for 8-bit integers, 32 for 16-bit ones, 64 for the
 * wider ones (as NumPy 2 promotes integers with floating types). */
static int
real_bits(ua_typenum t)
{
    size_t size = ua_dtype_itemsize(t);
    switch (ua_dtype_kind(t)) {
    case 'f':
        return (int)size * 8;
    case 'c':
        return (int)size * 4;
    default:
        return size == 1 ? 16 : size == 2 ? 32 : 64;
    }
}

/* The signed integer of 2 or 4 bytes. */
static ua_typenum
signed_of(size_t size)
{
    return size == 2 ? UA_INT16 : size == 4 ? UA_INT32 : UA_INT64;
}

static ua_typenum
inexact_of(int bits, bool complex)
{
    if (complex) {
        return bits <= 32 ? UA_COMPLEX64 : UA_COMPLEX128;
    }
    return bits <= 16 ? UA_FLOAT16 : bits <= 32 ? UA_FLOAT32 : UA_FLOAT64;
}

/* Signed with unsigned: the signed type when it is wider, else the
 * signed type twice the unsigned one's width; with uint64, float64. */
static ua_typenum
mixed_signs(ua_typenum s, ua_typenum u)
{
    size_t ssize = ua_dtype_itemsize(s), usize = ua_dtype_itemsize(u);
    if (usize < ssize) {
        return s;
    }
    return usize < 8 ? signed_of(2 * usize) : UA_FLOAT64;
}

static ua_typenum
promote_by_rule(ua_typenum a, ua_typenum b)
{
    char ka = ua_dtype_kind(a), kb = ua_dtype_kind(b);
    if (a == b || kb == 'b') {
        return a;
    }
    if (ka == 'b') {
        return b;
    }
    bool a_int = ka == 'i' || ka == 'u', b_int = kb == 'i' || kb == 'u';
    if (a_int && b_int) {
        if (ka == kb) {
            return ua_dtype_itemsize(a) >= ua_dtype_itemsize(b) ? a : b;
        }
        return ka == 'i' ? mixed_signs(a, b) : mixed_signs(b, a);
    }
    int bits = real_bits(a) > real_bits(b) ? real_bits(a) : real_bits(b);
    return inexact_of(bits, ka == 'c' || kb == 'c');
}

static ua_typenum table[UA_NTYPES][UA_NTYPES];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void
build_table(void)
{
    for (int i = 0; i < UA_NTYPES; i++) {
        for (int j = 0; j < UA_NTYPES; j++) {
            table[i][j] = promote_by_rule(ua_dtype_at(i), ua_dtype_at(j));
        }
    }
}

ua_typenum
ua_promote(ua_typenum a, ua_typenum b)
{
    pthread_once(&table_once, build_table);
    return table[ua_dtype_index(a)][ua_dtype_index(b)];
}

ua_typenum
ua_promote_set(uint32_t set)
{
    for (int t = 0; set != 0 && t < UA_NTYPES; t++) {
        bool all = true;
        for (int i = 0; all && i < UA_NTYPES; i++) {
            all = !(set >> i & 1u) ||
                  ua_can_cast(ua_dtype_at(i), ua_dtype_at(t));
        }
        if (all) {
            return ua_dtype_at(t);
        }
    }
    return (ua_typenum)0;
}

ua_typenum
ua_promote_scalar(ua_typenum t, ua_scalar_kind k,
                  const ua_default_dtypes *defaults)
{
    char kind = ua_dtype_kind(t);
    bool integral = kind == 'b' || kind == 'i' || kind == 'u';
    switch (k) {
    case UA_SCALAR_BOOL:
        return t;
    case UA_SCALAR_INT:
        return kind == 'b' ? defaults->integral : t;
    case UA_SCALAR_FLOAT:
        return integral ? defaults->real_floating : t;
    case UA_SCALAR_COMPLEX:
        if (integral) {
            return defaults->complex_floating;
        }
        return kind == 'c' ? t : inexact_of(real_bits(t), true);
    }
    return t;
}

bool
ua_can_cast(ua_typenum from, ua_typenum to)
{
    return ua_promote(from, to) == to;
}

static int
kind_rank(ua_typenum t)
{
    switch (ua_dtype_kind(t)) {
    case 'b':
        return 0;
    case 'u':
        return 1;
    case 'i':
        return 2;
    case 'f':
        return 3;
    default:
        return 4;
    }
}

bool
ua_can_cast_same_kind(ua_typenum from, ua_typenum to)
{
    return ua_can_cast(from, to) || kind_rank(from) <= kind_rank(to);
}

ua_default_dtypes
ua_default_dtypes_for(bool double_precision)
{
    return (ua_default_dtypes){
        .integral = UA_INT64,
        .real_floating = double_precision ? UA_FLOAT64 : UA_FLOAT32,
        .complex_floating = double_precision ? UA_COMPLEX128 : UA_COMPLEX64,
        .indexing = UA_INT64,
    };
}
