/* Status reporting inside the library: every failure goes through gk_fail so
 * the caller gets a code plus a readable, thread-local message. */
#ifndef GK_STATUS_H
#define GK_STATUS_H

#include "gemmkit.h"

#if defined(__GNUC__)
#define GK_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GK_PRINTF(a, b)
#endif

/* Records the message for gemmkit_last_error_message() and returns status. */
gemmkit_status gk_fail(gemmkit_status status, const char *format, ...) GK_PRINTF(2, 3);
/* Keeps a copy of a compiler log for gemmkit_last_build_log(). */
void gk_set_build_log(const char *log);
void gk_clear_error(void);

#define GK_TRY(expr)                                                                               \
    do {                                                                                           \
        gemmkit_status gk_try_status_ = (expr);                                                    \
        if (gk_try_status_ != GEMMKIT_SUCCESS) return gk_try_status_;                              \
    } while (0)

#endif
