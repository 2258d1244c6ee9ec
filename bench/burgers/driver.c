/* Benchmark driver of the Burgers misfit and adgen's checkpointed adjoint of it; modes in
 * common/gradient_driver.h, sizes N (grid points) NSTEPS.  Built against burgers.c, or with
 * -DBURGERS_FORTRAN against the gfortran-compiled burgers.F90 and adgen's adjoint of it
 * (arguments by reference).  With -DBURGERS_REFERENCE it also links the adjoint adgen
 * writes without checkpointing, renamed burgers_objective_ref_b(_), for the `ref` mode.
 *
 * The run always covers the time span 0..0.5, so more steps mean a finer time step: the
 * initial wave steepens into a front that the viscosity keeps smooth. */
#include "../common/gradient_driver.h"
#include "burgers.h"

#ifdef BURGERS_FORTRAN
void burgers_objective_(int *n, int *nsteps, double *u0, double *nu_face, double *u_obs,
                        double *dt, double *dx, double *u, double *u_next, double *misfit);
#define ADJOINT_ARGS(p)                                                                     \
    (&(p)->n, &(p)->nsteps, (p)->u0, (p)->u0b, (p)->nu_face, (p)->nu_faceb, (p)->u_obs,     \
     &(p)->dt, &(p)->dx, (p)->u, (p)->u_next, &(p)->misfit, &(p)->misfitb)
void burgers_objective_b_(int *n, int *nsteps, double *u0, double *u0b, double *nu_face,
                          double *nu_faceb, double *u_obs, double *dt, double *dx, double *u,
                          double *u_next, double *misfit, double *misfitb);
void burgers_objective_ref_b_(int *n, int *nsteps, double *u0, double *u0b, double *nu_face,
                              double *nu_faceb, double *u_obs, double *dt, double *dx,
                              double *u, double *u_next, double *misfit, double *misfitb);
#define ADJOINT burgers_objective_b_
#define REFERENCE burgers_objective_ref_b_
#else
#define ADJOINT_ARGS(p)                                                                     \
    ((p)->n, (p)->nsteps, (p)->u0, (p)->u0b, (p)->nu_face, (p)->nu_faceb, (p)->u_obs,       \
     (p)->dt, (p)->dx, (p)->u, (p)->u_next, &(p)->misfit, &(p)->misfitb)
void burgers_objective_b(int n, int nsteps, const double *u0, double *u0b,
                         const double *nu_face, double *nu_faceb, const double *u_obs,
                         double dt, double dx, double *u, double *u_next, double *misfit,
                         double *misfitb);
void burgers_objective_ref_b(int n, int nsteps, const double *u0, double *u0b,
                             const double *nu_face, double *nu_faceb, const double *u_obs,
                             double dt, double dx, double *u, double *u_next, double *misfit,
                             double *misfitb);
#define ADJOINT burgers_objective_b
#define REFERENCE burgers_objective_ref_b
#endif

#define FINAL_TIME 0.5
#define PI 3.14159265358979323846

typedef struct {
    int n, nsteps;
    double dt, dx;
    double *u0, *nu_face, *u_obs, *u, *u_next, *u0b, *nu_faceb;
    double misfit, misfitb;
} Burgers;

static void run_primal(void *ctx)
{
    Burgers *p = ctx;
#ifdef BURGERS_FORTRAN
    burgers_objective_(&p->n, &p->nsteps, p->u0, p->nu_face, p->u_obs, &p->dt, &p->dx, p->u,
                       p->u_next, &p->misfit);
#else
    burgers_objective(p->n, p->nsteps, p->u0, p->nu_face, p->u_obs, p->dt, p->dx, p->u,
                      p->u_next, &p->misfit);
#endif
}

static void run_adgen(void *ctx)
{
    Burgers *p = ctx;
    p->misfitb = 1.0;
    ADJOINT ADJOINT_ARGS(p);
    bench_flush_deferred();
}

#ifdef BURGERS_REFERENCE
static void run_reference(void *ctx)
{
    Burgers *p = ctx;
    p->misfitb = 1.0;
    REFERENCE ADJOINT_ARGS(p);
    bench_flush_deferred();
}
#endif

static void setup(BenchModel *bm, const int *sizes)
{
    static Burgers p;
    int i;
    p.n = sizes[0];
    p.nsteps = sizes[1];
    p.dx = 1.0 / p.n;
    p.dt = FINAL_TIME / p.nsteps;
    p.u0 = bench_alloc(p.n);
    p.nu_face = bench_alloc(p.n);
    p.u_obs = bench_alloc(p.n);
    p.u = bench_alloc(p.n);
    p.u_next = bench_alloc(p.n);
    p.u0b = bench_alloc(p.n);
    p.nu_faceb = bench_alloc(p.n);
    bench_seed(20240614);
    for (i = 0; i < p.n; i++) {
        double x = i * p.dx;
        p.u0[i] = 0.5 + 0.4 * sin(2.0 * PI * x) + bench_uniform(-0.01, 0.01);
        p.nu_face[i] = 1.0 + 0.5 * sin(4.0 * PI * x) + bench_uniform(0.0, 0.2);
        p.u_obs[i] = 0.5 + 0.3 * sin(2.0 * PI * (x - 0.2));
    }
    bm->n_inputs = 2;
    bm->inputs[0] = (BenchInput){"u0", p.u0, p.u0b, p.n};
    bm->inputs[1] = (BenchInput){"nu_face", p.nu_face, p.nu_faceb, p.n};
    bm->ctx = &p;
    bm->primal = run_primal;
    bm->adjoint = run_adgen;
#ifdef BURGERS_REFERENCE
    bm->reference = run_reference;
#endif
    bm->value = &p.misfit;
    bm->seed = &p.misfitb;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, 2, "N NSTEPS", setup);
}
