/* adgen-test
head: total(total)/(x)
arg n: int = 4
arg x: double[n] = uniform(0.5, 1.5)
*/
/* Pointer casts that reinterpret nothing: between spellings of one type (f2c's
 * doublereal), a row of a 2-D array seen as a flat array, through void * and back, and
 * of an integer array read as unsigned integers. They are differentiated as the accesses
 * they spell (the check that refuses a float read as an integer leaves them alone). */
#include <string.h>

typedef double doublereal;

double total(int n, const double *x)
{
    double grid[2][4];
    const doublereal *xr = (const doublereal *)x;
    void *raw = (void *)grid;
    double *flat = (double *)raw;
    int counts[4] = {1, 2, 3, 4};
    const unsigned *uc = (const unsigned *)counts;
    double s = 0.0;
    int i;
    for (i = 0; i < 4; i++) {
        grid[0][i] = xr[i % n] * xr[i % n];
        grid[1][i] = xr[(i + 1) % n] * (double)uc[i];
    }
    for (i = 0; i < 8; i++)
        s = s + flat[i] * ((double *)grid)[7 - i];
    return s;
}
