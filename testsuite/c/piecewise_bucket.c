/* adgen-test
head: hydro_model(flow)/(params precip)
arg ndays: int = 10
arg params: double[4] = {0.6, 0.15, 12.0, 0.3}
arg precip: double[ndays] = {3.1, 0.0, 7.7, 12.4, 0.4, 0.0, 5.3, 20.1, 1.2, 0.0}
arg flow: double[ndays]
seed: 3
*/
/* A bucket rainfall-runoff model: soil storage filled by rain, clamped to its capacity
 * with fmin/fmax, overflow as quick flow, evaporation limited by storage, slow drainage
 * above a threshold through an if/else.  Typical piecewise-smooth hydrology code; the
 * inputs keep every day away from the kinks. */
#include <math.h>

void hydro_model(int ndays, const double *params, const double *precip, double *flow)
{
    const double evap_rate = params[0];     /* mm/day */
    const double k_drain = params[1];
    const double capacity = params[2];
    const double frac_direct = params[3];
    double store = 0.5 * capacity;
    int d;
    for (d = 0; d < ndays; d++) {
        const double infil = (1.0 - frac_direct) * precip[d];
        double quick = frac_direct * precip[d];
        double slow, excess;
        store += infil;
        excess = fmax(store - capacity, 0.0);
        store = fmin(store, capacity);
        quick += excess;
        store -= fmin(evap_rate, store);
        if (store > 0.4 * capacity) {
            slow = k_drain * (store - 0.4 * capacity);
            store -= slow;
        } else {
            slow = 0.0;
        }
        flow[d] = quick + slow;
    }
}
