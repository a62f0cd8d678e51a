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
