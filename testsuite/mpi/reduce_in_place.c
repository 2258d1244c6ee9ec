/* Reductions at rank 0 made in place (MPI_Reduce with MPI_IN_PLACE as the root's send
   buffer, the other ranks sending theirs as usual), the usual way to gather partial sums
   without a second buffer: a sum of local moments and a maximum, each rank's block reduced
   first, so that the cost does not depend on how many ranks share the vector. The cost is
   rank 0's (0 elsewhere). */
#include <math.h>
#include <mpi.h>

double cost(int n, double *x)
{
    double moments[3], peak[2], unused[3];
    int rank, i;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    moments[0] = 0.0;
    moments[1] = 0.0;
    moments[2] = 0.0;
    peak[0] = x[0];
    peak[1] = exp(-x[0] * x[0]);
    for (i = 0; i < n; i++) {
        moments[0] += x[i];
        moments[1] += x[i] * x[i];
        moments[2] += sin(x[i]) * x[i];
        if (x[i] > peak[0])
            peak[0] = x[i];
        if (exp(-x[i] * x[i]) > peak[1])
            peak[1] = exp(-x[i] * x[i]);
    }
    if (rank == 0) {
        MPI_Reduce(MPI_IN_PLACE, moments, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(MPI_IN_PLACE, peak, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        return moments[1] / 12.0 - moments[0] * moments[0] / 144.0 + 0.5 * moments[2]
               + peak[0] * peak[1];
    }
    /* (the receive buffer is not read on these ranks; adgen asks for storage there) */
    MPI_Reduce(moments, unused, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(peak, unused, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return 0.0;
}
