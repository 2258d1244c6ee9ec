/* adgen-test
head: g(g)/(x)
arg x: double = 0.3
expect-error: typedef 'real' is defined again as another type: adgen keeps one type per name
expect-error-line: 19
*/
/* Must be refused: two functions define one typedef name as other types (each its own in
 * C); the output gives typedefs at file scope, one per name, so one function would have
 * the other's type. */
double f(double x)
{
    typedef double real;
    real r = x * x;
    return r;
}

double g(double x)
{
    typedef float real;
    real r = (real)(x * 2.0);
    return r + f(x);
}
