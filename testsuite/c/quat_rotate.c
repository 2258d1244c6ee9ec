/* adgen-test
head: rotate_points(out)/(q pts)
arg npts: int = 5
arg q: double[4] = uniform(-1, 1)
arg pts: double[3*npts] = uniform(-2, 2)
arg out: double[3*npts+1]
*/
/* Rotation of a point cloud by a unit quaternion built from an unnormalized one.  Small
 * value types (Vec3, Quat) are passed and returned by value; the rotation is
 * p' = q p q*.  The last output is the mean squared displacement. */
#include <math.h>

typedef struct { double x, y, z; } Vec3;
typedef struct { double w, x, y, z; } Quat;

static Quat quat_mul(Quat a, Quat b)
{
    Quat r;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    return r;
}

static Quat quat_conj(Quat a)
{
    Quat r = {a.w, -a.x, -a.y, -a.z};
    return r;
}

static Quat quat_normalized(Quat a)
{
    const double inv = 1.0 / sqrt(a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z);
    Quat r;
    r.w = a.w * inv;
    r.x = a.x * inv;
    r.y = a.y * inv;
    r.z = a.z * inv;
    return r;
}

static Vec3 rotate(Quat q, Vec3 v)
{
    Quat p = {0.0, v.x, v.y, v.z};
    Quat r = quat_mul(quat_mul(q, p), quat_conj(q));
    Vec3 out;
    out.x = r.x;
    out.y = r.y;
    out.z = r.z;
    return out;
}

static double dist2(Vec3 a, Vec3 b)
{
    return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z);
}

void rotate_points(int npts, const double *q, const double *pts, double *out)
{
    Quat qq = {q[0], q[1], q[2], q[3]};
    const Quat u = quat_normalized(qq);
    double msd = 0.0;
    int i;
    for (i = 0; i < npts; i++) {
        const double *p = pts + 3 * i;
        Vec3 v = {p[0], p[1], p[2]};
        Vec3 w = rotate(u, v);
        out[3 * i] = w.x;
        out[3 * i + 1] = w.y;
        out[3 * i + 2] = w.z;
        msd += dist2(v, w) / npts;
    }
    out[3 * npts] = msd;
}
