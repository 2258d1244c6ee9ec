/* A distributed dot product and 2-norm: each rank's block of x against weights it makes
   from x itself, summed over the ranks by MPI_Allreduce (the dot product on its own, the
   sums of squares in place, with MPI_IN_PLACE). */
#include <math.h>
#include <mpi.h>

double cost(int n, double *x)
{
    double sums[2], dot_local = 0.0, dot = 0.0;
    int i;
    sums[0] = 0.0;
    sums[1] = 0.0;
    for (i = 0; i < n; i++) {
        dot_local += x[i] * sin(x[i]);
        sums[0] += x[i] * x[i];
        sums[1] += exp(0.1 * x[i]) * exp(0.1 * x[i]);
    }
    MPI_Allreduce(&dot_local, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return dot / (1.0 + sqrt(sums[0])) + sqrt(sums[1]);
}
