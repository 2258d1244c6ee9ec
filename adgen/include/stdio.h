#ifndef ADGEN_STDIO_H
#define ADGEN_STDIO_H
#include <stddef.h>
typedef struct adgen_FILE FILE;
extern FILE *stdin; extern FILE *stdout; extern FILE *stderr;
#define EOF (-1)
int printf(const char *, ...); int fprintf(FILE *, const char *, ...);
int sprintf(char *, const char *, ...); int snprintf(char *, size_t, const char *, ...);
int puts(const char *); int putchar(int); int fputs(const char *, FILE *);
int scanf(const char *, ...); int fscanf(FILE *, const char *, ...); int sscanf(const char *, const char *, ...);
FILE *fopen(const char *, const char *); int fclose(FILE *); int fflush(FILE *);
size_t fread(void *, size_t, size_t, FILE *); size_t fwrite(const void *, size_t, size_t, FILE *);
void perror(const char *);
#endif
