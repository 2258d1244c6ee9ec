#ifndef ADGEN_SYS_RESOURCE_H
#define ADGEN_SYS_RESOURCE_H
/* <sys/resource.h> for timing code: declarations only. */
#include <sys/time.h>
struct rusage {
    struct timeval ru_utime; struct timeval ru_stime;
    long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap;
    long ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
int getrusage(int, struct rusage *);
#endif
