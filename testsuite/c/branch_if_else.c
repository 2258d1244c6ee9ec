/* adgen-test
head: material_stress(sigma)/(strain young)
arg n: int = 12
arg strain: double[n] = uniform(-1.5, 1.5)
arg young: double = uniform(1, 3)
arg sigma: double[n]
*/
/* A piecewise material law: an if / else if / else chain on an active value, a nested if
 * without else, and a branch on the index. */
void material_stress(int n, const double *strain, double young, double *sigma)
{
    int i;
    for (i = 0; i < n; i++) {
        double s = strain[i];
        double v;
        if (s < -0.5) {
            v = -0.5 * young + 0.1 * young * (s + 0.5);
        } else if (s < 0.5) {
            v = young * s;
        } else {
            double over = s - 0.5;
            v = 0.5 * young + 0.1 * young * over - 0.05 * young * over * over;
        }
        if (i % 2 == 0) {
            if (v > 0.0)
                v = v * (1.0 + 0.01 * v);
        } else {
            v *= 0.9;
        }
        sigma[i] = v;
    }
}
