/* Every combination of a registry kernel's parameter choices (each parameter's "choices" list in the
 * registry row), for tests that must hold wherever the tuner may go. */
#ifndef GK_TEST_CHOICES_H
#define GK_TEST_CHOICES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_config.h"
#include "registry.h"

#define TEST_MAX_CHOICES 16

/* Calls each(params, config, data) for every combination that the kernel's constraints accept (the first
 * parameter varies slowest); returns how many that was. Parameters without choices keep their defaults. */
static inline int test_each_choice(const gk_kernel_def *def,
                                   void (*each)(const char *params, const gk_config *config, void *data),
                                   void *data)
{
    int values[GK_MAX_PARAMS][TEST_MAX_CHOICES], counts[GK_MAX_PARAMS] = {0}, index[GK_MAX_PARAMS] = {0};
    int params = 0;
    for (; params < GK_MAX_PARAMS && def->params[params].name; params++)
        for (const char *c = def->params[params].choices; c && *c && counts[params] < TEST_MAX_CHOICES;) {
            char *end = NULL;
            values[params][counts[params]++] = (int)strtol(c, &end, 10);
            c = *end == ',' ? end + 1 : end;
        }
    int accepted = 0;
    for (;;) {
        char text[256] = "";
        size_t used = 0;
        for (int p = 0; p < params; p++)
            if (counts[p])
                used += (size_t)snprintf(text + used, sizeof text - used, "%s%s=%d", used ? "," : "",
                                         def->params[p].name, values[p][index[p]]);
        gk_config config;
        if (gk_config_resolve(def, text, &config) == GEMMKIT_SUCCESS) {
            each(text, &config, data);
            accepted++;
        }
        int p = params - 1;
        while (p >= 0 && (counts[p] == 0 || ++index[p] == counts[p])) index[p--] = 0;
        if (p < 0) return accepted;
    }
}

#endif
