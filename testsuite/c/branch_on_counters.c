/* adgen-test
head: banded(y)/(x)
arg n: int = 7
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[1]
sizes: give
*/
/* Branches whose tests read only the counters of the loops around them and integers the
 * function never changes: the backward sweep evaluates the tests again instead of
 * storing which branch each iteration took. A test of an integer the loop changes (m) is
 * stored. */
void banded(int n, const double *x, double *y)
{
    int i, j, m = 0;
    double s = 0.0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            if (j == i)
                s = s * x[i] + 0.5;
            else if (j < i && i - j <= 2)
                s = s + x[i] * x[j];
        }
        if (i % 2 == 0)
            s = s * 0.9 + x[i];
        if (i < n - 1 && n > 3)
            s = s + x[i + 1] * s;
        m = m + i;
        if (m > 5)
            s = s * x[i];
    }
    y[0] = s;
}
