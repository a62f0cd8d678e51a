#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

/* One message per thread, so that concurrent failures never mix. */
static _Thread_local char message[1024];
static _Thread_local ua_status last_code;

/* Formats through a scratch buffer, so that the last message may be an
 * argument of the new one ("context: %s", ua_error_message()). */
ua_status
ua_error_set(ua_status code, const char *fmt, ...)
{
    char scratch[sizeof(message)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(scratch, sizeof(scratch), fmt, ap);
    va_end(ap);
    memcpy(message, scratch, sizeof(message));
    last_code = code;
    return code;
}

const char *
ua_error_message(void)
{
    return message[0] ? message : "unknown error in usmarray";
}

ua_status
ua_error_code(void)
{
    return last_code;
}

void
ua_error_clear(void)
{
    message[0] = '\0';
    last_code = UA_OK;
}

const char *
ua_format_bytes(size_t nbytes, char buf[32])
{
    static const char *const units[] = {"KiB", "MiB", "GiB",
                                        "TiB", "PiB", "EiB"};
    if (nbytes < 1024) {
        snprintf(buf, 32, "%zu byte%s", nbytes, nbytes == 1 ? "" : "s");
        return buf;
    }
    double v = (double)nbytes / 1024.0;
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, 32,
             v < 10    ? "%.2f %s"
             : v < 100 ? "%.1f %s"
                       : "%.0f %s",
             v, units[u]);
    return buf;
}
