/* Rows of the built-in tables' text (tsv_rows.h). */
#include "tsv_rows.h"

#include <stdio.h>
#include <string.h>

void gk_tsv_each_row(const char *text, gk_tsv_row_fn row_fn, void *data)
{
    int line = 0;
    for (const char *p = text; *p;) {
        const size_t len = strcspn(p, "\n");
        char row[1024];
        line++;
        snprintf(row, sizeof row, "%.*s", (int)(len < sizeof row ? len : sizeof row - 1), p);
        p += len + (p[len] == '\n');
        row[strcspn(row, "\r")] = '\0';
        if (!row[strspn(row, " \t")] || row[strspn(row, " \t")] == '#') continue;
        char *fields[GK_TSV_MAX_FIELDS];
        int count = 0;
        for (char *f = row; f && count < GK_TSV_MAX_FIELDS; count++) {
            fields[count] = f;
            f = strchr(f, '\t');
            if (f) *f++ = '\0';
        }
        if (!row_fn(fields, count, line, data)) return;
    }
}
