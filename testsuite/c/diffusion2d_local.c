/* adgen-test
head: diffuse2d(field)/(field alpha)
arg field: double[NX*NY] = uniform(0, 1)
arg alpha: double = uniform(0.1, 0.2)
arg nsteps: int = 5
*/
/* 2-D diffusion on a small fixed grid held in two local 2-D arrays; the time loop swaps
 * two pointers-to-rows between them.  Dirichlet zero boundary written explicitly; a static
 * global scratch row is reused by a helper that smooths each row afterwards (legacy
 * style). */
#include <string.h>

#define NX 6
#define NY 5

static double scratch_row[NY];

static void smooth_row(double *row, double w)
{
    int j;
    for (j = 0; j < NY; j++)
        scratch_row[j] = row[j];
    for (j = 1; j < NY - 1; j++)
        row[j] = (1.0 - 2.0 * w) * scratch_row[j] + w * (scratch_row[j - 1] + scratch_row[j + 1]);
}

void diffuse2d(double *field, double alpha, int nsteps)
{
    double a[NX][NY], b[NX][NY];
    double (*cur)[NY] = a, (*nxt)[NY] = b;
    int i, j, s;

    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++)
            a[i][j] = field[i * NY + j];
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++)
            b[i][j] = 0.0;

    for (s = 0; s < nsteps; s++) {
        double (*tmp)[NY];
        for (i = 1; i < NX - 1; i++)
            for (j = 1; j < NY - 1; j++)
                nxt[i][j] = cur[i][j] + alpha * (cur[i - 1][j] + cur[i + 1][j] + cur[i][j - 1]
                                                 + cur[i][j + 1] - 4.0 * cur[i][j]);
        for (i = 0; i < NX; i++) {
            nxt[i][0] = 0.0;
            nxt[i][NY - 1] = 0.0;
        }
        for (j = 0; j < NY; j++) {
            nxt[0][j] = 0.0;
            nxt[NX - 1][j] = 0.0;
        }
        tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    for (i = 0; i < NX; i++) {
        smooth_row(cur[i], 0.1);
        for (j = 0; j < NY; j++)
            field[i * NY + j] = cur[i][j];
    }
}
