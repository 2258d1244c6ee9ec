#ifndef ADGEN_INTTYPES_H
#define ADGEN_INTTYPES_H
#include <stdint.h>
#define PRId32 "d"
#define PRIu32 "u"
#define PRId64 "ld"
#define PRIu64 "lu"
#define PRIx64 "lx"
#define SCNd64 "ld"
#endif
