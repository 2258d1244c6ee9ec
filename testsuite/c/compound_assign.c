/* adgen-test
head: compound_ops(y)/(x y)
arg n: int = 6
arg x: double[n] = uniform(0.5, 2)
arg y: double[n] = uniform(0.5, 2)
*/
/* Compound assignments on active values (+= -= *= /=), ++ and -- on counters and in
 * subscripts, and compound assignment through a subscript with a side-effect-free index.
 * y is in/out. */
void compound_ops(int n, const double *x, double *y)
{
    int i = 0, j = n - 1;
    double acc = 1.0;
    while (i < n) {
        y[i] += x[i];
        y[i] *= 1.0 + 0.1 * x[j];
        acc *= y[i];
        acc /= 1.0 + y[i];
        y[i] -= 0.5 * acc;
        i++;
        j--;
    }
    for (i = 0; i < n; ++i) {
        double t = x[i];
        t /= y[i];
        t -= 0.25;
        y[(i + 1) % n] += t * t;
    }
    j = n;
    while (j-- > 1)
        y[j - 1] += 0.1 * y[j];
}
