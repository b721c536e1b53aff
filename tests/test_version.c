/* gemmkit_version(): the loaded library reports the header's version, as
 * numbers and as "MAJOR.MINOR.PATCH", and takes NULL for numbers it need not give. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "gemmkit.h"

static void test_version_matches_header(void **state)
{
    (void)state;
    int major = -1, minor = -1, patch = -1;
    const char *text = gemmkit_version(&major, &minor, &patch);
    assert_int_equal(major, GEMMKIT_VERSION_MAJOR);
    assert_int_equal(minor, GEMMKIT_VERSION_MINOR);
    assert_int_equal(patch, GEMMKIT_VERSION_PATCH);
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", major, minor, patch);
    assert_string_equal(text, expected);
    assert_int_equal(GEMMKIT_VERSION, major * 10000 + minor * 100 + patch);
}

static void test_version_takes_null(void **state)
{
    (void)state;
    int minor = -1;
    assert_string_equal(gemmkit_version(NULL, NULL, NULL), gemmkit_version(NULL, &minor, NULL));
    assert_int_equal(minor, GEMMKIT_VERSION_MINOR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_matches_header),
        cmocka_unit_test(test_version_takes_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
