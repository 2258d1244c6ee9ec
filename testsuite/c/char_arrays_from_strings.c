/* adgen-test
head: weighted(weighted)/(x)
arg n: int = 3
arg x: double[n] = {0.4, -1.1, 0.8}
*/
/* Local character arrays set from string literals, as C sets them: the characters, the
 * terminating zero and zeros after it (`char mode[] = "fast";`, `char tag[8] = "a\tb"`,
 * literals written in two parts, strings in the list of a struct and of a 2-D array), read
 * by index and by strlen to choose the branch and a weight. */
#include <string.h>

typedef struct {
    char name[4];
    double w;
} Item;

double weighted(int n, const double *x)
{
    char mode[] = "fast";
    char tag[8] = "a\tb";
    char joined[] = "ab" "cd";
    Item item = {"ab", 2.0};
    char grid[2][3] = {"ab", "c"};
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        if (mode[0] == 'f' && tag[1] == '\t' && tag[5] == 0)
            s = s + x[i] * x[i] * (double)strlen(joined);
        else
            s = s + x[i];
    }
    if (item.name[1] == 'b' && grid[1][0] == 'c' && grid[1][1] == 0)
        s = s * item.w;
    return s + (double)(sizeof mode) * x[0];
}
