/* adgen-test
head: resid_(fvec)/(x)
arg n: int[1] = {4}
arg x: double[4] = uniform(0.5, 1.5)
arg fvec: double[4]
link: include/f2c_io_stubs.c
*/
/* Fortran WRITE statements and a STOP as f2c translates them: a start (s_wsle for a
 * list-directed WRITE, s_wsfe for a formatted one) with its control block, one call per
 * item with the item's address as char * (the residual being written is active), and an
 * end; the control blocks, the format string and the constants passed by address are
 * static (the control block's struct is tagged here, for the stubs of include/). The writes run at every call (the test's inputs pass the check); the STOP does
 * not. The items are printed, not computed with: the derivative code keeps the calls in
 * its forward sweep. The types are those of f2c.h, written out. */
typedef int integer;
typedef double doublereal;
typedef int ftnlen;
typedef int flag;
typedef int ftnint;
typedef struct cilist_s { flag cierr; ftnint ciunit; flag ciend; char *cifmt; ftnint cirec; } cilist;

static integer c__9 = 9;
static integer c__1 = 1;
static integer c__5 = 5;
static integer c__3 = 3;

/* Subroutine */ int resid_(integer *n, doublereal *x, doublereal *fvec)
{
    /* Format strings */
    static char fmt_100[] = "(1x,\002RESIDUAL \002,i3,d15.7)";

    /* System generated locals */
    integer i__1;
    doublereal d__1;

    /* Builtin functions */
    integer s_wsle(cilist *), do_lio(integer *, integer *, char *, ftnlen),
            e_wsle(void), s_wsfe(cilist *), do_fio(integer *, char *, ftnlen),
            e_wsfe(void);
    /* Subroutine */ int s_stop(char *, ftnlen);

    /* Local variables */
    static integer i__;

    /* Fortran I/O blocks */
    static cilist io___2 = { 0, 6, 0, 0, 0 };
    static cilist io___3 = { 0, 6, 0, fmt_100, 0 };

    /* Parameter adjustments */
    --fvec;
    --x;

    /* Function Body */
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        d__1 = x[i__];
        fvec[i__] = d__1 * d__1 * x[i__ % *n + 1] - 1.;
        if (fvec[i__] > -10.) {
            s_wsfe(&io___3);
            do_fio(&c__1, (char *)&i__, (ftnlen)sizeof(integer));
            do_fio(&c__1, (char *)&fvec[i__], (ftnlen)sizeof(doublereal));
            e_wsfe();
        }
    }
    if (fvec[1] < -100.) {
        s_wsle(&io___2);
        do_lio(&c__9, &c__1, "NEGATIVE RESIDUAL", (ftnlen)17);
        do_lio(&c__5, &c__1, (char *)&fvec[1], (ftnlen)sizeof(doublereal));
        do_lio(&c__3, &c__1, (char *)&(*n), (ftnlen)sizeof(integer));
        e_wsle();
        s_stop("", (ftnlen)0);
    }
    return 0;
} /* resid_ */
