/* Compares the outputs of a drop-in demo built two ways: the same result
 * headers ("# name m n k alpha beta") and every element within float32
 * rounding. Inputs lie in [-1, 1], so |alpha| k + |beta| bounds each sum's
 * magnitude and 4 (k + 2) eps times that bounds the difference of two
 * correct float32 results. Usage: compare_outputs REFERENCE CANDIDATE */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: compare_outputs REFERENCE CANDIDATE\n");
        return 2;
    }
    FILE *ref = fopen(argv[1], "r"), *cand = fopen(argv[2], "r");
    if (!ref || !cand) {
        fprintf(stderr, "compare_outputs: cannot open %s\n", !ref ? argv[1] : argv[2]);
        return 2;
    }
    char lr[256], lc[256], name[128] = "?";
    double bound = 0.0, worst = 0.0;
    long line = 0, values = 0, bad = 0, results = 0;
    for (;;) {
        char *gr = fgets(lr, sizeof lr, ref), *gc = fgets(lc, sizeof lc, cand);
        line++;
        if (!gr || !gc) {
            if (gr || gc) {
                fprintf(stderr, "compare_outputs: %s ends early, at line %ld\n", gr ? argv[2] : argv[1], line);
                return 1;
            }
            break;
        }
        if (lr[0] == '#') {
            int m, n, k;
            float alpha, beta;
            if (strcmp(lr, lc) != 0 || sscanf(lr, "# %127s %d %d %d %g %g", name, &m, &n, &k, &alpha, &beta) != 6) {
                fprintf(stderr, "compare_outputs: line %ld: headers differ or are malformed:\n  %s  %s", line, lr, lc);
                return 1;
            }
            bound = 4.0 * (k + 2) * FLT_EPSILON * (fabs(alpha) * k + fabs(beta)) + FLT_MIN;
            results++;
            continue;
        }
        double r = strtod(lr, NULL), c = strtod(lc, NULL);
        values++;
        double diff = fabs(r - c);
        int ok = isnan(r) ? isnan(c) : (!isnan(c) && diff <= bound);
        if (!ok && bad++ < 5)
            fprintf(stderr, "compare_outputs: %s, line %ld: reference %.9g, candidate %.9g (bound %.3g)\n", name, line,
                    r, c, bound);
        if (!isnan(diff) && bound > 0 && diff / bound > worst) worst = diff / bound;
    }
    printf("%ld results, %ld values compared, %ld outside the bound, worst %.3f of the bound\n", results, values, bad,
           worst);
    return bad || values == 0 ? 1 : 0;
}
