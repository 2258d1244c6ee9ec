/* adgen-test
head: run_bank(st)/(co st)
arg co: Coeffs = handle
field co.nch: int = 3
field co.a: float[co.nch] = uniform(0.3, 0.7)
field co.b: float[co.nch] = uniform(0.2, 0.5)
field co.gain: float = uniform(0.8, 1.2)
arg st: Bank* = handle
field st.nch: int = 3
field st.z: float[st.nch] = uniform(-0.5, 0.5)
field st.level: float = 0.3
field st.out: float[8]
arg n: int = 8
arg input: float[n] = uniform(-1, 1)
tol: 2e-3
dot_tol: 1e-5
*/
/* An audio filter bank in single precision: one-pole sections (coefficients in a handle
 * passed by value) run over a buffer, their states and an envelope level carried in a
 * state handle updated in place through its pointer, the mixed output written into an
 * array the state points to. */
#include <math.h>

typedef struct {
    int nch;
    float *a, *b;       /* pole and input weight of each section */
    float gain;
} Coeffs;

typedef struct {
    int nch;
    float *z;           /* the state of each section */
    float level;        /* envelope follower */
    float *out;         /* the mixed output, one per input sample */
} Bank;

void run_bank(Coeffs co, Bank *st, int n, const float *input)
{
    int t, c;
    for (t = 0; t < n; t++) {
        float mix = 0.0f;
        for (c = 0; c < co.nch; c++) {
            st->z[c] = co.a[c] * st->z[c] + co.b[c] * input[t];
            mix += st->z[c] / (1.0f + st->z[c] * st->z[c]);
        }
        st->level = 0.9f * st->level + 0.1f * mix * mix;
        st->out[t] = co.gain * mix / sqrtf(0.5f + st->level);
    }
}
