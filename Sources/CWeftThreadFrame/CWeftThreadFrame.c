#include "CWeftThreadFrame.h"

__thread void *_Nullable cweft_thread_frame = 0;
int cweft_graph_scopes_in_use = 0;
