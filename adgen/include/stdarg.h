#ifndef ADGEN_STDARG_H
#define ADGEN_STDARG_H
typedef char *va_list;
void va_start(va_list, ...); void va_end(va_list);
#define va_arg(ap, type) (*(type *)adgen_va_arg(ap))
void *adgen_va_arg(va_list);
#endif
