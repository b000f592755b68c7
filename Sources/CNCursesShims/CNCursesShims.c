#include "CNCursesShims.h"
#include <stdlib.h>

static int weft_backstop_installed = 0;
static int weft_backstop_active = 0;

static void weft_endwin_backstop(void) {
    if (weft_backstop_active && !isendwin()) {
        endwin();
    }
}

void weft_install_endwin_backstop(void) {
    // Called from the main actor only, so the flag needs no lock.
    weft_backstop_active = 1;
    if (!weft_backstop_installed) {
        weft_backstop_installed = 1;
        atexit(weft_endwin_backstop);
    }
}
