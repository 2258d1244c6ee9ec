/* adgen-test
head: g(g)/(x)
arg x: double = 0.3
expect-error: struct 'pair' is defined again with other fields: adgen keeps one type per tag
expect-error-line: 18
*/
/* Must be refused: two functions define struct types with one tag and other fields (each
 * its own type in C); adgen keeps one type per tag, so one of them would be read with the
 * other's fields. */
double f(double x)
{
    struct pair { double a, b; } p = {x, 2.0 * x};
    return p.a * p.b;
}

double g(double x)
{
    struct pair { double a; int n; } q = {x, 3};
    return q.a * q.n + f(x);
}
