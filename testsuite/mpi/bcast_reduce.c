/* Parameters set on rank 0 from its first two entries and broadcast (MPI_Bcast), local
   work on every rank's block with them, the results summed at rank 0 (MPI_Reduce): the
   cost is rank 0's sum (0 elsewhere). */
#include <math.h>
#include <mpi.h>

double cost(int n, double *x)
{
    double p[2], local = 0.0, total = 0.0;
    int rank, i;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    p[0] = 0.0;
    p[1] = 0.0;
    if (rank == 0) {
        p[0] = 1.0 + x[0] * x[0];
        p[1] = cos(x[1]);
    }
    MPI_Bcast(p, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; i < n; i++)
        local += p[0] * sin(x[i]) + p[1] * x[i] * x[i];
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return total;
}
