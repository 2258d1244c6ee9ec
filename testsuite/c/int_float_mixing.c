/* adgen-test
head: mixed_types(out)/(x s)
arg n: int = 8
arg x: double[n] = uniform(0.05, 0.95)
arg s: double = uniform(1, 2)
arg out: double[3]
*/
/* int / double mixing: integer division and promotion in weights, (double) and (int)
 * casts, an index computed by truncating an active value (piecewise constant, no
 * derivative through it), and a float intermediate on passive data. */
void mixed_types(int n, const double *x, double s, double *out)
{
    int i, k;
    double mean = 0.0, weighted = 0.0, picked = 0.0;
    float fscale = (float)n / 3;          /* passive float intermediate */
    for (i = 0; i < n; i++) {
        mean += x[i] / n;
        weighted += x[i] * (n - i) / 2 + (double)(i / 3) * x[i];
    }
    for (i = 0; i < n; i++) {
        k = (int)(x[i] * n);              /* bucket index from an active value */
        picked += x[k] * s + (double)i / n * x[i];
    }
    out[0] = mean * s;
    out[1] = weighted * fscale;
    out[2] = picked + (int)(s * 10) * 0.01 * s;
}
