/* The driver of the MPI test programs (tests/test_mpi.py): each defines
   double cost(int n, double *x) over its rank's block x of a global vector of N entries,
   and the objective is rank 0's cost. Linked with the program and its adjoint cost_b and
   tangent cost_d made by adgen, run on 1, 2 or 4 ranks, it checks the adjoint against
   central differences of the distributed primal (one global entry perturbed at a time on
   the rank that owns it) and against the tangent (the dot-product test, summed over the
   ranks; the vector tangent cost_dv in two directions too), and prints the gradient for the test to compare across rank counts. */
#include <math.h>
#include <stdio.h>
#include <mpi.h>

#define N 12
/* the central differences' step and tolerance, and that of the comparisons of the
   tangents and the adjoint (larger for a program computing in single precision) */
#ifndef FD_STEP
#define FD_STEP 1e-6
#endif
#ifndef FD_TOL
#define FD_TOL 1e-6
#endif
#ifndef EXACT_TOL
#define EXACT_TOL 1e-12
#endif

double cost(int n, double *x);
double cost_d(int n, double *x, double *xd, double *cost);
void cost_b(int n, double *x, double *xb, double costb);
double cost_dv(int n, double *x, double *xd, double *costd, int nbdirs);

static double start(int i) { return 0.3 + 0.25 * sin(1.7 * i + 0.4); }
static double direction(int i) { return cos(0.9 * i + 0.2); }
static double other_direction(int i) { return sin(0.5 * i + 1.0) - 0.3; }

/* rank 0's cost, on every rank */
static double objective(int n, double *x)
{
    double value = cost(n, x);
    MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return value;
}

int main(int argc, char **argv)
{
    double x[N], xb[N], xd[N], gradient[N], xdv[2 * N], costdv[2];
    double value, tangent, local_dot = 0.0, dot = 0.0, worst = 0.0, other = 0.0;
    int rank, size, n, i, failed = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    n = N / size;
    for (i = 0; i < n; i++) {
        x[i] = start(rank * n + i);
        xd[i] = direction(rank * n + i);
        xb[i] = 0.0;
    }
    value = objective(n, x);
    cost_b(n, x, xb, rank == 0 ? 1.0 : 0.0);
    MPI_Gather(xb, n, MPI_DOUBLE, gradient, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(gradient, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    /* central differences, entry by entry */
    for (i = 0; i < N; i++) {
        const double h = FD_STEP;
        int owner = i / n, k = i % n;
        double saved = x[k], plus, minus, fd;
        if (rank == owner)
            x[k] = saved + h;
        plus = objective(n, x);
        if (rank == owner)
            x[k] = saved - h;
        minus = objective(n, x);
        if (rank == owner)
            x[k] = saved;
        fd = (plus - minus) / (2.0 * h);
        if (fabs(fd - gradient[i]) > FD_TOL * fmax(1.0, fabs(gradient[i]))) {
            if (rank == 0)
                printf("FD MISMATCH entry %d: adjoint %.17g, central difference %.17g\n",
                       i, gradient[i], fd);
            failed = 1;
        }
    }
    /* the dot-product test: the tangent along xd against <xd, gradient> over the ranks */
    tangent = cost_d(n, x, xd, &value);
    MPI_Bcast(&tangent, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; i < n; i++)
        local_dot += xd[i] * xb[i];
    MPI_Allreduce(&local_dot, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    worst = fabs(tangent - dot) / fmax(1e-300, fmax(fabs(tangent), fabs(dot)));
    if (worst > EXACT_TOL) {
        if (rank == 0)
            printf("DOT MISMATCH tangent %.17g, adjoint %.17g\n", tangent, dot);
        failed = 1;
    }
    /* two directions at once: xd's, and another against the gradient */
    for (i = 0; i < n; i++) {
        xdv[2 * i] = xd[i];
        xdv[2 * i + 1] = other_direction(rank * n + i);
    }
    cost_dv(n, x, xdv, costdv, 2);
    MPI_Bcast(costdv, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; i < N; i++)
        other += other_direction(i) * gradient[i];
    if (fabs(costdv[0] - tangent) > EXACT_TOL * fmax(1.0, fabs(tangent)) ||
            fabs(costdv[1] - other) > EXACT_TOL * fmax(1.0, fabs(other))) {
        if (rank == 0)
            printf("VECTOR MISMATCH %.17g %.17g, expected %.17g %.17g\n", costdv[0],
                   costdv[1], tangent, other);
        failed = 1;
    }
    if (rank == 0) {
        printf("value %.17g\n", value);
        for (i = 0; i < N; i++)
            printf("gradient %d %.17g\n", i, gradient[i]);
        printf(failed ? "FAILED\n" : "OK\n");
    }
    MPI_Finalize();
    return failed;
}
