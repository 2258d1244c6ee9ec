/* adgen-test
head: blend(c)/(a b s)
arg n: int = 4
arg a: double[n] = uniform(0.5, 1.5)
arg b: double[n] = uniform(0.5, 1.5)
arg s: double[n] = uniform(0.1, 0.9)
arg c: double[n]
*/
/* An optional input array, which the caller may pass as NULL: every read of b is under a
 * test of the pointer, in a conditional expression and on the right of &&. Its length
 * is not known (read under a condition), so its gradient is zeroed element by element
 * as the forward sweep reads it, under the same tests (with b NULL, tested in
 * tests/test_optional_arrays.py, nothing is written through bb). */
void blend(int n, const double *a, const double *b, const double *s, double *c)
{
    int i;
    for (i = 0; i < n; ++i) {
        c[i] = s[i] * a[i] + (1 - s[i]) * (b ? b[i] : 0.0);
        if (b && b[i] > 1.0)
            c[i] = c[i] * a[i];
    }
}
