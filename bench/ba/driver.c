/* Benchmark driver of the bundle-adjustment objective (ba.c) and adgen's adjoint
 * ba_objective_b; modes in common/gradient_driver.h, sizes N_CAMS N_PTS N_OBS.
 *
 * The scene: points in the unit cube, cameras about 10 units away looking at it, each
 * point observed at least once, each camera at least once.  The observations are the
 * projections through the true cameras plus pixel noise; the objective is evaluated at
 * perturbed cameras and points, as at an iterate of a solver. */
#include "../common/gradient_driver.h"
#include "ba.h"

void ba_objective_b(int n_cams, int n_pts, int n_obs, const double *cams, double *camsb,
                    const double *pts, double *ptsb, const int *obs_cam, const int *obs_pt,
                    const double *feats, double *err, double *errb);

typedef struct {
    int n_cams, n_pts, n_obs;
    double *cams, *pts, *feats, *camsb, *ptsb;
    int *obs_cam, *obs_pt;
    double err, errb;
} Scene;

static void random_camera(double *cam)
{
    bench_fill(cam, 3, -0.2, 0.2);            /* rotation */
    bench_fill(cam + 3, 2, -1.0, 1.0);        /* centre */
    cam[5] = bench_uniform(-11.0, -9.0);
    cam[6] = bench_uniform(400.0, 600.0);     /* focal length in pixels */
    bench_fill(cam + 7, 2, -5.0, 5.0);        /* principal point */
    cam[9] = bench_uniform(-0.1, 0.1);        /* radial distortion */
    cam[10] = bench_uniform(-0.01, 0.01);
}

/* Moves every value by a relative amount up to `scale`. */
static void perturb(double *a, long n, double scale)
{
    long i;
    for (i = 0; i < n; i++)
        a[i] += scale * bench_uniform(-1.0, 1.0) * (fabs(a[i]) > 0.1 ? fabs(a[i]) : 0.1);
}

static void run_primal(void *ctx)
{
    Scene *s = ctx;
    ba_objective(s->n_cams, s->n_pts, s->n_obs, s->cams, s->pts, s->obs_cam, s->obs_pt,
                 s->feats, &s->err);
}

static void run_adgen(void *ctx)
{
    Scene *s = ctx;
    s->errb = 1.0;
    ba_objective_b(s->n_cams, s->n_pts, s->n_obs, s->cams, s->camsb, s->pts, s->ptsb,
                   s->obs_cam, s->obs_pt, s->feats, &s->err, &s->errb);
    bench_flush_deferred();
}

static void setup(BenchModel *bm, const int *sizes)
{
    static Scene s;
    long ncam = (long)BA_CAM_PARAMS * sizes[0];
    int i;
    s.n_cams = sizes[0];
    s.n_pts = sizes[1];
    s.n_obs = sizes[2];
    s.cams = bench_alloc(ncam);
    s.pts = bench_alloc(3L * s.n_pts);
    s.feats = bench_alloc(2L * s.n_obs);
    s.camsb = bench_alloc(ncam);
    s.ptsb = bench_alloc(3L * s.n_pts);
    s.obs_cam = malloc((size_t)s.n_obs * sizeof(int));
    s.obs_pt = malloc((size_t)s.n_obs * sizeof(int));
    bench_seed(20240613);
    for (i = 0; i < s.n_cams; i++)
        random_camera(&s.cams[BA_CAM_PARAMS * i]);
    bench_fill(s.pts, 3L * s.n_pts, -1.0, 1.0);
    for (i = 0; i < s.n_obs; i++) {
        s.obs_pt[i] = i % s.n_pts;
        s.obs_cam[i] = i < s.n_cams ? i : (int)bench_uniform(0.0, (double)s.n_cams);
        ba_project(&s.cams[BA_CAM_PARAMS * s.obs_cam[i]], &s.pts[3 * s.obs_pt[i]],
                   &s.feats[2 * i]);
        s.feats[2 * i] += bench_uniform(-0.5, 0.5);
        s.feats[2 * i + 1] += bench_uniform(-0.5, 0.5);
    }
    perturb(s.cams, ncam, 1e-3);
    perturb(s.pts, 3L * s.n_pts, 1e-3);

    bm->n_inputs = 2;
    bm->inputs[0] = (BenchInput){"cams", s.cams, s.camsb, ncam};
    bm->inputs[1] = (BenchInput){"pts", s.pts, s.ptsb, 3L * s.n_pts};
    bm->ctx = &s;
    bm->primal = run_primal;
    bm->adjoint = run_adgen;
    bm->value = &s.err;
    bm->seed = &s.errb;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, 3, "N_CAMS N_PTS N_OBS", setup);
}
