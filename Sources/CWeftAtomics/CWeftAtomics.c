// The functions are inline in include/CWeftAtomics.h; SwiftPM needs one source file per C target.
#include "CWeftAtomics.h"
