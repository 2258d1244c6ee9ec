/* Every rank's block summarised and the summaries moved between the ranks: two moments
   of each rank's block gathered to every rank (MPI_Allgather) and to rank 0 (MPI_Gather);
   rank 0 turns what it gathered into two weights per rank and hands them out
   (MPI_Scatter); each rank sends every other a value of its own (MPI_Alltoall), weights
   its block with what it got, and rank 0 gathers the weighted results. The buffers that hold nothing off the root are arrays on every rank for the
   first gather, null pointers for the scatter and the last gather. The cost is rank 0's
   (0 elsewhere); it depends on how the ranks share the vector. With -DIN_PLACE the first
   and the last gathers take each rank's block in place in the receive buffer, and the
   scatter leaves rank 0's in place in the send buffer (MPI_IN_PLACE). */
#include <math.h>
#include <stddef.h>
#include <mpi.h>

#define MAX_RANKS 4

double cost(int n, double *x)
{
    double mine[2], everyone[2 * MAX_RANKS], at_root[2 * MAX_RANKS];
    double weights[2 * MAX_RANKS], w[2], local[1], results[MAX_RANKS], spread = 0.0;
    double to_each[MAX_RANKS], from_each[MAX_RANKS], mixed = 0.0;
    int rank, size, i, r;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine[0] = 0.0;
    mine[1] = 0.0;
    for (i = 0; i < n; i++) {
        mine[0] += sin(x[i]);
        mine[1] += x[i] * x[i];
    }
#ifdef IN_PLACE
    everyone[2 * rank] = mine[0];
    everyone[2 * rank + 1] = mine[1];
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, everyone, 2, MPI_DOUBLE, MPI_COMM_WORLD);
#else
    MPI_Allgather(mine, 2, MPI_DOUBLE, everyone, 2, MPI_DOUBLE, MPI_COMM_WORLD);
#endif
    for (r = 0; r < size; r++)
        spread += everyone[2 * r] * everyone[2 * r + 1] * (r + 1);
    MPI_Gather(mine, 2, MPI_DOUBLE, at_root, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (r = 0; r < size; r++) {
            weights[2 * r] = exp(-0.1 * at_root[2 * r + 1]);
            weights[2 * r + 1] = cos(at_root[2 * r]) + 0.5 * r;
        }
#ifdef IN_PLACE
        w[0] = weights[0];
        w[1] = weights[1];
        MPI_Scatter(weights, 2, MPI_DOUBLE, MPI_IN_PLACE, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#else
        MPI_Scatter(weights, 2, MPI_DOUBLE, w, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#endif
    } else {
        MPI_Scatter(NULL, 2, MPI_DOUBLE, w, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    for (r = 0; r < size; r++)
        to_each[r] = w[0] * mine[1] + (r + 1) * mine[0];
    MPI_Alltoall(to_each, 1, MPI_DOUBLE, from_each, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    for (r = 0; r < size; r++)
        mixed += from_each[r] * from_each[r] / (r + 2);
    local[0] = 0.0;
    for (i = 0; i < n; i++)
        local[0] += w[0] * x[i] * x[i] + w[1] * sin(x[i]) + 0.01 * mixed * x[i];
    if (rank != 0) {
        MPI_Gather(local, 1, MPI_DOUBLE, NULL, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        return 0.0;
    }
#ifdef IN_PLACE
    results[0] = local[0];
    MPI_Gather(MPI_IN_PLACE, 1, MPI_DOUBLE, results, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#else
    MPI_Gather(local, 1, MPI_DOUBLE, results, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#endif
    for (r = 0; r < size; r++)
        spread += results[r] * (1.0 + 0.1 * r);
    return spread;
}
