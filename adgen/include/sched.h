#ifndef ADGEN_SCHED_H
#define ADGEN_SCHED_H
int sched_yield(void);
#endif
