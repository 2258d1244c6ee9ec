/* adgen-test
head: f(f)/(x)
arg x: double[2] = uniform(-1, 1)
expect-error: '&q.a' is the address of field 'a' of a struct, and 'p' is set to it and used past the field
expect-error-line: 14
*/
/* Must be refused: a pointer set to the address of a struct's field, then indexed past
 * it (p[1] reads q.b, whose derivative would not follow). A pointer used at its first
 * element only (r) is fine. */
typedef struct { double a, b; } P;
double f(const double *x)
{
    P q = {x[0], x[1] * x[1]};
    double *p = &q.a, *r = &q.b;
    *r = *r * 2.0;
    return p[1] * q.a;
}
