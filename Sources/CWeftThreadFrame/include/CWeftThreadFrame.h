#ifndef CWEFT_THREAD_FRAME_H
#define CWEFT_THREAD_FRAME_H
// The innermost synchronous resolution step of the calling thread (Weft's `ThreadFrame`).
// A C thread-local because Swift has none: read and written inline, where
// `pthread_getspecific` and `pthread_setspecific` cost a library call each on every step.

/// The thread's innermost step: a frame's address, tagged by Weft; `NULL` for none.
extern __thread void *_Nullable cweft_thread_frame;

static inline void *_Nullable cweft_thread_frame_get(void) { return cweft_thread_frame; }
static inline void cweft_thread_frame_set(void *_Nullable frame) { cweft_thread_frame = frame; }

/// Whether a `.graph` registration was ever made (Weft's `GraphScope.isInUse`): read on every
/// uncached resolve, so a plain C global read inline, where a Swift global costs a lazy
/// initialization check on every access.
extern int cweft_graph_scopes_in_use;

static inline int cweft_graph_scopes_in_use_get(void) {
    return __atomic_load_n(&cweft_graph_scopes_in_use, __ATOMIC_RELAXED);
}
static inline void cweft_graph_scopes_in_use_set(void) {
    __atomic_store_n(&cweft_graph_scopes_in_use, 1, __ATOMIC_RELAXED);
}

#endif
