/* adgen-test
head: eval_tree(eval_tree)/(x)
arg x: double[3] = uniform(0.5, 1.5)
head: weighted_dots(weighted_dots)/(w x)
arg w: double[3] = uniform(-1, 1)
arg x: double[3] = uniform(-1, 1)
*/
/* Pointers to const held in struct fields, handed to functions: an expression tree whose
 * nodes point to their `const` children, a parameter block holding `const double *`. The
 * adjoint routines take writable shadows, and a shadow struct has the primal's type, so
 * such a field's shadow is passed cast (the output did not compile). */
#include <math.h>

enum op { LEAF, ADD, MUL, SIN, DIV };
typedef struct expr { enum op op; double value; const struct expr *kid[2]; } Expr;

static double eval(const Expr *e)
{
    switch (e->op) {
    case LEAF: return e->value;
    case ADD: return eval(e->kid[0]) + eval(e->kid[1]);
    case MUL: return eval(e->kid[0]) * eval(e->kid[1]);
    case DIV: return eval(e->kid[0]) / eval(e->kid[1]);
    case SIN: return sin(eval(e->kid[0]));
    }
    return 0.0;
}

double eval_tree(const double *x)
{
    Expr a = {LEAF, x[0], {0, 0}}, b = {LEAF, x[1], {0, 0}}, c = {LEAF, x[2], {0, 0}};
    Expr ab = {MUL, 0, {&a, &b}}, s = {SIN, 0, {&ab, 0}}, d = {DIV, 0, {&s, &c}};
    Expr root = {ADD, 0, {&d, &a}};
    return eval(&root);
}

typedef struct { const double *w; int n; } Weights;

static double dot(const double *w, const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += w[i] * x[i];
    return s;
}

double weighted_dots(const double *w, const double *x)
{
    Weights p = {w, 3};
    return dot(p.w, x, p.n) * dot(p.w + 1, x, 2);
}
