/* A 1-D heat equation with a nonlinear source (of the halo cells too: the backward sweep
   needs the values the receives overwrite), its n cells per rank in blocks, a few
   explicit steps, the cost the sum of squares over all ranks (MPI_Allreduce). The halo
   cells are exchanged with the neighbours by MPI_Sendrecv, or, with -DPARITY, by blocking
   MPI_Send and MPI_Recv ordered by the parity of the rank so that every send meets a
   posted receive (even ranks send first), or, with -DNONBLOCKING, by MPI_Irecv and
   MPI_Isend completed by one MPI_Waitall. A neighbour past an end is MPI_PROC_NULL: those
   halos stay 0, or, with -DMIRROR, keep the value mirrored from the field at the start,
   which a receive from MPI_PROC_NULL leaves in place, its derivative too. With -DSINGLE
   the field is single precision (MPI_FLOAT). */
#include <mpi.h>

#ifdef SINGLE
typedef float real;
#define REAL_DATATYPE MPI_FLOAT
#else
typedef double real;
#define REAL_DATATYPE MPI_DOUBLE
#endif

#define NMAX 64
#define STEPS 3

double cost(int n, double *x)
{
    real u[NMAX + 2], v[NMAX + 2];
    real local = 0.0, total = 0.0;
    int rank, size, left, right, i, t;
#ifdef NONBLOCKING
    MPI_Request requests[4];
#endif
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    u[0] = 0.0;
    u[n + 1] = 0.0;
    for (i = 1; i <= n; i++)
        u[i] = x[i - 1];
#ifdef MIRROR
    u[0] = 3.0 * u[1] * u[1];
    u[n + 1] = 2.0 * u[n];
#endif
    for (t = 0; t < STEPS; t++) {
#ifdef PARITY
        if (rank % 2 == 0) {
            MPI_Send(&u[n], 1, REAL_DATATYPE, right, 1, MPI_COMM_WORLD);
            MPI_Recv(&u[n + 1], 1, REAL_DATATYPE, right, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(&u[1], 1, REAL_DATATYPE, left, 3, MPI_COMM_WORLD);
            MPI_Recv(&u[0], 1, REAL_DATATYPE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&u[0], 1, REAL_DATATYPE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&u[1], 1, REAL_DATATYPE, left, 2, MPI_COMM_WORLD);
            MPI_Recv(&u[n + 1], 1, REAL_DATATYPE, right, 3, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(&u[n], 1, REAL_DATATYPE, right, 4, MPI_COMM_WORLD);
        }
#elif defined(NONBLOCKING)
        MPI_Irecv(&u[0], 1, REAL_DATATYPE, left, 7, MPI_COMM_WORLD, &requests[0]);
        MPI_Irecv(&u[n + 1], 1, REAL_DATATYPE, right, 8, MPI_COMM_WORLD, &requests[1]);
        MPI_Isend(&u[n], 1, REAL_DATATYPE, right, 7, MPI_COMM_WORLD, &requests[2]);
        MPI_Isend(&u[1], 1, REAL_DATATYPE, left, 8, MPI_COMM_WORLD, &requests[3]);
        MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
#else
        MPI_Sendrecv(&u[n], 1, REAL_DATATYPE, right, 7, &u[0], 1, REAL_DATATYPE, left, 7,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1], 1, REAL_DATATYPE, left, 8, &u[n + 1], 1, REAL_DATATYPE, right, 8,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
        for (i = 1; i <= n; i++)
            v[i] = u[i] + 0.2 * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.05 * u[i - 1] * u[i + 1];
        for (i = 1; i <= n; i++)
            u[i] = v[i];
    }
    for (i = 1; i <= n; i++)
        local += u[i] * u[i];
    MPI_Allreduce(&local, &total, 1, REAL_DATATYPE, MPI_SUM, MPI_COMM_WORLD);
    return total;
}
