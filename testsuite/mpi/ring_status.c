/* A value passed round a ring of ranks (MPI_Sendrecv with a status), the status's source
   and tag choosing, at each step, which of two updates the received value takes part in:
   the backward sweep must take the branches the forward sweep took, whatever the status
   holds by then. The cost depends on the number of ranks (the ring's length). */
#include <mpi.h>

double cost(int n, double *x)
{
    double s = 0.0, total = 0.0, pass[2];
    int rank, size, i, t;
    MPI_Status status;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pass[0] = x[0];
    pass[1] = x[n - 1];
    for (t = 0; t < 3; t++) {
        MPI_Sendrecv(&pass[0], 1, MPI_DOUBLE, (rank + 1) % size, t, &pass[1], 1, MPI_DOUBLE,
                     (rank + size - 1) % size, t, MPI_COMM_WORLD, &status);
        for (i = 0; i < n; i++)
            if ((status.MPI_SOURCE + status.MPI_TAG + i) % 2 == 0)
                s += pass[1] * x[i] * pass[0];
            else
                s += pass[1] * pass[1] + x[i];
        pass[0] = pass[1] * x[(t + status.MPI_SOURCE) % n];
    }
    MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return total;
}
