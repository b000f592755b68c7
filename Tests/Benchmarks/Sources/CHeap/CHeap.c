#include "CHeap.h"
#include <malloc.h>

size_t cheap_bytes_in_use(void) {
    return mallinfo2().uordblks;
}
