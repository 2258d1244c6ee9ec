/* adgen-test
head: reprojection_errors(err)/(cams points weights)
arg ncams: int = 2
arg npts: int = 3
arg nobs: int = 5
arg cams: double[11*ncams] = {0.1, -0.2, 0.05, 0.3, -0.1, -2.0, 1.2, 0.01, -0.02, 0.05, -0.01, -0.15, 0.1, 0.2, -0.4, 0.2, -1.5, 0.9, -0.03, 0.02, -0.04, 0.02}
arg points: double[3*npts] = {0.5, -0.3, 4.0, -0.6, 0.4, 3.5, 0.1, 0.8, 5.0}
arg obs_cam: int[nobs] = {0, 0, 1, 1, 0}
arg obs_pt: int[nobs] = {0, 1, 1, 2, 2}
arg feats: double[2*nobs] = uniform(-0.3, 0.3)
arg weights: double[nobs] = uniform(0.5, 1.5)
arg err: double[3*nobs]
*/
/* Bundle-adjustment reprojection errors (written for this project, after the usual
 * formulation).  A camera is 11 numbers: Rodrigues rotation vector (3), centre (3), focal
 * length, principal point (2), radial distortion (2).  Small fixed-size local arrays,
 * rodrigues rotation with a small-angle branch, radial distortion; observations pick
 * camera and point through int index arrays.  err holds the two weighted residuals of each
 * observation and a Zach-style robust weight term. */
#include <math.h>

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void rodrigues_rotate(const double *rot, const double *pt, double *out)
{
    double sqtheta = dot3(rot, rot);
    int i;
    if (sqtheta > 1e-12) {
        double theta = sqrt(sqtheta);
        double costh = cos(theta), sinth = sin(theta);
        double axis[3], w_cross_pt[3], tmp;
        for (i = 0; i < 3; i++)
            axis[i] = rot[i] / theta;
        cross3(axis, pt, w_cross_pt);
        tmp = dot3(axis, pt) * (1.0 - costh);
        for (i = 0; i < 3; i++)
            out[i] = pt[i] * costh + w_cross_pt[i] * sinth + axis[i] * tmp;
    } else {
        double rot_cross_pt[3];
        cross3(rot, pt, rot_cross_pt);
        for (i = 0; i < 3; i++)
            out[i] = pt[i] + rot_cross_pt[i];
    }
}

static void radial_distort(const double *rad, double *proj)
{
    double rsq = proj[0] * proj[0] + proj[1] * proj[1];
    double l = 1.0 + rad[0] * rsq + rad[1] * rsq * rsq;
    proj[0] *= l;
    proj[1] *= l;
}

static void project(const double *cam, const double *pt, double *proj)
{
    double xo[3], xcam[3];
    int i;
    for (i = 0; i < 3; i++)
        xo[i] = pt[i] - cam[3 + i];
    rodrigues_rotate(cam, xo, xcam);
    proj[0] = xcam[0] / xcam[2];
    proj[1] = xcam[1] / xcam[2];
    radial_distort(&cam[9], proj);
    proj[0] = proj[0] * cam[6] + cam[7];
    proj[1] = proj[1] * cam[6] + cam[8];
}

void reprojection_errors(int ncams, int npts, int nobs, const double *cams, const double *points,
                         const int *obs_cam, const int *obs_pt, const double *feats,
                         const double *weights, double *err)
{
    double proj[2];
    int o;
    (void)ncams;
    (void)npts;
    for (o = 0; o < nobs; o++) {
        project(&cams[11 * obs_cam[o]], &points[3 * obs_pt[o]], proj);
        err[2 * o] = weights[o] * (proj[0] - feats[2 * o]);
        err[2 * o + 1] = weights[o] * (proj[1] - feats[2 * o + 1]);
        err[2 * nobs + o] = 1.0 - weights[o] * weights[o];
    }
}
