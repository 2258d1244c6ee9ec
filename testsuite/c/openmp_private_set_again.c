/* adgen-test
head: openmp_private_set_again(y)/(x)
arg n: int = 9
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
*/
/* A parallel loop whose private scalar t (active: it carries a derivative) is set again,
 * before it is read, by the loop after it: the value the parallel loop leaves in t is
 * read by nothing, so its adjoint runs in parallel too. */
void openmp_private_set_again(int n, const double *x, double *y)
{
    int i;
    double t;
#pragma omp parallel for private(t)
    for (i = 0; i < n; i++) {
        t = x[i] * x[i];
        y[i] = t * x[(i + 1) % n];
    }
    for (i = 0; i < n; i++) {
        t = y[i] * 2.0;
        y[i] = y[i] + t * t;
    }
}
