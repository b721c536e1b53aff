/* Every combination of a registry kernel's parameter choices (each parameter's "choices" list in the
 * registry row), or of some parameters' choices over given values of the others, for tests that must hold
 * wherever the tuner may go. */
#ifndef GK_TEST_CHOICES_H
#define GK_TEST_CHOICES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_config.h"
#include "registry.h"

#define TEST_MAX_CHOICES 16

/* Whether `name` is one of the comma-separated names in list (NULL: every name is). */
static inline int test_choice_listed(const char *list, const char *name)
{
    if (!list) return 1;
    const size_t length = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == length && strncmp(p, name, n) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

/* Calls each(params, config, data) for every combination of the choices of the parameters named in `walk`
 * (comma-separated; NULL: every parameter) that the kernel's constraints accept, the first parameter varying
 * slowest; params is `base` ("NAME=value,...": values of parameters not walked; NULL: their defaults) followed by
 * the combination's values. Parameters not walked, or without choices, keep base's values or their defaults.
 * Returns how many combinations were accepted. */
static inline int test_each_choice_of(const gk_kernel_def *def, const char *base, const char *walk,
                                      void (*each)(const char *params, const gk_config *config, void *data),
                                      void *data)
{
    int values[GK_MAX_PARAMS][TEST_MAX_CHOICES], counts[GK_MAX_PARAMS] = {0}, index[GK_MAX_PARAMS] = {0};
    int params = 0;
    for (; params < GK_MAX_PARAMS && def->params[params].name; params++) {
        if (!test_choice_listed(walk, def->params[params].name)) continue;
        for (const char *c = def->params[params].choices; c && *c && counts[params] < TEST_MAX_CHOICES;) {
            char *end = NULL;
            values[params][counts[params]++] = (int)strtol(c, &end, 10);
            c = *end == ',' ? end + 1 : end;
        }
    }
    int accepted = 0;
    for (;;) {
        char text[256] = "";
        size_t used = base ? (size_t)snprintf(text, sizeof text, "%s", base) : 0;
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

/* Every parameter's choices, from the defaults. */
static inline int test_each_choice(const gk_kernel_def *def,
                                   void (*each)(const char *params, const gk_config *config, void *data),
                                   void *data)
{
    return test_each_choice_of(def, NULL, NULL, each, data);
}

#endif
