/* Typed build defines as text: OpenCL's build options, cache keys, messages. */
#include <stdio.h>

#include "backend.h"

char *gk_defines_text(const gk_define *defines, unsigned count, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (unsigned i = 0; i < count && used < size; i++) {
        int n = snprintf(text + used, size - used, "%s-D%s=%lld", i ? " " : "", defines[i].name,
                         (long long)defines[i].value);
        if (n < 0) break;
        used += (size_t)n;
    }
    return text;
}
