/* The intrinsics of f2c's runtime library that testsuite/c/f2c_intrinsics.c calls, as
 * libf2c computes them (written for this project), for the primal: the drivers are linked
 * with this file (`link:`), adgen does not see it. */
typedef int integer;
typedef double doublereal;

#include <math.h>

double pow_dd(doublereal *ap, doublereal *bp) { return pow(*ap, *bp); }

double d_sign(doublereal *a, doublereal *b)
{
    double x = (*a >= 0 ? *a : -*a);
    return *b >= 0 ? x : -x;
}

double pow_di(doublereal *ap, integer *bp)
{
    double p = 1, x = *ap;
    integer n = *bp;
    unsigned long u;
    if (n != 0) {
        if (n < 0) {
            n = -n;
            x = 1 / x;
        }
        for (u = n;;) {
            if (u & 01)
                p *= x;
            if (u >>= 1)
                x *= x;
            else
                break;
        }
    }
    return p;
}

double d_mod(doublereal *x, doublereal *y)
{
    double quotient;
    if ((quotient = *x / *y) >= 0)
        quotient = floor(quotient);
    else
        quotient = -floor(-quotient);
    return *x - (*y) * quotient;
}

double d_int(doublereal *x) { return (*x > 0) ? floor(*x) : -floor(-*x); }
double d_nint(doublereal *x) { return (*x) >= 0 ? floor(*x + .5) : -floor(.5 - *x); }
integer i_dnnt(doublereal *x) { return (integer)((*x) >= 0 ? floor(*x + .5) : -floor(.5 - *x)); }
double d_lg10(doublereal *x) { return 0.43429448190325182765 * log(*x); }
double d_atn2(doublereal *x, doublereal *y) { return atan2(*x, *y); }
double d_dim(doublereal *a, doublereal *b) { return *a > *b ? *a - *b : 0; }
double d_exp(doublereal *x) { return exp(*x); }
