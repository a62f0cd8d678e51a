#include <stdarg.h>
#include <stdio.h>

#include "usmarray/core.h"

/* One message per thread, so that concurrent failures never mix. */
static _Thread_local char message[1024];
static _Thread_local ua_status last_code;

ua_status
ua_error_set(ua_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
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
