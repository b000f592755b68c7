#ifndef CNCURSES_SHIMS_H
#define CNCURSES_SHIMS_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncurses.h>
#endif
