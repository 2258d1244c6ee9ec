/* adgen-test
head: square_into(out)/(x)
arg n: int = 5
arg x: double[n]
arg out: double[n] = 1.5
*/
/* A local pointer into the output set again after its last use: the accesses are through
 * its first setting only, so the output has n elements, not n + 2 (a length the derivative
 * code would clear past the caller's array). */
void square_into(int n, const double *x, double *out)
{
    double *q = out;
    for (int i = 0; i < n; i++)
        q[i] = q[i] * x[i] * x[i];
    q = out + 2;
    (void)q;
}
