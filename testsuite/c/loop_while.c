/* adgen-test
head: series_exp(y)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg nterms: int = 18
arg y: double[n]
*/
/* exp(x) by its Taylor series summed in a while loop with an integer condition, and a
 * while (1) loop leaving with break: the geometric sum 1 + x/2 + (x/2)^2 + ... while the
 * term count is below a bound.  Outer loop over the entries is a while loop too. */
static double taylor_exp(double x, int nterms)
{
    double term = 1.0, sum = 1.0;
    int k = 1;
    while (k < nterms) {
        term *= x / k;
        sum += term;
        k++;
    }
    return sum;
}

static double geometric(double r, int count)
{
    double term = 1.0, sum = 0.0;
    int k = 0;
    while (1) {
        sum += term;
        k++;
        if (k >= count)
            break;
        term *= r;
    }
    return sum;
}

void series_exp(int n, const double *x, int nterms, double *y)
{
    int i = 0;
    while (i < n) {
        y[i] = taylor_exp(x[i], nterms) + geometric(0.5 * x[i], nterms);
        i++;
    }
}
