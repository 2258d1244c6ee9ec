/* adgen-test
head: model(y)/(x)
arg n: int = 4
arg x: double[n]
arg y: double[1]
expect-error: static global 'weights' is set in 'load_weights', which runs in the program's own code
expect-error-line: 11
*/
/* Must be refused: a static table filled through a pointer by code outside the derivative
 * code (the output's copy of it would stay zero). */
static double weights[4];

static void fill(double *w, int n)
{
    int i;
    for (i = 0; i < n; i++)
        w[i] = 1.0 / (i + 1);
}

void load_weights(void)
{
    fill(weights, 4);
}

void model(int n, const double *x, double *y)
{
    int i;
    y[0] = 0.0;
    for (i = 0; i < n; i++)
        y[0] = y[0] + weights[i % 4] * x[i] * x[i];
}
