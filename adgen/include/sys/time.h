#ifndef ADGEN_SYS_TIME_H
#define ADGEN_SYS_TIME_H
/* <sys/time.h> for timing code: declarations only. */
#include <time.h>
struct timeval { long tv_sec; long tv_usec; };
struct timezone { int tz_minuteswest; int tz_dsttime; };
int gettimeofday(struct timeval *, void *);
#endif
