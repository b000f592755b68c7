#ifndef CWEFT_THREAD_FRAME_H
#define CWEFT_THREAD_FRAME_H
// The innermost synchronous resolution step of the calling thread (Weft's `ThreadFrame`).
// A C thread-local because Swift has none: read and written inline, where
// `pthread_getspecific` and `pthread_setspecific` cost a library call each on every step.

/// The thread's innermost step: a frame's address, tagged by Weft; `NULL` for none.
extern __thread void *_Nullable cweft_thread_frame;

static inline void *_Nullable cweft_thread_frame_get(void) { return cweft_thread_frame; }
static inline void cweft_thread_frame_set(void *_Nullable frame) { cweft_thread_frame = frame; }

#endif
