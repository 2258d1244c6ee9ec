/* adgen-test
head: broken(y)/(x)
arg x: double[2]
arg y: double[1]
expect-error: syntax error
expect-error-line: 12
*/
/* Must be refused with a located message: a missing semicolon. */
void broken(const double *x, double *y)
{
    double t = x[0] * x[1]
    y[0] = t * t;
}
