/* adgen-test
head: integrate(integrate)/(a)
arg a: double[2]
expect-error: function pointer
expect-error-line: 18, 22
*/
/* Must be refused: the integrand is called through a function pointer, whose target
 * adgen cannot know. */
typedef double (*integrand_fn)(const double *a, double t);

static double quadratic(const double *a, double t)
{
    return a[0] * t * t + a[1];
}

double integrate(const double *a)
{
    integrand_fn f = quadratic;
    double s = 0.0;
    int i;
    for (i = 0; i < 10; i++)
        s += 0.1 * f(a, 0.1 * i + 0.05);
    return s;
}
