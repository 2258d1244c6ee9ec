/* A 2-D reaction-diffusion step on a grid of rows x cols points per rank, the rows of the
 * global grid in blocks over the ranks (written for this project's MPI benchmark,
 * bench/mpi.py). Each step exchanges the halo rows with the ranks above and below by
 * MPI_Irecv, MPI_Isend and MPI_Waitall, then updates every point; the cost, the sum of
 * squares of the final field over all ranks, is an MPI_Allreduce. u and v are the caller's
 * work arrays of (rows + 2) * (cols + 2) numbers. */
#include <mpi.h>

#define AT(i, j) ((i) * (cols + 2) + (j))

static void exchange(int rows, int cols, double *u, int up, int down)
{
    MPI_Request requests[4];
    MPI_Irecv(&u[AT(0, 1)], cols, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&u[AT(rows + 1, 1)], cols, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(&u[AT(rows, 1)], cols, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(&u[AT(1, 1)], cols, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

void solver(int rows, int cols, int steps, const double *u0, double *u, double *v,
            double *cost)
{
    int rank, size, up, down, i, j, t;
    double local = 0.0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    for (i = 0; i < (rows + 2) * (cols + 2); i++)
        u[i] = 0.0;
    for (i = 1; i <= rows; i++)
        for (j = 1; j <= cols; j++)
            u[AT(i, j)] = u0[(i - 1) * cols + j - 1];
    for (t = 0; t < steps; t++) {
        exchange(rows, cols, u, up, down);
        for (i = 1; i <= rows; i++)
            for (j = 1; j <= cols; j++)
                v[AT(i, j)] = u[AT(i, j)] + 0.1 * (u[AT(i - 1, j)] + u[AT(i + 1, j)] +
                                                   u[AT(i, j - 1)] + u[AT(i, j + 1)] -
                                                   4.0 * u[AT(i, j)]) -
                              0.05 * u[AT(i, j)] * u[AT(i, j)] * u[AT(i, j)];
        for (i = 1; i <= rows; i++)
            for (j = 1; j <= cols; j++)
                u[AT(i, j)] = v[AT(i, j)];
    }
    for (i = 1; i <= rows; i++)
        for (j = 1; j <= cols; j++)
            local += u[AT(i, j)] * u[AT(i, j)];
    MPI_Allreduce(&local, cost, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
