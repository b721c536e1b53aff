/* The built-in tables' text format (policy.tsv, shapes.tsv): one row per
 * line, fields separated by tabs; blank lines and lines starting with '#'
 * (after blanks) are skipped, a trailing '\r' is dropped. */
#ifndef GK_TSV_ROWS_H
#define GK_TSV_ROWS_H

#define GK_TSV_MAX_FIELDS 8 /* fields past the 8th are dropped (count stops at 8) */

/* Called per row with its fields (count of them, at most GK_TSV_MAX_FIELDS,
 * writable until it returns) and its 1-based line number; returning 0 stops. */
typedef int (*gk_tsv_row_fn)(char **fields, int count, int line, void *data);

void gk_tsv_each_row(const char *text, gk_tsv_row_fn row, void *data);

#endif
