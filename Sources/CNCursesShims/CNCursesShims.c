#include "CNCursesShims.h"
#include <stdlib.h>
#include <unistd.h>

static int weft_backstop_installed = 0;
static int weft_backstop_active = 0;
static int weft_mouse_on = 0;

void weft_set_mouse_reporting(int on) {
    // Called from the main actor only (and from the atexit handler), so no lock.
    if (on == weft_mouse_on) return;
    weft_mouse_on = on;
    // Straight to the terminal: ncurses' own output is flushed at each doupdate, so nothing
    // of it is waiting, and putp() here did not reach the terminal before the first refresh.
    const char *sequence = on ? "\033[?1000h\033[?1006h" : "\033[?1006l\033[?1000l";
    fflush(stdout);
    size_t length = strlen(sequence);
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, sequence, length);
        if (written <= 0) break;
        sequence += written;
        length -= (size_t)written;
    }
}

static void weft_endwin_backstop(void) {
    if (weft_backstop_active && !isendwin()) {
        weft_set_mouse_reporting(0);
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
