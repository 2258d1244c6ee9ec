/* adgen-test
head: run(run)/(y0)
arg n: int = 4
arg y0: double = 0.8
expect-error: call through the function pointer 'model_rhs', a global another file may set: adgen cannot tell which function it calls; declare it `static`
expect-error-line: 20
*/
/* Must be refused: a global function pointer without `static`, which code in another file
 * may set between the head's store and its call. */
typedef double (*rhs_fn)(double y);

rhs_fn model_rhs;

static double decay(double y) { return -y; }

static double integrate(int n, double y)
{
    int i;
    for (i = 0; i < n; i++)
        y = y + 0.1 * model_rhs(y);
    return y;
}

double run(int n, double y0)
{
    model_rhs = decay;
    return integrate(n, y0);
}
