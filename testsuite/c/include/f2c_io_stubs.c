/* libf2c's routines of WRITE statements and STOP, for testsuite/c/f2c_write_statements.c
 * (written for this project): they count the items written, in f2c_items_written, and
 * print nothing, so that the drivers' output stays theirs. The drivers are linked with
 * this file (`link:`: compiled on its own, or after the program's text, whose control
 * block is the same struct); adgen does not see it. */
#include <stdlib.h>

typedef int integer;
typedef int ftnlen;
struct cilist_s;

int f2c_items_written = 0;

integer s_wsle(struct cilist_s *c) { (void)c; return 0; }
integer e_wsle(void) { return 0; }
integer s_wsfe(struct cilist_s *c) { (void)c; return 0; }
integer e_wsfe(void) { return 0; }

integer do_lio(integer *type, integer *count, char *item, ftnlen len)
{
    (void)type; (void)item; (void)len;
    f2c_items_written += *count;
    return 0;
}

integer do_fio(integer *count, char *item, ftnlen len)
{
    (void)item; (void)len;
    f2c_items_written += *count;
    return 0;
}

int s_stop(char *message, ftnlen len)
{
    (void)message; (void)len;
    exit(3);
}
