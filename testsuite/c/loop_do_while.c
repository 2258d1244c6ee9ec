/* adgen-test
head: horner(horner)/(c x)
arg deg: int = 6
arg c: double[deg+1]
arg x: double = uniform(-1.5, 1.5)
head: log_reduced(log_reduced)/(x)
arg x: double = uniform(3, 40)
*/
/* do-while loops: Horner's scheme walking the coefficients downward, and a range reduction
 * x = m * 2^k, m in (0.5, 1] followed by a series for log(m). */
double horner(int deg, const double *c, double x)
{
    int k = deg;
    double r = c[deg];
    do {
        k--;
        r = r * x + c[k];
    } while (k > 0);
    return r;
}

double log_reduced(double x)
{
    const double ln2 = 0.69314718055994530942;
    double m = x, t, t2, s = 0.0, term;
    int k = 0, j = 0;
    do {
        m *= 0.5;
        k++;
    } while (m > 1.0);
    /* log(m) = 2 atanh((m - 1)/(m + 1)) = 2 (t + t^3/3 + t^5/5 + ...) */
    t = (m - 1.0) / (m + 1.0);
    t2 = t * t;
    term = t;
    do {
        s += term / (2 * j + 1);
        term *= t2;
        j++;
    } while (j < 30);
    return 2.0 * s + k * ln2;
}
