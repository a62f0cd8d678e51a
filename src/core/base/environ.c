/* Variables of the environment that the library reads on every use, so
 * that a program may change them while it runs, at a fraction of getenv's
 * cost: getenv compares the name with every entry, a tenth of an empty()
 * on the host.  setenv and putenv replace an entry's pointer or append
 * one, growing the array, and unsetenv moves the entries after the one it
 * removes: an array of the same pointers, with the variable's text (or,
 * where it was absent, the last entry, where an append lands) unchanged,
 * holds the same value.  Two changes escape it, neither of which setenv,
 * unsetenv, putenv of a new string or Python's os.environ makes: a string
 * given to putenv and rewritten in place, afterwards, into an entry of the
 * variable, and clearenv followed by a setenv whose new array lands at the
 * old one's address (the comparison then reads past the new array's end,
 * within the heap, and finds it changed). */
#include <stdlib.h>
#include <string.h>

#include "core/base/environ.h"

extern char **environ;

static bool
same_entries(const ua_env_watch *w, char **env)
{
    /* The same array was never shorter than it was when seen: setenv
     * grows it, unsetenv leaves its length, so these reads stay in it. */
    return env != NULL && env == w->environ_seen &&
           memcmp(env, w->entries, (w->count + 1) * sizeof(*env)) == 0;
}

static bool
starts_with_name(const char *entry, const char *name, size_t len)
{
    return entry[0] == name[0] && strncmp(entry, name, len) == 0 &&
           entry[len] == '=';
}

static bool
same_variable(const ua_env_watch *w, char **env)
{
    if (w->index >= 0) {
        return strcmp(env[w->index] + w->name_len + 1, w->value) == 0;
    }
    return w->count == 0 ||
           !starts_with_name(env[w->count - 1], w->name, w->name_len);
}

/* Remembers the environment as it is and the variable's entry in it;
 * leaves the watch unset where it cannot hold them. */
static void
remember(ua_env_watch *w, char **env, const char *name)
{
    size_t len = strlen(name), n = 0;
    w->valid = false;
    w->index = -1;
    if (env == NULL || len >= sizeof(w->name)) {
        return;
    }
    for (; env[n] != NULL; n++) {
        if (n == UA_ENV_WATCH_ENTRIES) {
            return;
        }
        if (w->index < 0 && starts_with_name(env[n], name, len)) {
            if (strlen(env[n] + len + 1) >= sizeof(w->value)) {
                return;
            }
            w->index = (ptrdiff_t)n;
            strcpy(w->value, env[n] + len + 1);
        }
        w->entries[n] = env[n];
    }
    w->entries[n] = NULL;
    w->count = n;
    w->environ_seen = env;
    memcpy(w->name, name, len + 1);
    w->name_len = len;
    w->valid = true;
}

bool
ua_env_changed(ua_env_watch *w, const char *name, const char **value)
{
    char **env = environ;
    if (w->valid && same_entries(w, env) && same_variable(w, env)) {
        return false;
    }
    *value = getenv(name);
    remember(w, env, name);
    return true;
}

void
ua_env_forget(ua_env_watch *w)
{
    w->valid = false;
}
