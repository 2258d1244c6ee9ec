/* adgen-test
head: f(f)/(x)
arg x: double[2] = uniform(0.2, 1.2)
expect-error: the global pointer 'pg' points where its initializer made it point: 'f' reads it before setting it
expect-error-line: 11
*/
/* Must be refused: a global pointer initialized with the address of a global. The head
 * writes through it, so the global it points to carries derivatives, which the memory
 * model (which reads no initializer) would not see: the derivative was 0 here. */
double gs = 2.0;
double *pg = &gs;

double f(const double *x)
{
    *pg = x[0] * x[0];
    return gs * x[1];
}
