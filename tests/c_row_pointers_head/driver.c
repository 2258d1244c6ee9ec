/* Checks the derivative routines of model.c's heads whose independents or dependents are
 * arrays of row pointers (tests/test_struct_heads.py): the tangent against central finite
 * differences of the primal, the adjoint against the tangent (dot-product test). Each row
 * is a block of its own, of its exact length (AddressSanitizer sees a stray write); the
 * adjoints of pure inputs are filled with garbage first (they are set, not accumulated).
 * Prints PASS or FAIL. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double tri_form(int n, double **L, const double *x);
double tri_form_d(int n, double **L, double **Ld, const double *x, const double *xd,
                  double *tri_form);
void tri_form_b(int n, double **L, double **Lb, const double *x, double *xb,
                double tri_formb);
void relax_rows(int n, int m, double **u, double w, double *energy);
void relax_rows_d(int n, int m, double **u, double **ud, double w, double *energy,
                  double *energyd);
void relax_rows_b(int n, int m, double **u, double **ub, double w, double *energy,
                  double *energyb);
void outer_rows(int n, const double *x, double *out[]);
void outer_rows_d(int n, const double *x, const double *xd, double *out[], double *outd[]);
void outer_rows_b(int n, const double *x, double *xb, double **out, double **outb);

#define N 5
#define M 4
#define GARBAGE 1e30

/* rows[i] of length len(i), allocated one by one, values from a flat array */
typedef int (*Length)(int);
static int tri(int i) { return i + 1; }
static int wide(int i) { (void)i; return M; }
static int square(int i) { (void)i; return N; }

static double **rows_new(int n, Length len, const double *flat)
{
    double **r = malloc(n * sizeof *r);
    int i, k = 0;
    for (i = 0; i < n; i++) {
        r[i] = malloc(len(i) * sizeof **r);
        if (flat)
            memcpy(r[i], flat + k, len(i) * sizeof **r);
        k += len(i);
    }
    return r;
}

static void rows_flat(int n, Length len, double **r, double *flat)
{
    int i, k = 0;
    for (i = 0; i < n; i++) {
        memcpy(flat + k, r[i], len(i) * sizeof **r);
        k += len(i);
    }
}

static void rows_free(int n, double **r)
{
    int i;
    for (i = 0; i < n; i++)
        free(r[i]);
    free(r);
}

static int fails = 0;

static void verdict(const char *name, double worst, double tdot, double adot, int extra)
{
    int ok = worst < 1e-7 && fabs(tdot - adot) <= 1e-12 * fmax(1.0, fabs(tdot)) && extra;
    printf("%s: tangent against finite differences %.2e; dot-product test %.17g %.17g%s\n",
           name, worst, tdot, adot, ok ? "" : " FAIL");
    fails += !ok;
}

#define NT (N * (N + 1) / 2)

static double tri_value(const double *in)     /* in: the triangle's numbers, then x */
{
    double **L = rows_new(N, tri, in), q = tri_form(N, L, in + NT);
    rows_free(N, L);
    return q;
}

static void check_tri(void)
{
    double in[NT + N], ind[NT + N], p[NT + N], m[NT + N], xb[N], flat[NT], h = 1e-6;
    double q, qd, worst, tdot, adot = 0.0;
    double **L, **Ld, **Lb;
    int k;
    for (k = 0; k < NT + N; k++) {
        in[k] = 0.4 + 0.3 * sin(k + 1.0);
        ind[k] = cos(2.0 * k);
        p[k] = in[k] + h * ind[k];
        m[k] = in[k] - h * ind[k];
    }
    L = rows_new(N, tri, in);
    Ld = rows_new(N, tri, ind);
    qd = tri_form_d(N, L, Ld, in + NT, ind + NT, &q);
    worst = fabs((tri_value(p) - tri_value(m)) / (2.0 * h) - qd) / fmax(1.0, fabs(qd));
    tdot = 0.7 * qd;
    Lb = rows_new(N, tri, NULL);
    for (k = 0; k < N; k++) {
        int j;
        for (j = 0; j <= k; j++)
            Lb[k][j] = GARBAGE;
        xb[k] = GARBAGE;
    }
    tri_form_b(N, L, Lb, in + NT, xb, 0.7);
    rows_flat(N, tri, Lb, flat);
    for (k = 0; k < NT; k++)
        adot += flat[k] * ind[k];
    for (k = 0; k < N; k++)
        adot += xb[k] * ind[NT + k];
    verdict("tri_form", worst, tdot, adot, 1);
    rows_free(N, L);
    rows_free(N, Ld);
    rows_free(N, Lb);
}

