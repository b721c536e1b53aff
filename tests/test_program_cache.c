/* The context's program cache (context.c), keyed by a hash of the source
 * file and the defines: the same source and defines give the one program
 * built first, whatever the strings' addresses; another value, another name
 * or another source gives another program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "context.h"

static int entries(const gemmkit_context *ctx)
{
    int n = 0;
    for (const gk_program_entry *e = ctx->programs; e; e = e->next) n++;
    return n;
}

static void test_cache(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    const int before = entries(ctx);
    char name[] = "TILE"; /* a name at another address, with the same text */
    const gk_define d16[] = {{"TILE", 16}, {"WPT", 4}}, d16_copy[] = {{name, 16}, {"WPT", 4}};
    const gk_define d8[] = {{"TILE", 8}, {"WPT", 4}}, other_name[] = {{"TILE", 16}, {"WPT_", 4}};
    gk_program *p16 = NULL, *again = NULL, *p8 = NULL, *renamed = NULL, *fewer = NULL, *other_source = NULL;
    assert_int_equal(gk_context_program(ctx, "library/pack.cl", d16, 2, &p16), GEMMKIT_SUCCESS);
    assert_int_equal(gk_context_program(ctx, "library/pack.cl", d16_copy, 2, &again), GEMMKIT_SUCCESS);
    assert_ptr_equal(p16, again);
    strcpy(name, "XXXX"); /* the cache kept its own copy of the names */
    assert_int_equal(gk_context_program(ctx, "library/pack.cl", d16, 2, &again), GEMMKIT_SUCCESS);
    assert_ptr_equal(p16, again);
    assert_int_equal(gk_context_program(ctx, "library/pack.cl", d8, 2, &p8), GEMMKIT_SUCCESS);
    assert_int_equal(gk_context_program(ctx, "library/pack.cl", other_name, 2, &renamed), GEMMKIT_SUCCESS);
    assert_int_equal(gk_context_program(ctx, "library/pack.cl", d16, 1, &fewer), GEMMKIT_SUCCESS);
    assert_int_equal(gk_context_program(ctx, "library/split.cl", d16, 2, &other_source), GEMMKIT_SUCCESS);
    const gk_program *all[] = {p16, p8, renamed, fewer, other_source};
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++) assert_ptr_not_equal(all[i], all[j]);
    assert_int_equal(entries(ctx), before + 5);
    gk_define too_many[GK_MAX_DEFINES + 1];
    for (int i = 0; i <= GK_MAX_DEFINES; i++) too_many[i] = (gk_define){"X", i};
    assert_int_equal(gk_context_program(ctx, "library/pack.cl", too_many, GK_MAX_DEFINES + 1, &again),
                     GEMMKIT_ERROR_INVALID_ARGUMENT);
    gemmkit_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_cache)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
