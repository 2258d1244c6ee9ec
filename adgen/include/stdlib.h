#ifndef ADGEN_STDLIB_H
#define ADGEN_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
void *malloc(size_t); void *calloc(size_t, size_t); void *realloc(void *, size_t); void free(void *);
int abs(int); long labs(long); void exit(int); void abort(void);
int atoi(const char *); double atof(const char *); long atol(const char *);
double strtod(const char *, char **); long strtol(const char *, char **, int);
int rand(void); void srand(unsigned);
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
char *getenv(const char *);
#endif
