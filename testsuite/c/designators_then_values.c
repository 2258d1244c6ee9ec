/* adgen-test
head: f(f)/(x)
arg x: double = 0.7
*/
/* After a designator into an inner aggregate (`.v[1] = x`, `.in.a = x`, `[0][1] = x`,
 * `[1].a = x`), the values without a designator go on inside that aggregate, and in the
 * one around it when it is full, as C has it: `{.v[1] = x, 2.0 * x}` sets v[2], not the
 * field after v (they went to the outer level, giving wrong values and derivatives, or,
 * for `double m[2][3]`, `m[1] = ...`, which does not compile). */
typedef struct { double v[3]; double w; } Q;
typedef struct { double a, b; double v[2]; } I;
typedef struct { I in; double w; } O;
typedef struct { double a, b; } P;

double f(double x)
{
    Q q = {.v[1] = x, 2.0 * x};
    O o = {.in.a = x, 2.0 * x};
    O p = {.in.v[0] = x, 2.0 * x, 3.0 * x};
    double m[2][3] = {[0][1] = x, x * 2.0, [1][1] = 4.0 * x, x * x};
    double u[][3] = {[1][0] = x, x * 3.0};     /* two rows, as C counts them */
    P ps[3] = {[1].a = x, 5.0, [2].b = 7.0 * x};
    double r = q.v[0] + 3.0 * q.v[1] + 5.0 * q.v[2] * q.v[2] + 7.0 * q.w;
    r += o.in.a + 3.0 * o.in.b * o.in.b + 11.0 * o.w;
    r += p.in.v[0] + 2.0 * p.in.v[1] * p.in.v[1] + 13.0 * p.w + p.in.a;
    r += m[0][1] + 3.0 * m[0][2] * m[0][2] + 5.0 * m[1][0] + m[1][1] - 2.0 * m[1][2] * x;
    r += (double)(sizeof u / sizeof u[0]) * (u[1][0] + u[1][1] * u[1][1] + u[0][2]);
    r += ps[1].a * ps[1].b + 2.0 * ps[2].a + ps[0].a + ps[2].b * ps[1].a;
    return r;
}
