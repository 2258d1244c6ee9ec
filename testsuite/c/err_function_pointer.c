/* adgen-test
head: integrate(integrate)/(a)
arg a: double[2]
expect-error: call through the function pointer 'f', which may point to 'linear', 'quadratic': adgen resolves a pointer that holds one function only
expect-error-line: 27
*/
/* Must be refused: the integrand is called through a function pointer set to one of two
 * functions, depending on the data: adgen resolves a pointer that holds one function. */
typedef double (*integrand_fn)(const double *a, double t);

static double quadratic(const double *a, double t)
{
    return a[0] * t * t + a[1];
}

static double linear(const double *a, double t)
{
    return a[0] * t + a[1];
}

double integrate(const double *a)
{
    integrand_fn f = a[1] > 0.0 ? quadratic : linear;
    double s = 0.0;
    int i;
    for (i = 0; i < 10; i++)
        s += 0.1 * f(a, 0.1 * i + 0.05);
    return s;
}
