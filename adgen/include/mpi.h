#ifndef ADGEN_MPI_H
#define ADGEN_MPI_H
/* The MPI interface adgen knows (docs/mpi.md). The output includes the real <mpi.h> of
   the user's MPI and is compiled with its mpicc: the handles and constants are declared
   here as names, never given values, so that the output writes them as the program does. */
typedef struct adgen_mpi_comm *MPI_Comm;
typedef struct adgen_mpi_datatype *MPI_Datatype;
typedef struct adgen_mpi_op *MPI_Op;
typedef struct adgen_mpi_request *MPI_Request;
typedef struct adgen_mpi_status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
} MPI_Status;

extern MPI_Comm MPI_COMM_WORLD, MPI_COMM_SELF;
extern MPI_Datatype MPI_DOUBLE, MPI_FLOAT, MPI_INT, MPI_LONG, MPI_CHAR, MPI_LONG_DOUBLE,
    MPI_DOUBLE_INT, MPI_FLOAT_INT, MPI_DATATYPE_NULL;
extern MPI_Op MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD, MPI_MAXLOC, MPI_MINLOC;
extern const int MPI_PROC_NULL, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS;
extern MPI_Status *MPI_STATUS_IGNORE, *MPI_STATUSES_IGNORE;
extern MPI_Request MPI_REQUEST_NULL;
extern void *MPI_IN_PLACE;

int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Barrier(MPI_Comm comm);
double MPI_Wtime(void);
int MPI_Abort(MPI_Comm comm, int errorcode);

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
             MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
             MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
               MPI_Op op, int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int *recvcounts, const int *displs, MPI_Datatype recvtype, int root,
                MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int *sendcounts, const int *displs,
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                   MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls,
                  MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                  const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm);
/* adgen's own, the lengths of buffers holding every rank's block of count elements:
   count times the number of ranks of comm, on the root only for the second (the output
   defines them where it calls them) */
int adgen_all_ranks_length(int count, MPI_Comm comm);
int adgen_root_ranks_length(int count, int root, MPI_Comm comm);
/* and of buffers of blocks of counts[r] elements at displs[r]: the end of the last block
   (on the root only for the second) */
int adgen_displaced_length(const int *counts, const int *displs, MPI_Comm comm);
int adgen_root_displaced_length(const int *counts, const int *displs, int root,
                                MPI_Comm comm);

/* non-blocking: a request is completed in the function that posts it (docs/mpi.md) */
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
              MPI_Comm comm, MPI_Request *request);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request *requests, MPI_Status *statuses);

/* not differentiated yet: refused where a differentiated function calls them */
int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request *requests);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Testall(int count, MPI_Request *requests, int *flag, MPI_Status *statuses);
int MPI_Waitany(int count, MPI_Request *requests, int *index, MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request *requests, int *outcount, int *indices,
                 MPI_Status *statuses);
int MPI_Request_free(MPI_Request *request);
int MPI_Cancel(MPI_Request *request);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
#endif
