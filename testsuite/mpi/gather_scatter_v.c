/* Blocks of different lengths (one or two values a rank, by its parity) moved between the
   ranks, each block one element after the end of the one before: two moments of each
   rank's block gathered to every rank (MPI_Allgatherv) and to rank 0 (MPI_Gatherv, the
   other ranks giving a null receive buffer); rank 0 turns them into weights and hands
   each rank its block of them (MPI_Scatterv); every pair of ranks exchanges blocks of
   one or two values (MPI_Alltoallv, two for the pairs of equal parity). Each rank has
   displacements of its own: the odd ones place the gathered blocks in the reverse order
   of the ranks, and every rank sends the blocks of its exchange from the start of its
   buffer (the blocks overlap: their first elements are sent to every rank). The elements between the blocks hold values
   of their own, which the gathers leave as they are. The cost is rank 0's (0 elsewhere);
   it depends on how the ranks share the vector. */
#include <math.h>
#include <stddef.h>
#include <mpi.h>

#define MAX_RANKS 4

double cost(int n, double *x)
{
    double mine[2], all[3 * MAX_RANKS], at_root[3 * MAX_RANKS], weights[3 * MAX_RANKS];
    double back[2], local = 0.0, total = 0.0, spread = 0.0;
    double out[3 * MAX_RANKS], in[3 * MAX_RANKS], mixed = 0.0;
    int counts[MAX_RANKS], displs[MAX_RANKS], rank, size, i, r, k, end = 0;
    int pair[MAX_RANKS], at[MAX_RANKS], from_start[MAX_RANKS], reach = 0, place = 0;
    int mine_at[MAX_RANKS];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (r = 0; r < size; r++) {
        counts[r] = r % 2 + 1;
        displs[r] = end;
        end = end + counts[r] + 1;
    }
    mine[0] = 0.0;
    mine[1] = 0.0;
    for (i = 0; i < n; i++) {
        mine[0] += sin(x[i]);
        mine[1] += x[i] * x[i];
    }
    for (k = 0; k < 3 * MAX_RANKS; k++)
        all[k] = 0.1 * (k + 1) * x[0];
    for (r = 0; r < size; r++) {
        int q = rank % 2 ? size - 1 - r : r;
        mine_at[q] = place;
        place = place + counts[q] + 1;
    }
    MPI_Allgatherv(mine, counts[rank], MPI_DOUBLE, all, counts, mine_at, MPI_DOUBLE,
                   MPI_COMM_WORLD);
    for (k = 0; k < end; k++)
        spread += all[k] * all[k] / (k + 1);
    if (rank != 0) {
        MPI_Gatherv(mine, counts[rank], MPI_DOUBLE, NULL, counts, displs, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);
        MPI_Scatterv(NULL, counts, displs, MPI_DOUBLE, back, counts[rank], MPI_DOUBLE, 0,
                     MPI_COMM_WORLD);
    } else {
        for (k = 0; k < 3 * MAX_RANKS; k++)
            at_root[k] = cos(x[n - 1]) * k;
        MPI_Gatherv(mine, counts[0], MPI_DOUBLE, at_root, counts, displs, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);
        for (k = 0; k < end; k++)
            weights[k] = exp(-0.05 * at_root[k] * at_root[k]) + 0.01 * at_root[k];
        MPI_Scatterv(weights, counts, displs, MPI_DOUBLE, back, counts[0], MPI_DOUBLE, 0,
                     MPI_COMM_WORLD);
    }
    for (r = 0; r < size; r++) {
        pair[r] = (r + rank) % 2 == 0 ? 2 : 1;
        at[r] = reach;
        from_start[r] = 0;
        reach = reach + pair[r] + 1;
    }
    for (k = 0; k < 3 * MAX_RANKS; k++) {
        out[k] = back[0] * (k + 1) + mine[k % 2];
        in[k] = 0.2 * k * x[0];
    }
    MPI_Alltoallv(out, pair, from_start, MPI_DOUBLE, in, pair, at, MPI_DOUBLE, MPI_COMM_WORLD);
    for (k = 0; k < reach; k++)
        mixed += in[k] * in[k] / (k + 3);
    for (i = 0; i < n; i++)
        local += back[0] * x[i] * x[i] + (counts[rank] > 1 ? back[1] : 0.5) * sin(x[i])
                 + 0.01 * mixed * x[i];
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return rank == 0 ? total + spread : 0.0;
}
