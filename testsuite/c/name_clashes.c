/* adgen-test
head: track_error(track_error)/(x target)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg target: double[n] = uniform(-1, 1)
arg base: double[n] = uniform(0, 1)
*/
/* Control-engineering naming: locals xd (desired state), xb (baseline), ed, eb, plus
 * locals called result, count, iter, branch, temp, tempb and targetb: the spellings
 * adgen itself uses for derivatives and temporaries appear in the user's code. */
#include <math.h>

static double weight(double result, int count)
{
    double temp = result / (1.0 + count);
    double resultb = temp * temp;
    return resultb;
}

double track_error(int n, const double *x, const double *target, const double *base)
{
    double result = 0.0, tempb = 0.0, targetb = 0.0;
    int count = 0, iter, branch = 0;
    for (iter = 0; iter < n; iter++) {
        double xd = target[iter];
        double xb = base[iter];
        double e = x[iter] - xd;
        double ed = e * xb, eb = ed + xd;
        double temp = ed;
        if (iter % 2 == 0)
            branch++;
        result += weight(e, count) + branch * temp * temp + 0.01 * eb * eb;
        tempb += sin(temp);
        targetb += xd * e;
        count++;
    }
    return result + 0.1 * tempb + 0.2 * targetb;
}
