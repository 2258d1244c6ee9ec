#ifndef ADGEN_TIME_H
#define ADGEN_TIME_H
typedef long time_t; typedef long clock_t;
#define CLOCKS_PER_SEC 1000000L
time_t time(time_t *); clock_t clock(void);
struct timespec { long tv_sec; long tv_nsec; };
typedef int clockid_t;
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
int clock_gettime(clockid_t, struct timespec *);
double difftime(time_t, time_t);
#endif
