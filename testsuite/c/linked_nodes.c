/* adgen-test
head: list_sum(list_sum)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
head: tree_energy(tree_energy)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
head: system_energy(system_energy)/(x)
arg x: double[6] = uniform(-1, 1)
*/
/* Structs pointing to structs of their own type, holding numbers that carry derivatives:
 * a list built from the front and walked through its `next` fields, a binary tree built
 * by insertion and summed recursively, bodies linked both ways and to the system holding
 * them (which points back to them), visited through an array of pointers. The shadow of
 * each node must point where the node points (the derivative code walked a list of null
 * shadows). */
#include <stdlib.h>

struct node { double v; struct node *next; };

double list_sum(int n, const double *x)
{
    struct node *head = NULL;
    for (int i = 0; i < n; i++) {
        struct node *nd = malloc(sizeof *nd);
        nd->v = x[i] * x[i];
        nd->next = head;
        head = nd;
    }
    double s = 0.0, w = 1.0;
    for (struct node *p = head; p != NULL; p = p->next) {
        s += w * p->v;
        w *= 0.5;
    }
    while (head) {
        struct node *t = head->next;
        free(head);
        head = t;
    }
    return s;
}

typedef struct tree { double key, weight; struct tree *left, *right; } Tree;

static Tree *insert(Tree *t, Tree *leaf)
{
    if (t == NULL) return leaf;
    if (leaf->key < t->key) t->left = insert(t->left, leaf);
    else t->right = insert(t->right, leaf);
    return t;
}

static double energy(const Tree *t, int depth)
{
    if (t == NULL) return 0.0;
    return t->weight * t->key * (depth + 1) + energy(t->left, depth + 1) +
           energy(t->right, depth + 1);
}

double tree_energy(int n, const double *x)
{
    Tree *leaves = malloc(n * sizeof *leaves), *root = NULL;
    for (int i = 0; i < n; i++) {
        leaves[i].key = x[i];
        leaves[i].weight = 1.0 + x[i] * x[(i + 1) % n];
        leaves[i].left = leaves[i].right = NULL;
        root = insert(root, &leaves[i]);
    }
    double e = energy(root, 0);
    free(leaves);
    return e;
}

struct system;
struct body { double q, m; struct system *sys; struct body *prev, *next; };
struct system { struct body *first; double g; int n; };
static double pair(const struct body *a, const struct body *b)
{
    double d = a->q - b->q;
    return a->sys->g * a->m * b->m / (1.0 + d * d);
}
double system_energy(const double *x)
{
    struct system sys = {NULL, 0.5 + x[0] * x[0], 0};
    struct body *b = malloc(3 * sizeof *b);
    for (int i = 0; i < 3; i++) {
        b[i].q = x[2 * i]; b[i].m = 1.0 + x[2 * i + 1] * x[2 * i + 1];
        b[i].sys = &sys;
        b[i].prev = i > 0 ? &b[i - 1] : NULL;
        b[i].next = i < 2 ? &b[i + 1] : NULL;
    }
    sys.first = b; sys.n = 3;
    double e = 0.0;
    for (struct body *p = sys.first; p; p = p->next)
        for (struct body *q = p->prev; q; q = q->prev) e += pair(p, q);
    struct body *nbrs[3] = {&b[2], &b[0], &b[1]};
    for (int i = 0; i < 3; i++) e += nbrs[i]->m * nbrs[(i + 1) % 3]->q;
    free(b);
    return e;
}
