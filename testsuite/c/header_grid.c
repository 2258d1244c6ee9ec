/* adgen-test
head: relax_grid(out)/(grid)
arg cfg: GridCfg = {5, 0.3}
arg grid: double[cfg.n*cfg.n] = uniform(-1, 1)
arg out: double[cfg.n*cfg.n+1]
flags: -I include
*/
/* A program with its own header (include/vec_utils.h, found through `flags: -I include`):
 * the typedef real, the struct GridCfg passed by value, the macros IDX2, SQR, CLAMP and
 * LERP.  One damped Laplacian relaxation sweep of an n x n grid with clamped neighbours,
 * then a roughness measure. */
#include "vec_utils.h"

void relax_grid(GridCfg cfg, const real *grid, real *out)
{
    int i, j, n = cfg.n;
    real rough = 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            int up = CLAMP(i - 1, 0, n - 1), down = CLAMP(i + 1, 0, n - 1);
            int left = CLAMP(j - 1, 0, n - 1), right = CLAMP(j + 1, 0, n - 1);
            real avg = 0.25 * (grid[IDX2(up, j, n)] + grid[IDX2(down, j, n)]
                               + grid[IDX2(i, left, n)] + grid[IDX2(i, right, n)]);
            out[IDX2(i, j, n)] = LERP(grid[IDX2(i, j, n)], avg, cfg.damping);
        }
    }
    for (i = 0; i < n * n; i++)
        rough += SQR(out[i] - grid[i]);
    out[n * n] = rough;
}
