#ifndef CHEAP_H
#define CHEAP_H
#include <stddef.h>

/// Bytes the process holds in malloc'd blocks right now (glibc's mallinfo2().uordblks).
size_t cheap_bytes_in_use(void);

#endif
