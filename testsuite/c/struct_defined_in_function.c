/* adgen-test
head: spring_energy(spring_energy)/(x)
arg x: double[4] = uniform(-1, 1)
head: midpoint(out)/(x)
arg x: double[4] = uniform(-1, 1)
arg out: double[2]
head: local_typedefs(local_typedefs)/(x)
arg x: double[4] = uniform(-1, 1)
*/
/* Struct types and typedefs defined inside a function body: the derivative routines
 * declare their copies and shadows, so the definitions go to file scope in the output
 * (the same definition in two functions is one type). */
double spring_energy(const double *x)
{
    struct point { double x, y; } p = {x[0], x[1]}, q = {x[2], x[3]};
    struct spring { struct point *ends[2]; double k; } s = {{&p, &q}, 2.5};
    double dx = s.ends[1]->x - s.ends[0]->x, dy = s.ends[1]->y - s.ends[0]->y;
    return 0.5 * s.k * (dx * dx + dy * dy);
}

void midpoint(const double *x, double *out)
{
    struct point { double x, y; } a, b;
    a.x = x[0]; a.y = x[1] * x[1];
    b.x = x[2]; b.y = x[3];
    out[0] = 0.5 * (a.x + b.x);
    out[1] = 0.5 * (a.y + b.y) * a.x;
}

double local_typedefs(const double *x)
{
    typedef double real;
    typedef struct { real re, im; } cplx;
    typedef struct place { real x, y; } place_t;
    typedef real vec2[2];
    cplx z = {x[0], x[1]};
    place_t p = {x[2], x[3]};
    vec2 v = {z.re * p.x, z.im * p.y};
    real r = v[0] - v[1];
    for (int k = 0; k < 3; k++) {
        cplx w = {z.re * z.re - z.im * z.im + 0.1 * r, 2.0 * z.re * z.im};
        z = w;
    }
    return z.re * z.re + z.im * z.im + p.x * v[1];
}
