/* adgen-test
head: simulate_bodies(state)/(state params)
arg state: double[NB*6] = uniform(-1, 1)
arg params: double[2] = {0.3, 0.05}
arg nsteps: int = 4
*/
/* Legacy-style simulation code: model parameters are copied into file-scope globals that
 * the helpers read; bodies are an array of structs with fixed-size array members
 * (body[i].pos[k]); a nested struct holds the integrator settings.  Outputs overwrite
 * the packed state (positions then velocities for each body). */
#include <math.h>

#define NB 3

typedef struct {
    double pos[3];
    double vel[3];
} Body;

typedef struct {
    struct {
        double dt;
        int substeps;
    } integ;
    double gravity[3];
} World;

static double g_drag;      /* set from params on each call */
static double g_spring;

static void body_accel(const Body *b, const Body *anchor, double *acc)
{
    int k;
    for (k = 0; k < 3; k++)
        acc[k] = -g_spring * (b->pos[k] - anchor->pos[k]) - g_drag * b->vel[k] * fabs(b->vel[k]);
}

static void advance(Body *bodies, const World *w)
{
    Body old[NB];
    double acc[3];
    double h = w->integ.dt / w->integ.substeps;
    int s, i, k;
    for (s = 0; s < w->integ.substeps; s++) {
        for (i = 0; i < NB; i++)
            for (k = 0; k < 3; k++) {
                old[i].pos[k] = bodies[i].pos[k];
                old[i].vel[k] = bodies[i].vel[k];
            }
        for (i = 0; i < NB; i++) {
            body_accel(&old[i], &old[(i + 1) % NB], acc);
            for (k = 0; k < 3; k++) {
                bodies[i].vel[k] += h * (acc[k] + w->gravity[k]);
                bodies[i].pos[k] += h * bodies[i].vel[k];
            }
        }
    }
}

void simulate_bodies(double *state, const double *params, int nsteps)
{
    Body bodies[NB];
    World w = {{0.05, 2}, {0.0, 0.0, -9.81}};
    int t, i, k;
    g_spring = params[0];
    g_drag = params[1];
    for (i = 0; i < NB; i++)
        for (k = 0; k < 3; k++) {
            bodies[i].pos[k] = state[6 * i + k];
            bodies[i].vel[k] = state[6 * i + 3 + k];
        }
    for (t = 0; t < nsteps; t++)
        advance(bodies, &w);
    for (i = 0; i < NB; i++)
        for (k = 0; k < 3; k++) {
            state[6 * i + k] = bodies[i].pos[k];
            state[6 * i + 3 + k] = bodies[i].vel[k];
        }
}
