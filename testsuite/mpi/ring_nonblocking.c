/* Values passed round a ring of ranks by non-blocking requests mixed with blocking calls,
   in orders that only the non-blocking calls make safe: a send posted before a blocking
   receive, a receive posted before a blocking send, and two requests completed one at a
   time, the last posted first (also a variable's address as the receive buffer), and two
   messages of one peer and tag completed in another order than they were posted. The
   backward sweep must reverse each pattern without deadlock, and pair each reversed
   message as MPI paired its message. The cost depends on the number of ranks (the ring's
   length). */
#include <mpi.h>

double cost(int n, double *x)
{
    double a[2], got[2], c[2], b = 0.0, s = 0.0, total = 0.0;
    MPI_Request send, receive, both[2];
    int rank, size, right, left, i, t, k;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    a[0] = x[0];
    a[1] = x[n - 1];
    for (t = 0; t < 3; t++) {
        MPI_Isend(&a[0], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &send);
        MPI_Recv(&got[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        MPI_Irecv(&b, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &receive);
        MPI_Send(&a[1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
        MPI_Wait(&receive, MPI_STATUS_IGNORE);
        MPI_Irecv(&got[1], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &both[0]);
        MPI_Isend(&a[0], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &both[1]);
        for (k = 1; k >= 0; k--)
            MPI_Wait(&both[k], MPI_STATUS_IGNORE);
        /* two messages of one channel (peer and tag), sent by a request completed after
           a blocking send that follows it, received by two requests completed in the order
           they were posted: MPI pairs them by the order of their posts, which the
           completions' order is not on the sending side */
        MPI_Irecv(&c[0], 1, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &both[0]);
        MPI_Irecv(&c[1], 1, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &both[1]);
        MPI_Isend(&got[0], 1, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &send);
        MPI_Send(&b, 1, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
        MPI_Wait(&both[0], MPI_STATUS_IGNORE);
        MPI_Wait(&both[1], MPI_STATUS_IGNORE);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        for (i = 0; i < n; i++)
            s += got[0] * x[i] + b * got[1] * x[(i + t) % n] + c[0] * c[1] * c[1] * x[i];
        a[0] = got[0] * a[1] + 0.5 * b;
        a[1] = got[1] * b + x[t % n];
    }
    MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return total;
}
