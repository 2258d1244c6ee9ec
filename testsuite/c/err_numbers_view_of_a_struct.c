/* adgen-test
head: f(f)/(v)
arg v: double[3] = uniform(0.2, 1.2)
expect-error: '(double *)vp' views active memory of a struct as numbers
expect-error-line: 15
*/
/* Must be refused: a struct of doubles read as an array of doubles, through `void *`
 * (the conversion from `void *` is what views the memory as numbers). */
typedef struct { double x, y, z; } V3;

double f(V3 *v)
{
    void *vp = v;
    double *p;
    p = vp;
    return p[0] * p[1] + v->z;
}
