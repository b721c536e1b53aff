/* Atomic output files (see output_file.h): temporary file beside the
 * target, fsync, rename. Never removes a path it did not create. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int fail(char *err, size_t err_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && err_size) vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return -1;
}

/* The target as it will be replaced: a symbolic link is followed, so that
 * the link stays and the file it names gets the new contents. */
static int resolve_target(gk_output_file *out, const char *path, struct stat *st, int *exists, char *err,
                          size_t err_size)
{
    if (strlen(path) >= sizeof out->target) return fail(err, err_size, "%s: the path is too long", path);
    snprintf(out->target, sizeof out->target, "%s", path);
    if (lstat(path, st) != 0) {
        if (errno != ENOENT) return fail(err, err_size, "%s: %s", path, strerror(errno));
        *exists = 0;
        return 0;
    }
    if (S_ISLNK(st->st_mode)) {
        char *real = realpath(path, NULL);
        if (!real) return fail(err, err_size, "%s: cannot follow the symbolic link: %s", path, strerror(errno));
        snprintf(out->target, sizeof out->target, "%s", real);
        free(real);
        if (stat(out->target, st) != 0) return fail(err, err_size, "%s: %s", out->target, strerror(errno));
    }
    *exists = 1;
    if (S_ISDIR(st->st_mode)) return fail(err, err_size, "%s is a directory: not replaced", path);
    if (!S_ISREG(st->st_mode))
        return fail(err, err_size, "%s is not a regular file (a device, pipe or socket): not replaced", path);
    /* As fopen(path, "w") would: a read-only file is not overwritten. */
    if (access(out->target, W_OK) != 0) return fail(err, err_size, "%s is not writable: %s", path, strerror(errno));
    return 0;
}

/* Creates "<dir>/.<name>.<random>" beside the target. Not mkstemp: its 0600
 * would stick to a new file, while open(..., 0666) lets the umask apply as
 * fopen does. O_EXCL makes the name ours alone. */
static int create_temp(gk_output_file *out, char *err, size_t err_size)
{
    const char *slash = strrchr(out->target, '/');
    int dir_len = slash ? (int)(slash - out->target) + 1 : 0;
    const char *name = slash ? slash + 1 : out->target;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long seed = (unsigned long)now.tv_nsec ^ ((unsigned long)getpid() << 16);
    for (int attempt = 0; attempt < 100; attempt++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        int n = snprintf(out->temp, sizeof out->temp, "%.*s.%.100s.%06lx.tmp", dir_len, out->target, name,
                         (seed >> 24) & 0xffffff);
        if (n < 0 || (size_t)n >= sizeof out->temp) return fail(err, err_size, "%s: the path is too long", out->target);
        int fd = open(out->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        if (errno != EEXIST)
            return fail(err, err_size, "cannot create a file in %.*s: %s", dir_len > 1 ? dir_len - 1 : 1,
                        dir_len ? out->target : ".", strerror(errno));
    }
    return fail(err, err_size, "cannot create a temporary file beside %s", out->target);
}

int gk_output_open(gk_output_file *out, const char *path, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    int exists = 0;
    if (!path || !*path) return fail(err, err_size, "no file name");
    if (resolve_target(out, path, &st, &exists, err, err_size)) return -1;
    int fd = create_temp(out, err, err_size);
    if (fd < 0) return -1;
    if (exists) {
        /* The replacement keeps the target's permissions and, where allowed, its owner. */
        (void)!fchown(fd, st.st_uid, st.st_gid); /* only root may give a file away: not an error */
        (void)!fchmod(fd, st.st_mode & 07777);
    }
    out->stream = fdopen(fd, "wb");
    if (!out->stream) {
        int saved = errno;
        close(fd);
        unlink(out->temp);
        return fail(err, err_size, "%s: %s", out->temp, strerror(saved));
    }
    /* A file-size limit (ulimit -f) must fail the write, which is reported
     * and cleaned up, rather than kill the process and leave the temporary file. */
    signal(SIGXFSZ, SIG_IGN);
    return 0;
}

int gk_output_commit(gk_output_file *out, char *err, size_t err_size)
{
    int failed = 0;
    if (ferror(out->stream)) {
        /* A write failed on the way (a writer need not check each one): flushing
         * what stdio still holds fails again, this time with the reason. */
        clearerr(out->stream);
        failed = fflush(out->stream) != 0 ? errno : EIO;
    } else if (fflush(out->stream) != 0) {
        failed = errno;
    }
    /* fsync before rename: after a crash the target is the old file or the whole new one. */
    if (!failed && fsync(fileno(out->stream)) != 0 && errno != EINVAL) failed = errno;
    if (fclose(out->stream) != 0 && !failed) failed = errno;
    out->stream = NULL;
    if (!failed && rename(out->temp, out->target) != 0) failed = errno;
    if (!failed) return 0;
    unlink(out->temp);
    return fail(err, err_size, "%s: writing failed: %s (any previous file is unchanged)", out->target,
                strerror(failed));
}

void gk_output_abort(gk_output_file *out)
{
    if (out->stream) fclose(out->stream);
    out->stream = NULL;
    if (out->temp[0]) unlink(out->temp);
    out->temp[0] = '\0';
}

int gk_output_check(const char *path, char *err, size_t err_size)
{
    gk_output_file out;
    if (gk_output_open(&out, path, err, err_size)) return -1;
    gk_output_abort(&out);
    return 0;
}

int gk_output_write(const char *path, gk_output_writer write, void *user, char *err, size_t err_size)
{
    gk_output_file out;
    if (gk_output_open(&out, path, err, err_size)) return -1;
    if (write(&out, user, err, err_size)) {
        gk_output_abort(&out);
        /* The writer's reason, with the file it concerns. */
        char reason[512];
        snprintf(reason, sizeof reason, "%s", err);
        return fail(err, err_size, "%s: %s (any previous file is unchanged)", out.target, reason);
    }
    return gk_output_commit(&out, err, err_size);
}
