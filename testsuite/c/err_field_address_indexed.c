/* adgen-test
head: f(f)/(x)
arg x: double[2] = uniform(-1, 1)
expect-error: '&q.a' is the address of field 'a' of a struct, and it is indexed by '1'
expect-error-line: 13
*/
/* Must be refused: the address of a struct's field indexed past it, reading the next
 * field as if it were the same array (q.b, whose derivative would not follow). */
typedef struct { double a, b; } P;
double f(const double *x)
{
    P q = {x[0], x[1] * x[1]};
    return (&q.a)[1] * q.a;
}
