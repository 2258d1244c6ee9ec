/* adgen-test
head: response(response)/(x)
arg x: double = 0.7
expect-error: the static global 'calls' keeps its value from one call of 'response' to the next
expect-error-line: 11
*/
/* Must be refused: the head counts its calls in a static int and branches on the count.
 * The output could only keep its own copy of the counter, which the program's calls of
 * response do not advance: from the second call on, the derivative would be that of the
 * other branch. */
static int calls = 0;

double response(double x)
{
    calls++;
    if (calls > 1)
        return x * x;
    return x;
}
