/* adgen-test
head: through_typedefs(through_typedefs)/(x)
arg x: double[4] = uniform(-1, 1)
arg n: int = 4
head: typedef_pointee(typedef_pointee)/(x)
arg x: double[4] = uniform(-1, 1)
arg n: int = 4
head: in_body(in_body)/(x)
arg x: double[4] = uniform(-1, 1)
arg n: int = 4
*/
/* const hidden in a typedef (`typedef const double cdbl;`, a const struct with and
 * without a tag, a member of such a type), and structs with const members defined in a
 * function body or made by compound literals. The output declares its locals at the top
 * and sets them later, and writes the shadow of a `cdbl *x` parameter: its typedefs and
 * struct types have no const of their own. Before, the output assigned read-only objects
 * and did not compile. */
typedef const double cdbl;
typedef const struct { int k; double w; } Anon;
typedef const struct tagged { int k; double w; } Tagged;
typedef struct { cdbl a; int m; } Holder;

/* vector mode: nothing of struct type carries derivatives here */
double through_typedefs(const double *x, int n)
{
    cdbl a = x[0] * 2.0;
    const Anon q = { n, 0.5 };
    Tagged t = { 2, 1.5 };
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        cdbl xi = x[i] * q.w;
        s += a * xi * t.w * t.k;
    }
    return s;
}

/* the parameter's shadow (`cdbl *xb`) is written; typedef'd const structs hold values
 * of x */
double typedef_pointee(cdbl *x, int n)
{
    Anon q = { n, x[1] };
    Holder h = { x[2] * x[3], 3 };
    Tagged t[2] = { { 1, x[0] }, { .w = x[1] * x[1], .k = 2 } };
    double s = q.w * h.a * h.m;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i] * t[i % 2].w * t[i % 2].k;
    return s;
}

/* a struct with const members defined in the body, compound literals of one */
double in_body(const double *x, int n)
{
    double o[4];
    struct point { const double u, v; double *const out; } p = { x[0], x[1] * x[1], o };
    double s = p.u * p.v;
    for (int i = 0; i < n; i++) {
        struct point q = (struct point){ x[i], p.u, o };
        const struct point *r = &(const struct point){ q.v * x[i], 2.0, o };
        r->out[i] = q.u * r->u * r->v;
        s += o[i] * p.v;
    }
    return s;
}
