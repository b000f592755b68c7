#include "CWeftThreadFrame.h"

__thread void *_Nullable cweft_thread_frame = 0;
