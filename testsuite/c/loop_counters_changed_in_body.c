/* adgen-test
head: tricks(out)/(x)
arg n: int = 7
arg x: double[n] = uniform(-1, 1)
arg out: double[n]
sizes: give
*/
/* Loops whose counter or bound the body changes: a skip (`i += 1` under a test), a bound
 * lowered inside the loop, an element done again (`i--; continue;`), and headers with two
 * counters (`i = 0, j = n - 1; i < j; i++, j--`). */
void tricks(int n, const double *x, double *out)
{
    int i, j;
    for (i = 0; i < n; i++) out[i] = x[i] * (i + 1);
    for (i = 0, j = n - 1; i < j; i++, j--) { double t = out[i]; out[i] = out[j] * x[i]; out[j] = t; }
    for (i = 0; i < n; i++) {
        out[i] += x[i] * x[i];
        if (x[i] > 0.3) i += 1;               /* skip the next element */
    }
    int m = n;
    for (i = 0; i < m; i++) {
        if (i == 2) m--;                        /* the bound changes in the body */
        out[i] *= 1.0 + 0.1 * x[m - 1];
    }
    int redo = 1;
    for (i = 0; i < n; i++) {
        out[i] = out[i] * 0.5 + x[i];
        if (i == 3 && redo) { redo = 0; i--; continue; }
    }
    for (i = 1, j = 0; i < n; i += 2, j++) out[j] += out[i] * x[j];
}
