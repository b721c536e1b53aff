/* What a test's code writes to stderr (file descriptor 2, so the library's
 * fprintf and a preloaded library's alike), between begin and end. Plain C
 * results, no cmocka asserts: forked children use it too. */
#ifndef GK_STDERR_CAPTURE_H
#define GK_STDERR_CAPTURE_H

#include <stdio.h>
#include <unistd.h>

typedef struct stderr_capture {
    FILE *file;
    int saved; /* the real stderr */
} stderr_capture;

/* 0 when stderr now goes to the capture; -1 (stderr unchanged) when it cannot. */
static inline int stderr_capture_begin(stderr_capture *c)
{
    fflush(stderr);
    c->saved = -1;
    c->file = tmpfile();
    if (!c->file) return -1;
    c->saved = dup(2);
    if (c->saved < 0 || dup2(fileno(c->file), 2) < 0) {
        if (c->saved >= 0) close(c->saved);
        fclose(c->file);
        return -1;
    }
    return 0;
}

/* Puts stderr back; the captured text (at most size - 1 bytes) in text, which it returns. */
static inline const char *stderr_capture_end(stderr_capture *c, char *text, size_t size)
{
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    rewind(c->file);
    const size_t n = fread(text, 1, size - 1, c->file);
    text[n] = '\0';
    fclose(c->file);
    return text;
}

#endif
