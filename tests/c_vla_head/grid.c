/* One relaxation sweep over an n x m grid passed as a variable-length 2-D array (in/out),
 * and the grid's energy: a head whose independent and dependent is `double u[n][m]`. */
#include <math.h>

void relax(int n, int m, double u[n][m], double w, double *energy)
{
    int i, j;
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < m - 1; j++)
            u[i][j] = (1.0 - w) * u[i][j] +
                      0.25 * w * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] * u[i][j + 1]);
    *energy = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            *energy += sin(u[i][j]) * u[i][j];
}
