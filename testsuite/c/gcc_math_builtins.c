/* adgen-test
head: shaped(shaped)/(x)
arg n: int = 5
arg x: double[n] = uniform(0.2, 1.2)
*/
/* Code tuned for gcc calls its builtins of the math library directly (and hints branches
 * with __builtin_expect): they are the library functions, with their derivatives. */
double shaped(int n, const double *x)
{
    double s = 0.0, lo = -__builtin_inf(), cap = __builtin_huge_val();
    double g = __builtin_pow(x[0], 2.0);
    float big = __builtin_inff();
    int i;
    for (i = 0; i < n; i++) {
        double v = __builtin_sqrt(x[i]) * __builtin_cos(x[i]) + __builtin_pow(x[i], 1.5);
        if (__builtin_expect(v > lo, 1))
            s += __builtin_fabs(v) * __builtin_exp(-x[i]) + __builtin_sin(v);
        if (s > cap || s > (double)big)
            s = __builtin_nan("");
    }
    return s + (double)g;
}
