/* adgen-test
head: periodic_blur(out)/(img)
arg w: int = 5
arg h: int = 4
arg img: double[w*h] = uniform(0, 1)
arg out: double[w*h+w]
*/
/* Integer index arithmetic on a flattened w x h image: row/column from i / w and i % w,
 * periodic neighbours with modulo, a transpose written through computed indices, and an
 * integer weight computed from the indices. */
void periodic_blur(int w, int h, const double *img, double *out)
{
    int i;
    for (i = 0; i < w * h; i++) {
        int r = i / w, c = i % w;
        int up = ((r + h - 1) % h) * w + c;
        int down = ((r + 1) % h) * w + c;
        int left = r * w + (c + w - 1) % w;
        int right = r * w + (c + 1) % w;
        int weight = 1 + (r * 3 + c) % 4;
        double v = 0.5 * img[i] + 0.125 * (img[up] + img[down] + img[left] + img[right]);
        out[c * h + r] = v * v * weight;      /* transposed */
    }
    for (i = 0; i < w; i++) {
        int k = (i * 7 + 3) % (w * h);
        out[w * h + i] = img[k] * img[(k + w) % (w * h)];
    }
}
