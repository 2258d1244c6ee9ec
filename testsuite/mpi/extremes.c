/* Reductions other than sums over the ranks: the largest and smallest entries of the
   global vector and of functions of it (MPI_Allreduce with MPI_MAX, MPI_MIN, also in
   place), their product (MPI_PROD), and a maximum gathered at rank 0 only (MPI_Reduce):
   each rank reduces its block first, so that the cost does not depend on how many ranks
   share the vector. */
#include <math.h>
#include <mpi.h>

double cost(int n, double *x)
{
    double top[2], high[2], low[2], factor[2], product[2], peak[2];
    int i;
    top[0] = x[0];
    top[1] = sin(2.0 * x[0]);
    low[0] = x[0] * x[0];
    low[1] = cos(x[0]);
    factor[0] = 1.0;
    factor[1] = 1.0;
    peak[0] = 0.0;
    peak[1] = 0.0;
    for (i = 0; i < n; i++) {
        if (x[i] > top[0])
            top[0] = x[i];
        if (sin(2.0 * x[i]) > top[1])
            top[1] = sin(2.0 * x[i]);
        if (x[i] * x[i] < low[0])
            low[0] = x[i] * x[i];
        if (cos(x[i]) < low[1])
            low[1] = cos(x[i]);
        factor[0] *= 1.0 + 0.1 * x[i];
        factor[1] *= 2.0 - x[i];
    }
    MPI_Allreduce(top, high, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, low, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(factor, product, 2, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
    MPI_Reduce(top, peak, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return high[0] * high[1] + low[0] + 3.0 * low[1] + product[0] - 0.1 * product[1]
           + peak[0] * peak[1] * peak[1];
}