static void relax_value(const double *in, double *y)      /* y: the grid, then energy */
{
    double **u = rows_new(N, wide, in);
    relax_rows(N, M, u, 0.8, &y[N * M]);
    rows_flat(N, wide, u, y);
    rows_free(N, u);
}

static void check_relax(void)
{
    double in[N * M], ind[N * M], p[N * M], m[N * M], yp[N * M + 1], ym[N * M + 1];
    double yb[N * M + 1], flat[N * M], h = 1e-6, worst = 0.0, tdot = 0.0, adot = 0.0;
    double e, ed = 0.0, eb;
    double **u, **ud, **ub;
    int k;
    for (k = 0; k < N * M; k++) {
        in[k] = 0.5 + 0.3 * sin(k + 1.0);
        ind[k] = cos(2.0 * k);
        p[k] = in[k] + h * ind[k];
        m[k] = in[k] - h * ind[k];
    }
    for (k = 0; k <= N * M; k++)
        yb[k] = sin(3.0 * k + 0.5);
    relax_value(p, yp);
    relax_value(m, ym);
    u = rows_new(N, wide, in);
    ud = rows_new(N, wide, ind);
    relax_rows_d(N, M, u, ud, 0.8, &e, &ed);
    rows_flat(N, wide, ud, flat);
    for (k = 0; k <= N * M; k++) {
        double t = k < N * M ? flat[k] : ed;
        worst = fmax(worst, fabs((yp[k] - ym[k]) / (2.0 * h) - t) / fmax(1.0, fabs(t)));
        tdot += yb[k] * t;
    }
    rows_free(N, u);
    u = rows_new(N, wide, in);
    ub = rows_new(N, wide, yb);
    eb = yb[N * M];
    relax_rows_b(N, M, u, ub, 0.8, &e, &eb);
    rows_flat(N, wide, ub, flat);
    for (k = 0; k < N * M; k++)
        adot += flat[k] * ind[k];
    verdict("relax_rows", worst, tdot, adot, eb == 0.0);
    rows_free(N, u);
    rows_free(N, ud);
    rows_free(N, ub);
}

static void outer_value(const double *x, double *y)
{
    double **out = rows_new(N, square, NULL);
    outer_rows(N, x, out);
    rows_flat(N, square, out, y);
    rows_free(N, out);
}

static void check_outer(void)
{
    double x[N], xd[N], p[N], m[N], xb[N], yp[N * N], ym[N * N], yb[N * N], flat[N * N];
    double h = 1e-6, worst = 0.0, tdot = 0.0, adot = 0.0;
    double **out, **outd, **outb;
    int k, consumed = 1;
    for (k = 0; k < N; k++) {
        x[k] = 0.3 + 0.2 * k;
        xd[k] = sin(k + 2.0);
        p[k] = x[k] + h * xd[k];
        m[k] = x[k] - h * xd[k];
        xb[k] = GARBAGE;
    }
    for (k = 0; k < N * N; k++)
        yb[k] = cos(k + 0.25);
    outer_value(p, yp);
    outer_value(m, ym);
    out = rows_new(N, square, NULL);
    outd = rows_new(N, square, NULL);
    outer_rows_d(N, x, xd, out, outd);
    rows_flat(N, square, outd, flat);
    for (k = 0; k < N * N; k++) {
        worst = fmax(worst, fabs((yp[k] - ym[k]) / (2.0 * h) - flat[k]) /
                                fmax(1.0, fabs(flat[k])));
        tdot += yb[k] * flat[k];
    }
    outb = rows_new(N, square, yb);
    outer_rows_b(N, x, xb, out, outb);
    for (k = 0; k < N; k++)
        adot += xb[k] * xd[k];
    rows_flat(N, square, outb, flat);
    for (k = 0; k < N * N; k++)
        consumed = consumed && flat[k] == 0.0;
    verdict("outer_rows", worst, tdot, adot, consumed);
    rows_free(N, out);
    rows_free(N, outd);
    rows_free(N, outb);
}

int main(void)
{
    check_tri();
    check_relax();
    check_outer();
    printf(fails ? "FAIL\n" : "PASS\n");
    return 0;
}
