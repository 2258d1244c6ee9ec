#ifndef ADGEN_UNISTD_H
#define ADGEN_UNISTD_H
/* What numerical programs use of <unistd.h> (timing, sleeping, the process): declarations
   only; the output includes the system's <unistd.h>. */
#include <stddef.h>
typedef long ssize_t; typedef int pid_t; typedef unsigned int useconds_t;
unsigned int sleep(unsigned int); int usleep(useconds_t); long sysconf(int);
pid_t getpid(void); int gethostname(char *, size_t); int isatty(int);
#define _SC_NPROCESSORS_ONLN 84
#define _SC_CLK_TCK 2
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#endif
