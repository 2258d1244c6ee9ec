#ifndef ADGEN_F2C_H
#define ADGEN_F2C_H
/* The types and macros of f2c's header, as C that f2c translated from Fortran includes it
   (`#include "f2c.h"`), for programs whose own directories hold no f2c.h: integers of 32
   bits, as Debian's f2c.h declares them. A program translated for other integers passes
   its own header with -I. The output does not include this file: it defines the types it
   uses and declares the libf2c routines it calls (docs/c-subset.md). */

typedef int integer;
typedef unsigned int uinteger;
typedef char *address;
typedef short shortint;
typedef float real;
typedef double doublereal;
typedef struct { real r, i; } complex;
typedef struct { doublereal r, i; } doublecomplex;
typedef int logical;
typedef short shortlogical;
typedef char logical1;
typedef char integer1;

#define TRUE_ (1)
#define FALSE_ (0)
#ifndef Extern
#define Extern extern
#endif
#define VOID void

/* the control blocks of Fortran I/O statements */
typedef int flag;
typedef int ftnlen;
typedef int ftnint;

typedef struct {                /* READ and WRITE of an external unit */
    flag cierr;
    ftnint ciunit;
    flag ciend;
    char *cifmt;
    ftnint cirec;
} cilist;

typedef struct {                /* READ and WRITE of an internal file (a string) */
    flag icierr;
    char *iciunit;
    flag iciend;
    char *icifmt;
    ftnint icirlen;
    ftnint icirnum;
} icilist;

typedef struct {                /* OPEN */
    flag oerr;
    ftnint ounit;
    char *ofnm;
    ftnlen ofnmlen;
    char *osta;
    char *oacc;
    char *ofm;
    ftnint orl;
    char *oblnk;
} olist;

typedef struct {                /* CLOSE */
    flag cerr;
    ftnint cunit;
    char *csta;
} cllist;

typedef struct {                /* REWIND, BACKSPACE, ENDFILE */
    flag aerr;
    ftnint aunit;
} alist;

/* the intrinsic functions of Fortran 77 that are macros in f2c's output */
#define abs(x) ((x) >= 0 ? (x) : -(x))
#define dabs(x) (doublereal)abs(x)
#define min(a,b) ((a) <= (b) ? (a) : (b))
#define max(a,b) ((a) >= (b) ? (a) : (b))
#define dmin(a,b) (doublereal)min(a,b)
#define dmax(a,b) (doublereal)max(a,b)
#define bit_test(a,b) ((a) >> (b) & 1)
#define bit_clear(a,b) ((a) & ~((uinteger)1 << (b)))
#define bit_set(a,b) ((a) | ((uinteger)1 << (b)))

/* procedure arguments (EXTERNAL dummies) */
typedef int (*U_fp)();
typedef integer (*I_fp)();
typedef real (*R_fp)();
typedef doublereal (*D_fp)(), (*E_fp)();
typedef logical (*L_fp)();
typedef int (*S_fp)();
typedef doublereal E_f;

#endif
