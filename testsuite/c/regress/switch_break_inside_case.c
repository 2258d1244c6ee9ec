/* adgen-test
head: mixed(y)/(x)
arg n: int = 12
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[2]
*/
/* switch statements as they are written: a break inside a case (it leaves the switch,
 * not the loop around it), a case ending in a block that ends in break, a case falling
 * through into the next one, a default in the middle, a default without a break at the
 * end, a continue inside a switch left early by break, a nested switch and a selector
 * computed by a call. */
static int pick(int i, int n)
{
    return (3 * i + 1) % n;
}

void mixed(int n, const double *x, double *y)
{
    int i;
    double s = 0.0, t = 1.0;
    for (i = 0; i < n; i++) {
        switch (i % 4) {
        case 0:
            if (x[i] > 1.0)
                break;              /* leaves the switch only */
            s += x[i] * x[i];
            break;
        case 1: {
            double u = x[i] * t;
            s += u;
            break;
        }
        default:
            s += 0.5 * x[i];
            /* falls through */
        case 2:
            t = t * (1.0 + 0.1 * x[i]);
            break;
        }
        switch (pick(i, n) % 3) {
        case 0:
            if (x[i] < 0.8)
                continue;           /* the next i: the rest of the body is skipped */
            if (x[i] > 1.3)
                break;
            t += x[i];
            break;
        case 1:
            switch (i % 2) {
            case 0:
                s -= 0.25 * x[i] * t;
                break;
            default:
                if (x[i] > 1.0)
                    break;
                t *= x[i];
            }
            break;
        default:
            s += x[i] / t;
        }
        s += 0.01 * x[i] * t;
    }
    y[0] = s;
    y[1] = t;
}
