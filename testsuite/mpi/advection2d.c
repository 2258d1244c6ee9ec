/* A 2-D advection-diffusion of a field of COLS columns, its rows decomposed over the
   ranks in blocks (the n entries of a rank are n / COLS whole rows), split into
   functions: the exchange of the halo rows with the ranks above and below (MPI_Sendrecv
   of COLS values each), a step of upwind advection and diffusion, and the cost, a
   weighted sum of squares summed over the ranks in a function of its own
   (MPI_Allreduce). The derivatives of the callees communicate inside their own calls.
   With -DNONBLOCKING the rows go through buffers of the exchange's own, by MPI_Irecv,
   MPI_Isend and MPI_Waitall. */
#include <mpi.h>

#define COLS 3
#define RMAX 16
#define AT(i, j) ((i) * (COLS + 2) + (j))

#ifdef NONBLOCKING
/* the halo rows through buffers of the function's own, posted by MPI_Irecv and MPI_Isend
   in loops over the two neighbours and completed by one MPI_Waitall (a receive from
   MPI_PROC_NULL leaves its zeros) */
static void exchange(int rows, double *u, int up, int down)
{
    double sent[2 * COLS], received[2 * COLS];
    MPI_Request requests[4];
    int peer[2], k, j;
    peer[0] = up;
    peer[1] = down;
    for (j = 0; j < 2 * COLS; j++)
        received[j] = 0.0;
    for (k = 0; k < 2; k++)
        MPI_Irecv(&received[k * COLS], COLS, MPI_DOUBLE, peer[k], 20 + k, MPI_COMM_WORLD,
                  &requests[k]);
    for (j = 1; j <= COLS; j++) {
        sent[j - 1] = u[AT(1, j)];
        sent[COLS + j - 1] = u[AT(rows, j)];
    }
    for (k = 0; k < 2; k++)
        MPI_Isend(&sent[k * COLS], COLS, MPI_DOUBLE, peer[k], 21 - k, MPI_COMM_WORLD,
                  &requests[2 + k]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    for (j = 1; j <= COLS; j++) {
        u[AT(0, j)] = received[j - 1];
        u[AT(rows + 1, j)] = received[COLS + j - 1];
    }
}
#else
static void exchange(int rows, double *u, int up, int down)
{
    MPI_Sendrecv(&u[AT(rows, 1)], COLS, MPI_DOUBLE, down, 11, &u[AT(0, 1)], COLS,
                 MPI_DOUBLE, up, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[AT(1, 1)], COLS, MPI_DOUBLE, up, 12, &u[AT(rows + 1, 1)], COLS,
                 MPI_DOUBLE, down, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
#endif

static void step(int rows, double *u, double *w, int up, int down)
{
    int i, j;
    exchange(rows, u, up, down);
    for (i = 1; i <= rows; i++)
        for (j = 1; j <= COLS; j++)
            w[AT(i, j)] = u[AT(i, j)] - 0.3 * (u[AT(i, j)] - u[AT(i - 1, j)])
                          - 0.2 * u[AT(i, j)] * (u[AT(i, j)] - u[AT(i, j - 1)])
                          + 0.1 * (u[AT(i + 1, j)] + u[AT(i, j + 1)] - 2.0 * u[AT(i, j)]);
    for (i = 1; i <= rows; i++)
        for (j = 1; j <= COLS; j++)
            u[AT(i, j)] = w[AT(i, j)];
}

static double summed(double local)
{
    double total = 0.0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

double cost(int n, double *x)
{
    double u[(RMAX + 2) * (COLS + 2)], w[(RMAX + 2) * (COLS + 2)];
    double local = 0.0;
    int rank, size, up, down, rows = n / COLS, i, j, t;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    for (i = 0; i < (RMAX + 2) * (COLS + 2); i++)
        u[i] = 0.0;
    for (i = 1; i <= rows; i++)
        for (j = 1; j <= COLS; j++)
            u[AT(i, j)] = x[(i - 1) * COLS + j - 1];
    for (t = 0; t < 3; t++)
        step(rows, u, w, up, down);
    for (i = 1; i <= rows; i++)
        for (j = 1; j <= COLS; j++)
            local += (1.0 + 0.1 * j) * u[AT(i, j)] * u[AT(i, j)];
    return summed(local);
}
