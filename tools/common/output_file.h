/* Output files written whole or not at all. The data goes to a temporary
 * file beside the target, which is renamed over the target only once every
 * byte is written and synced; on any failure the temporary file is removed
 * and the target (a user's previous result) is left as it was. Only regular
 * files are replaced: a directory, device, pipe or socket is refused before
 * anything is written. */
#ifndef GK_OUTPUT_FILE_H
#define GK_OUTPUT_FILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

typedef struct gk_output_file {
    FILE *stream;          /* write the contents here... */
    char temp[PATH_MAX];   /* ...or let a program write this path (e.g. gnuplot's `set output`) */
    char target[PATH_MAX]; /* the file the temporary one replaces (symbolic links followed) */
} gk_output_file;

/* Refuses a target that is not a regular file (or is read-only), then
 * creates the temporary file: permissions as the target's, or as fopen
 * would give a new file (0666 less the umask). From here on a file-size
 * limit (SIGXFSZ) is a write error, not the end of the process. 0, or -1
 * with a message in err. */
int gk_output_open(gk_output_file *out, const char *path, char *err, size_t err_size);

/* Flushes, syncs and closes the temporary file, then renames it over the
 * target. 0, or -1 with a message in err (and the temporary file removed). */
int gk_output_commit(gk_output_file *out, char *err, size_t err_size);

/* Closes and removes the temporary file; the target is not touched. */
void gk_output_abort(gk_output_file *out);

/* Whether the target could be written, checked before long work: opens and
 * aborts. 0, or -1 with a message in err. */
int gk_output_check(const char *path, char *err, size_t err_size);

/* Writes one whole file: open, write(out, user, err, err_size) (0 or -1 with
 * a message in err), commit, or abort on any failure. 0 or -1. */
typedef int (*gk_output_writer)(gk_output_file *out, void *user, char *err, size_t err_size);
int gk_output_write(const char *path, gk_output_writer write, void *user, char *err, size_t err_size);

#endif
