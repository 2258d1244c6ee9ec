/* adgen-test
head: sub(y)/(x)
arg n: int = 4
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[n]
*/
/* A parameter passed by value, inactive, that the function changes through its address
 * (`grow(&w)`) before the statement whose adjoint reads it: its value at the end of the
 * forward sweep travels to the backward sweep, as a changed local's does (the backward
 * sweep had the value the caller passed, and the adjoint was wrong). */
static void grow(double *a)
{
    *a = *a * 2.0 + 0.5;
}

static double mid(double v, double w)
{
    double r = v * v * v;
    grow(&w);
    return r * w + v;
}

void sub(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = mid(x[i], 1.5 + i);
}
