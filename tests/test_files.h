/* Helpers of the tests of gemmkit's output files (tools/common/output_file.c). */
#ifndef GK_TEST_FILES_H
#define GK_TEST_FILES_H

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

/* The writer's temporary files start with '.': none may be left in dir. */
static inline void expect_no_temp_files(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e = readdir(d); e; e = readdir(d))
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            fail_msg("a temporary file was left behind: %s/%s", dir, e->d_name);
    closedir(d);
}

#endif
