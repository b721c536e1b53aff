/* The tests that run the library on a policy of their own: GEMMKIT_POLICY is
 * read once per process, so it is set before anything parses the policy. */
#ifndef GK_TEST_POLICY_FILE_H
#define GK_TEST_POLICY_FILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes rows to a fresh temporary file (path: a "...XXXXXX" template, filled in) and names it in
 * GEMMKIT_POLICY; 0, or 1 with the reason on stderr. The caller unlinks path when done. */
static int use_policy_rows(const char *rows, char *path)
{
    const int fd = mkstemp(path);
    const ssize_t length = (ssize_t)strlen(rows);
    const int written = fd >= 0 && write(fd, rows, (size_t)length) == length;
    if (fd >= 0) close(fd);
    if (!written) {
        perror(path);
        return 1;
    }
    setenv("GEMMKIT_POLICY", path, 1);
    return 0;
}

#endif
