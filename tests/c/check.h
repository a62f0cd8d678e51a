/* A minimal test harness: CHECK records failures and the runner's exit
 * status reports them to meson test. */
#ifndef USMARRAY_TEST_CHECK_H
#define USMARRAY_TEST_CHECK_H

#include <stdio.h>

static int check_failures, check_passes;

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (cond) {                                                           \
            check_passes++;                                                   \
        } else {                                                              \
            check_failures++;                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,  \
                    #cond);                                                   \
        }                                                                     \
    } while (0)

#define CHECK_STATUS(expr, code) CHECK((expr) == (code))

static inline int
check_report(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passes, check_failures);
    return check_failures ? 1 : 0;
}

#endif
