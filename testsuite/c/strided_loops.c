/* adgen-test
head: strided(out)/(x)
arg n: int = 13
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[6]
*/
/* Loops with a non-zero start, steps larger than one, <= bounds, and downward loops
 * (with >= and > bounds and steps of -1 and -3). */
void strided(int n, const double *x, double *out)
{
    int i;
    double s;
    s = 0.0;
    for (i = 2; i < n; i += 3)            /* start 2, step 3 */
        s += x[i] * x[i];
    out[0] = s;
    s = 1.0;
    for (i = 1; i <= n - 1; i += 2)       /* <= bound, odd indices */
        s *= x[i];
    out[1] = s;
    s = 0.0;
    for (i = n - 1; i >= 0; i--)          /* downward */
        s = 0.5 * s + x[i];
    out[2] = s;
    s = 0.0;
    for (i = n - 2; i > 0; i -= 3)        /* downward by 3, stops before 0 */
        s += x[i] / (1.0 + x[i - 1]);
    out[3] = s;
    s = 0.0;
    for (i = 0; i <= n / 2; i++)          /* symmetric pairs */
        s += x[i] * x[n - 1 - i];
    out[4] = s;
    s = 0.0;
    for (i = 4; i < n - 1; i = i + 4)     /* step written as i = i + 4 */
        s += x[i + 1] - x[i];
    out[5] = s * s;
}
