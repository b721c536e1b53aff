/* gemmkit_version(): the version this library was built as (the header's
 * macros at build time), which a program can compare with the header it was
 * compiled against. */
#include "gemmkit.h"

#define GK_TEXT(x) #x
#define GK_VERSION_TEXT(major, minor, patch) GK_TEXT(major) "." GK_TEXT(minor) "." GK_TEXT(patch)

const char *gemmkit_version(int *major, int *minor, int *patch)
{
    if (major) *major = GEMMKIT_VERSION_MAJOR;
    if (minor) *minor = GEMMKIT_VERSION_MINOR;
    if (patch) *patch = GEMMKIT_VERSION_PATCH;
    return GK_VERSION_TEXT(GEMMKIT_VERSION_MAJOR, GEMMKIT_VERSION_MINOR, GEMMKIT_VERSION_PATCH);
}
