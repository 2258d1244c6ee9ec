/* adgen-test
head: f(y)/(x)
arg x: double[3] = uniform(-1, 1)
arg y: double[1]
expect-error: '&p.x' is the address of field 'x' of a struct, and setv is handed it and may reach past the field
expect-error-line: 18
*/
/* Must be refused: the address of the first field of a struct of doubles handed to
 * functions that use it as an array of three (a 3-vector struct as `double *`); setv
 * writes p.z through v[2], which adgen's memory model does not see (the derivative of
 * `+ p.z` was silently lost). */
typedef struct { double x, y, z; } V3;
static double norm2(const double *v) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; }
static void setv(double *v, const double *s) { for (int i = 0; i < 3; i++) v[i] = s[i] * 2.0; }
void f(const double *x, double *y)
{
    V3 p = {1.0, 2.0, 3.0};
    setv(&p.x, x);
    y[0] = norm2(&p.x) + p.z;
}
