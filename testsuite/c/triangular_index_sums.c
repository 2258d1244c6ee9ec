/* adgen-test
head: correlate(d)/(x)
arg n: int = 6
arg x: double[n]
arg d: double[n] = 0.5
*/
/* An index that adds two counters, the inner loop's range shrinking as the outer counter
 * grows: d[k + i] with i < n - k never goes past d[n - 1]. Taken one counter at a time
 * the index would reach 2n - 2, and the derivative code would clear and read d's
 * derivative far past the caller's array. */
void correlate(int n, const double *x, double *d)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n - k; i++)
            d[k + i] += x[i] * x[k] * d[i];
}
