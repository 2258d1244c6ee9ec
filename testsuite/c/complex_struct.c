/* adgen-test
head: transfer_gain(gain)/(coef freq)
arg n: int = 4
arg coef: double[2*n] = uniform(-1, 1)
arg nfreq: int = 5
arg freq: double[nfreq] = uniform(0.1, 3)
arg gain: double[nfreq]
*/
/* Local structs holding active values: a small complex-number struct, built, passed by
 * value to and returned from helpers, and updated through a pointer.  Evaluates the
 * magnitude of a polynomial transfer function at the frequencies freq. */
#include <math.h>

typedef struct {
    double re;
    double im;
} Complex;

static Complex cmul(Complex a, Complex b)
{
    Complex r;
    r.re = a.re * b.re - a.im * b.im;
    r.im = a.re * b.im + a.im * b.re;
    return r;
}

static void cadd_to(Complex *acc, Complex v)
{
    acc->re += v.re;
    acc->im += v.im;
}

void transfer_gain(int n, const double *coef, int nfreq, const double *freq, double *gain)
{
    int k, i;
    for (k = 0; k < nfreq; k++) {
        Complex z, zp, sum;
        z.re = cos(freq[k]);
        z.im = sin(freq[k]);
        zp.re = 1.0;
        zp.im = 0.0;
        sum.re = 0.0;
        sum.im = 0.0;
        for (i = 0; i < n; i++) {
            Complex c;
            c.re = coef[2 * i];
            c.im = coef[2 * i + 1];
            cadd_to(&sum, cmul(c, zp));
            zp = cmul(zp, z);
        }
        gain[k] = sqrt(sum.re * sum.re + sum.im * sum.im + 1e-6);
    }
}
