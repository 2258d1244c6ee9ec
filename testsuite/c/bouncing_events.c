/* adgen-test
head: bounce_sim(final)/(state restitution)
arg state: double[4] = {0.0, 1.3, 0.7, 0.4}
arg restitution: double = uniform(0.7, 0.8)
arg nsteps: int = 40
arg final: double[5]
*/
/* A ball bouncing in a box with event handling inside the time loop: when a step would
 * take it through the floor or a wall, the position is reflected and the velocity
 * component flipped and scaled by the restitution; the number of bounces (an int) is
 * counted; the last output is the path length (hypot) per bounce. */
#include <math.h>

typedef struct {
    double x, y, vx, vy;
} Ball;

static int collide(double *pos, double *vel, double lo, double hi, double e)
{
    if (*pos < lo) {
        *pos = lo + (lo - *pos) * e;
        *vel = -e * *vel;
        return 1;
    }
    if (*pos > hi) {
        *pos = hi - (*pos - hi) * e;
        *vel = -e * *vel;
        return 1;
    }
    return 0;
}

void bounce_sim(const double *state, double restitution, int nsteps, double *final)
{
    const double dt = 0.02, g = 9.81, width = 1.0;
    Ball b = {state[0], state[1], state[2], state[3]};
    double path = 0.0;
    int bounces = 0, s;
    for (s = 0; s < nsteps; s++) {
        const double ox = b.x, oy = b.y;
        b.vy -= g * dt;
        b.x += dt * b.vx;
        b.y += dt * b.vy;
        bounces += collide(&b.y, &b.vy, 0.0, 10.0, restitution);
        bounces += collide(&b.x, &b.vx, 0.0, width, restitution);
        path += hypot(b.x - ox, b.y - oy);
    }
    final[0] = b.x;
    final[1] = b.y;
    final[2] = b.vx;
    final[3] = b.vy;
    final[4] = path / (1 + bounces);
}
