#ifndef ADGEN_ASSERT_H
#define ADGEN_ASSERT_H
void assert(int);
#endif
