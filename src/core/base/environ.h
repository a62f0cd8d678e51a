/* environ.c: variables of the environment watched for changes. */
#ifndef USMARRAY_CORE_BASE_ENVIRON_H
#define USMARRAY_CORE_BASE_ENVIRON_H

#include "core/core.h"

/* A variable of the environment watched for changes (environ.c): the
 * environment's entries as last seen, and the variable's text. */
#define UA_ENV_WATCH_ENTRIES 128
typedef struct {
    bool valid;
    char **environ_seen;
    size_t count;
    char *entries[UA_ENV_WATCH_ENTRIES + 1];
    ptrdiff_t index; /* the variable's entry, or -1 where it is absent */
    char name[32];
    size_t name_len;
    char value[96];
} ua_env_watch;

/* Whether variable `name` may have changed since *w last saw it: false
 * where it cannot have; else true, with *value getenv's answer now. */
bool ua_env_changed(ua_env_watch *w, const char *name, const char **value);
/* Makes the next ua_env_changed on *w read the variable again. */
void ua_env_forget(ua_env_watch *w);

#endif
