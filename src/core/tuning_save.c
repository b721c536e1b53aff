/* Writing the tuning database (see gk_tuning_save in tuning.h): read,
 * replace one entry, write a temporary file, rename it over the database,
 * all under a lock, so that the file is always either the old one or the
 * new one, and two `gemmkit tune` runs at once both keep their entries. */
#define _GNU_SOURCE /* mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"
#include "tuning.h"

static const char header[] =
    "# gemmkit tuning database: backend, device, kernel, params, score (GFLOPS or GB/s), date (tab-separated)\n";

/* Creates the parent folders of path. */
static void make_parents(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
}

static int same_key(const gk_tuning_entry *a, const gk_tuning_entry *b)
{
    return strcmp(a->backend, b->backend) == 0 && strcmp(a->device, b->device) == 0 &&
           strcmp(a->kernel, b->kernel) == 0;
}

/* The old text with the entry's line(s) dropped, every line ending in '\n'
 * (a file without a final newline must not glue the new line onto its
 * last), then the entry. Malformed and foreign lines are kept as written. */
static char *merged_text(const char *old, size_t old_len, const gk_tuning_entry *entry, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (!out) return NULL;
    if (old_len == 0) fputs(header, out);
    size_t pos = 0, line_len = 0;
    for (const char *line; (line = gk_tuning_next_line(old, old_len, &pos, &line_len));) {
        gk_tuning_entry e;
        char why[160];
        if (gk_tuning_parse_line(line, line_len, &e, why, sizeof why) == GK_LINE_ENTRY && same_key(&e, entry))
            continue;
        fwrite(line, 1, line_len, out);
        fputc('\n', out);
    }
    fprintf(out, "%s\t%s\t%s\t%s\t%.1f\t%s\n", entry->backend, entry->device, entry->kernel, entry->params,
            entry->gflops, entry->date);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static int write_all(int fd, const char *text, size_t len)
{
    while (len) {
        ssize_t done = write(fd, text, len);
        if (done < 0 && errno == EINTR) continue;
        if (done <= 0) return -1;
        text += done;
        len -= (size_t)done;
    }
    return 0;
}

/* Replaces path's contents with text through a temporary file in the same
 * folder. Termination signals wait until the rename is done, so Ctrl-C
 * leaves neither a half-written database nor a temporary file. */
static gemmkit_status replace_file(const char *path, const char *text, size_t len, mode_t mode)
{
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    char temp[PATH_MAX + 16];
    snprintf(temp, sizeof temp, "%s.tmp.XXXXXX", path);
    gemmkit_status status = GEMMKIT_SUCCESS;
    int fd = mkostemp(temp, O_CLOEXEC);
    if (fd < 0) {
        status = gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "cannot create a temporary file beside %s: %s", path,
                         strerror(errno));
    } else {
        int failed = fchmod(fd, mode) != 0 || write_all(fd, text, len) != 0 || fsync(fd) != 0;
        int error = errno;
        if (close(fd) != 0 && !failed) {
            failed = 1;
            error = errno;
        }
        if (!failed && rename(temp, path) != 0) {
            failed = 1;
            error = errno;
        }
        if (failed) {
            unlink(temp);
            status = gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "writing the tuning database %s failed: %s; the old "
                             "file is unchanged", path, strerror(error));
        }
    }
    if (status == GEMMKIT_SUCCESS) {
        /* Make the rename itself durable (best effort: not every file system allows it). */
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        int dir_fd = open(dirname(dir), O_RDONLY | O_CLOEXEC);
        if (dir_fd >= 0) {
            fsync(dir_fd);
            close(dir_fd);
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return status;
}

/* An exclusive lock on "<path>.lock", held across read-merge-write; the lock
 * file stays (removing it would let a third process lock a new inode). */
static int lock_database(const char *path)
{
    char lock_path[PATH_MAX + 8];
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);
    int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

static int has_separator(const char *field) { return strpbrk(field, "\t\r\n") != NULL; }

gemmkit_status gk_tuning_save(const char *path, const gk_tuning_entry *entry)
{
    if (has_separator(entry->backend) || has_separator(entry->device) || has_separator(entry->kernel) ||
        has_separator(entry->params) || has_separator(entry->date))
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "a tuning entry's fields must not hold tabs or newlines");
    /* Write through a symbolic link rather than replace it. */
    char target[PATH_MAX];
    if (!realpath(path, target)) snprintf(target, sizeof target, "%s", path);
    make_parents(target);
    int lock = lock_database(target);
    if (lock < 0)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "cannot lock the tuning database %s.lock: %s", target,
                       strerror(errno));
    char *old = NULL, *text = NULL, why[256];
    size_t old_len = 0, len = 0;
    gemmkit_status status = GEMMKIT_SUCCESS;
    int read = gk_tuning_read_file(target, &old, &old_len, why, sizeof why);
    struct stat st;
    mode_t mode = read == 0 && stat(target, &st) == 0 ? st.st_mode & 07777 : 0644;
    if (read < 0)
        status = gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "cannot read the tuning database %s: %s; not replacing it",
                         target, why);
    else if (!(text = merged_text(old, old_len, entry, &len)))
        status = gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "merging the tuning database %s", target);
    else
        status = replace_file(target, text, len, mode);
    free(old);
    free(text);
    close(lock); /* releases the lock */
    return status;
}
