/* adgen-test
head: mix(a)/(a)
arg n: int = 5
arg perm: int[5] = {2, 1, 4, 3, 0}
arg a: double[5] = uniform(0.5, 1.5)
sizes: give
*/
/* Assignments whose target may be one of the elements they read, as a permutation read at
 * run time decides (`a[i] *= a[perm[i]]` with perm[1] == 1): the adjoint of each must
 * read the value from before the assignment. */
void mix(int n, const int *perm, double *a)
{
    for (int i = 0; i < n; i++) a[i] *= a[perm[i]];
    for (int i = 0; i < n; i++) a[perm[i]] = a[i] * a[perm[i]] + a[(i + 1) % n];
    for (int i = 0; i < n; i++) {
        int j = perm[i];
        a[j] += a[i] * a[j];
        a[i] = a[j] / (1.0 + a[i] * a[i]);
    }
}
