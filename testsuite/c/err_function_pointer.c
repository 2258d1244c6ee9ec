/* adgen-test
head: integrate(integrate)/(a)
arg a: double[2]
expect-error: call through the function pointer 'm.f', which may point to 'linear', 'quadratic': adgen resolves a pointer that holds one function only
expect-error-line: 35
*/
/* Must be refused: the integrand is called through a struct field set to one of two
 * functions, depending on the data: a field that may hold several functions is not
 * numbered as a variable is (its struct's layout is the program's). */
typedef double (*integrand_fn)(const double *a, double t);

typedef struct {
    integrand_fn f;
    double h;
} Rule;

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
    Rule m;
    m.f = a[1] > 0.0 ? quadratic : linear;
    m.h = 0.1;
    double s = 0.0;
    int i;
    for (i = 0; i < 10; i++)
        s += m.h * m.f(a, 0.1 * i + 0.05);
    return s;
}
