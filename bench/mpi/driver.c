/* Driver of the MPI benchmark (bench/mpi.py): the global grid of NY x NX points split
 * into blocks of rows over the ranks, the primal solver and adgen's adjoint solver_b.
 *   driver check NY NX STEPS   prints, on rank 0, the cost and a weighted sum of the
 *                              gradient (gathered), as JSON
 *   driver time NY NX STEPS MIN_TIME ROUNDS   prints the best time per call of each,
 *                              the slowest rank's, as JSON */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

void solver(int rows, int cols, int steps, const double *u0, double *u, double *v,
            double *cost);
void solver_b(int rows, int cols, int steps, const double *u0, double *u0b, double *u,
              double *v, double *cost, double *costb);

static int rows, cols, steps;
static double *u0, *u0b, *u, *v;

static void primal(double *cost) { solver(rows, cols, steps, u0, u, v, cost); }

/* the gradient of the cost (every rank's value, one number): seeded on rank 0 only */
static void gradient(double *cost)
{
    int rank;
    double costb;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    costb = rank == 0 ? 1.0 : 0.0;
    solver_b(rows, cols, steps, u0, u0b, u, v, cost, &costb);
}

/* the best time per call over rounds, each repeating the call for at least min_time
   seconds; the slowest rank's */
static double best_time(void (*call)(double *), double min_time, int rounds)
{
    double best = 1e300, cost, mine, slowest;
    int round, reps = 1, k;
    for (round = 0; round < rounds; round++) {
        double start, elapsed;
        for (;;) {
            MPI_Barrier(MPI_COMM_WORLD);
            start = MPI_Wtime();
            for (k = 0; k < reps; k++)
                call(&cost);
            mine = MPI_Wtime() - start;
            MPI_Allreduce(&mine, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (elapsed >= min_time)
                break;
            reps *= 2;
        }
        slowest = elapsed / reps;
        if (slowest < best)
            best = slowest;
    }
    return best;
}

int main(int argc, char **argv)
{
    int rank, size, ny, nx, n, m, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 5) {
        if (rank == 0)
            fprintf(stderr, "usage: driver check|time NY NX STEPS [MIN_TIME ROUNDS]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    ny = atoi(argv[2]);
    nx = atoi(argv[3]);
    steps = atoi(argv[4]);
    rows = ny / size;
    cols = nx;
    n = rows * cols;
    m = (rows + 2) * (cols + 2);
    u0 = malloc(n * sizeof(double));
    u0b = calloc(n, sizeof(double));
    u = malloc(m * sizeof(double));
    v = malloc(m * sizeof(double));
    for (i = 0; i < n; i++) {
        int g = rank * n + i;      /* the point's place in the global grid */
        u0[i] = 0.5 + 0.4 * sin(0.013 * g) * cos(0.007 * g);
    }
    if (strcmp(argv[1], "check") == 0) {
        double cost, local = 0.0, sum = 0.0;
        gradient(&cost);
        for (i = 0; i < n; i++)
            local += cos(0.01 * (rank * n + i)) * u0b[i];
        MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("{\"cost\": %.17g, \"weighted_gradient\": %.17g}\n", cost, sum);
    } else {
        double min_time = argc > 5 ? atof(argv[5]) : 0.05;
        int rounds = argc > 6 ? atoi(argv[6]) : 5;
        double tp = best_time(primal, min_time, rounds);
        double ta = best_time(gradient, min_time, rounds);
        if (rank == 0)
            printf("{\"primal\": %.6g, \"adgen\": %.6g}\n", tp, ta);
    }
    free(u0);
    free(u0b);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
