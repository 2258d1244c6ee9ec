/* libf2c's routines of WRITE statements and STOP, for testsuite/c/f2c_write_statements.c
 * (written for this project): they count the items written, in f2c_items_written, and
 * print nothing, so that the drivers' output stays theirs. The drivers are linked with
 * this file (`link:`, after the program's text: its types integer, ftnlen and cilist
 * are the program's); adgen does not see it. */
#include <stdlib.h>

int f2c_items_written = 0;

integer s_wsle(cilist *c) { (void)c; return 0; }
integer e_wsle(void) { return 0; }
integer s_wsfe(cilist *c) { (void)c; return 0; }
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
