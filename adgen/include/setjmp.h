#ifndef ADGEN_SETJMP_H
#define ADGEN_SETJMP_H
typedef long jmp_buf[8];
int setjmp(jmp_buf); void longjmp(jmp_buf, int);
#endif
