#ifndef CWEFTATOMICS_H
#define CWEFTATOMICS_H

// One atomic pointer for Weft's lock-free cache reads. C11 atomics, because the standard
// library's `Atomic` needs macOS 15 and Weft supports macOS 14. Inline, so Swift calls
// compile to a plain load or store with the stated ordering.

#include <stdatomic.h>

/// Loads `*slot` with acquire ordering: whatever was written before the matching release
/// store is visible after this load.
static inline void *_Nullable weft_atomic_load_acquire(void *_Nullable *_Nonnull slot) {
    return atomic_load_explicit((void *_Atomic *)slot, memory_order_acquire);
}

/// Stores `value` into `*slot` with release ordering.
static inline void weft_atomic_store_release(void *_Nullable *_Nonnull slot, void *_Nullable value) {
    atomic_store_explicit((void *_Atomic *)slot, value, memory_order_release);
}

#endif
