#include <string.h>

#include "core/core.h"

typedef struct {
    ua_typenum num;
    char kind;
    unsigned char itemsize;
    const char *typestr;
    const char *format;
    const char *name;
} dtype_entry;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NATIVE ">"
#define NATIVE_CHAR '>'
#else
#define NATIVE "<"
#define NATIVE_CHAR '<'
#endif

/* "|" for one-byte items, which have no byte order. */
#define TYPESTR(CODE, SIZE) ((SIZE) == 1 ? "|" #CODE : NATIVE #CODE)
#define ENTRY(E, NUM, CODE, NAME, KIND, SIZE, FORMAT, ...)                    \
    {E, KIND, SIZE, TYPESTR(CODE, SIZE), FORMAT, NAME},
static const dtype_entry dtypes[UA_NTYPES] = {UA_DTYPES(ENTRY)};

/* Positions in dtypes, counted by an enum. */
#define POSITION(E, ...) POS_##E,
enum { UA_DTYPES(POSITION) };

/* The largest type number plus one, as the size of a union of arrays. */
#define SPAN(E, NUM, ...) char E[NUM + 1];
#define TYPENUM_SPAN sizeof(union {UA_DTYPES(SPAN)})

/* Position in dtypes plus one by type number (0: unsupported).  Looked up
 * on every itemsize, so a table, not a scan. */
#define SLOT(E, NUM, ...) [NUM] = POS_##E + 1,
static const signed char index_of_num[TYPENUM_SPAN] = {UA_DTYPES(SLOT)};

static const dtype_entry *
entry_of(int typenum)
{
    if (typenum < 0 || typenum >= (int)TYPENUM_SPAN ||
        index_of_num[typenum] == 0) {
        return NULL;
    }
    return &dtypes[index_of_num[typenum] - 1];
}

int
ua_dtype_index(ua_typenum t)
{
    return (int)(entry_of((int)t) - dtypes);
}

bool
ua_typenum_is_valid(int typenum)
{
    return entry_of(typenum) != NULL;
}

ua_typenum
ua_dtype_at(int i)
{
    return dtypes[i].num;
}

size_t
ua_dtype_itemsize(ua_typenum t)
{
    const dtype_entry *e = entry_of((int)t);
    return e ? e->itemsize : 0;
}

char
ua_dtype_kind(ua_typenum t)
{
    const dtype_entry *e = entry_of((int)t);
    return e ? e->kind : '\0';
}

const char *
ua_dtype_name(ua_typenum t)
{
    const dtype_entry *e = entry_of((int)t);
    return e ? e->name : "an unknown type";
}

const char *
ua_dtype_typestr(ua_typenum t)
{
    const dtype_entry *e = entry_of((int)t);
    return e ? e->typestr : NULL;
}

const char *
ua_dtype_buffer_format(ua_typenum t)
{
    const dtype_entry *e = entry_of((int)t);
    return e ? e->format : NULL;
}

static const dtype_entry *
find_kind_size(char kind, unsigned size)
{
    for (int i = 0; i < UA_NTYPES; i++) {
        if (dtypes[i].kind == kind && dtypes[i].itemsize == size) {
            return &dtypes[i];
        }
    }
    return NULL;
}

ua_status
ua_dtype_from_typestr(const char *s, size_t len, ua_typenum *out)
{
    size_t pos = 0;
    char order = '=';
    if (len > 0 && strchr("<>|=", s[0]) != NULL) {
        order = s[0];
        pos = 1;
    }
    if (pos >= len) {
        return ua_error_set(UA_ERR_VALUE, "typestr '%.*s' has no type kind",
                            (int)len, s);
    }
    char kind = s[pos++];
    if (strchr("biufc", kind) == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "typestr '%.*s' has unsupported kind '%c' "
                            "(expected one of b, i, u, f, c)",
                            (int)len, s, kind);
    }
    if (pos >= len || len - pos > 2) {
        return ua_error_set(UA_ERR_VALUE,
                            "typestr '%.*s' must end with an item size of "
                            "1 or 2 digits",
                            (int)len, s);
    }
    unsigned size = 0;
    for (; pos < len; pos++) {
        if (s[pos] < '0' || s[pos] > '9') {
            return ua_error_set(UA_ERR_VALUE,
                                "typestr '%.*s' has a non-digit item size",
                                (int)len, s);
        }
        size = size * 10 + (unsigned)(s[pos] - '0');
    }
    const dtype_entry *e = find_kind_size(kind, size);
    if (e == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "typestr '%.*s' names no supported data type",
                            (int)len, s);
    }
    /* Byte order matters only for items wider than one byte; '|' ("not
     * applicable") is taken as native, as NumPy takes it. */
    if (e->itemsize > 1 && (order == '<' || order == '>') &&
        order != NATIVE_CHAR) {
        return ua_error_set(UA_ERR_VALUE,
                            "typestr '%.*s' is not in native byte order "
                            "(expected '%s')",
                            (int)len, s, e->typestr);
    }
    *out = e->num;
    return UA_OK;
}

ua_status
ua_dtype_from_buffer_format(const char *fmt, ua_typenum *out)
{
    const char *f = fmt;
    /* '@' and '=' are native on every platform we build for; '<' matches
     * only when it is the native order. */
    if (*f == '@' || *f == '=' || *f == NATIVE_CHAR) {
        f++;
    }
    /* 'l' and 'L' are 8 bytes on LP64 and so are 'q' and 'Q'. */
    const char *alias = f;
    if (strcmp(f, "l") == 0) {
        alias = sizeof(long) == 8 ? "q" : "i";
    } else if (strcmp(f, "L") == 0) {
        alias = sizeof(long) == 8 ? "Q" : "I";
    }
    for (int i = 0; i < UA_NTYPES; i++) {
        if (strcmp(dtypes[i].format, alias) == 0) {
            *out = dtypes[i].num;
            return UA_OK;
        }
    }
    return ua_error_set(
        UA_ERR_VALUE, "buffer format '%s' names no supported data type", fmt);
}
