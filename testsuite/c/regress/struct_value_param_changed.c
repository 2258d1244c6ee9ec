/* adgen-test
head: f(y)/(x)
arg x: double[3] = uniform(0.5, 1.5)
arg y: double[1]
*/
/* A struct passed by value whose array field the callee changes, the caller reading its
 * own struct again after the call. The callee's changes belong to its copy: their
 * adjoints must not overwrite the caller's adjoint of its struct. */
struct vec3 {
    double a[3];
};

static double scaled_sum(struct vec3 v, double c)
{
    v.a[1] = v.a[1] * c;
    return v.a[1] + v.a[0];
}

void f(const double *x, double *y)
{
    struct vec3 w;
    w.a[0] = x[0];
    w.a[1] = x[1];
    w.a[2] = x[2];
    y[0] = scaled_sum(w, x[2]) + w.a[1] * w.a[1];
}
