/* adgen-test
head: tabulated(tabulated)/(x)
arg x: double[4] = uniform(-1, 1)
arg n: int = 4
head: scaled_squares(scaled_squares)/(x)
arg x: double[4] = uniform(-1, 1)
arg n: int = 4
head: nested_const(nested_const)/(x)
arg x: double[4] = uniform(-1, 1)
arg n: int = 4
head: by_pointer(by_pointer)/(x)
arg p: const Params* = {2, 1.5, 0.5}
arg x: double[3] = uniform(-1, 1)
*/
/* Structs with `const` members and `T *const` pointer fields, set by brace initializers.
 * The output declares its locals at the top and sets them later, member by member (and
 * pushes and pops what the backward sweep restores), also the shadow struct of the same
 * type: so the output's copy of such a type has no const members (what they point to
 * stays const). Before, the output assigned read-only members and did not compile. */
#include <math.h>

typedef struct { const int n; const double scale; double *const buf; } Cfg;

/* what carries no derivative (vector mode too): a const struct local by designated
 * initializer, a struct of const members pointing to a const table */
typedef struct { const int n; const double scale; const double *const tab; } Table;

double tabulated(const double *x, int n)
{
    const double coef[4] = { 1.0, 0.5, 0.25, 2.0 };
    Table t = { n, 1.5, coef };
    const Table u = { .tab = coef + 1, .scale = 3.0, .n = n - 1 };
    double s = 0.0;
    for (int i = 0; i < t.n; i++)
        s += t.scale * t.tab[i] * x[i] * x[i];
    for (int i = 0; i < u.n; i++)
        s += u.scale * u.tab[i] * sin(x[i + 1]);
    return s;
}

/* const scalar members, a `double *const` field into a local array, a const double local */
double scaled_squares(const double *x, int n)
{
    double tmp[4];
    Cfg c = { n, 2.0, tmp };
    const double w = x[0] * 0.5;
    double s = 0.0;
    for (int i = 0; i < c.n && i < 4; i++) {
        c.buf[i] = c.scale * x[i] * x[i];
        s += c.buf[i] * w;
    }
    return s;
}

/* a struct nested in one with a const member, designated initializers, a const local of
 * struct type holding values of x, a const array of structs, one set again in a loop */
typedef struct { const int k; const double w[2]; } Weights;
typedef struct { const Weights wt; double *const out; const double *const in; } Stage;
typedef struct { double a; const double b; } Pair;

double nested_const(const double *x, int n)
{
    double o[4];
    Stage st = { .out = o, .wt = { .w = { 0.5, x[1] }, .k = 2 }, .in = x };
    const Pair p = { x[0] * x[1], .b = 3.0 };
    const Weights ws[2] = { { 1, { 1.0, 2.0 } }, { .k = 3, .w = { [1] = x[2] } } };
    double s = p.a * p.b;
    for (int i = 0; i < n; i++) {
        const Pair q = { st.in[i] * ws[i % 2].w[1], st.wt.w[i % 2] };
        st.out[i] = q.a * q.b * st.wt.k + ws[i % 2].k;
        s += st.out[i] * st.in[i];
    }
    return s;
}

/* a parameter whose struct type has const members: its shadow is the same type */
typedef struct { const int n; const double a, b; } Params;

double by_pointer(const Params *p, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < p->n + 1; i++)
        s += p->a * x[i] * x[i] + p->b * x[i];
    return s;
}
