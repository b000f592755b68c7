#include "CNCursesShims.h"
