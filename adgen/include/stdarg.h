#ifndef ADGEN_STDARG_H
#define ADGEN_STDARG_H
typedef char *va_list;
void va_start(va_list, ...); void va_end(va_list);
#endif
