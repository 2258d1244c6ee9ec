/* adgen-test
head: apply(y)/(x)
expect-error: 'scale' calls its function parameter 'f', given NULL by a call, where no test of it keeps the call from running
expect-error-line: 14
*/
/* NULL passed for a function the callee calls without testing it first: the program
 * would crash there; refused, naming the call. */
typedef double (*fn)(double);

static void scale(int n, double *y, const double *x, fn f)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = f(x[i]);
}

void apply(int n, const double *x, double *y)
{
    scale(n, y, x, 0);
}
