#include "CNCursesShims.h"
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static int weft_backstop_installed = 0;
static int weft_backstop_active = 0;
// Read by the SIGTSTP handler below.
static volatile sig_atomic_t weft_mouse_on = 0;

static void weft_write_mouse_mode(int on);

void weft_set_mouse_reporting(int on) {
    // Called from the main actor only (and from the atexit handler), so no lock.
    if (on == weft_mouse_on) return;
    weft_mouse_on = on;
    // Straight to the terminal: ncurses' own output is flushed at each doupdate, so nothing
    // of it is waiting, and putp() here did not reach the terminal before the first refresh.
    fflush(stdout);
    weft_write_mouse_mode(on);
}

// Ctrl-Z: ncurses' own SIGTSTP handler restores the terminal, stops the process and redraws
// on `fg`, but knows nothing of the mouse modes this file turns on. This wraps it: reporting
// off before the stop (or the shell would print every click), back on after.
static struct sigaction weft_previous_tstp;

static void weft_write_mouse_mode(int on) {
    // write() is async-signal-safe; nothing else is called from the handler but ncurses'.
    const char *sequence = on ? "\033[?1000h\033[?1006h" : "\033[?1006l\033[?1000l";
    size_t length = strlen(sequence);
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, sequence, length);
        if (written <= 0) break;
        sequence += written;
        length -= (size_t)written;
    }
}

static void weft_on_tstp(int signal_number) {
    int was_on = weft_mouse_on;
    if (was_on) weft_write_mouse_mode(0);
    void (*previous)(int) = weft_previous_tstp.sa_handler;
    if (!(weft_previous_tstp.sa_flags & SA_SIGINFO) && previous != SIG_DFL && previous != SIG_IGN && previous != NULL) {
        previous(signal_number);  // ncurses: stops the process; returns after `fg`, redrawn
    } else {
        struct sigaction stop, ours;
        memset(&stop, 0, sizeof stop);
        stop.sa_handler = SIG_DFL;
        sigaction(SIGTSTP, &stop, &ours);
        sigset_t mask;
        sigemptyset(&mask);
        sigaddset(&mask, SIGTSTP);
        sigprocmask(SIG_UNBLOCK, &mask, NULL);
        raise(SIGTSTP);
        sigaction(SIGTSTP, &ours, NULL);
    }
    if (was_on) weft_write_mouse_mode(1);
}

void weft_install_suspend_handler(void) {
    struct sigaction current;
    if (sigaction(SIGTSTP, NULL, &current) != 0 || current.sa_handler == SIG_IGN) return;
    if (current.sa_handler == weft_on_tstp) return;
    weft_previous_tstp = current;
    struct sigaction wrapper;
    memset(&wrapper, 0, sizeof wrapper);
    wrapper.sa_handler = weft_on_tstp;
    sigemptyset(&wrapper.sa_mask);
    wrapper.sa_flags = SA_RESTART;
    sigaction(SIGTSTP, &wrapper, NULL);
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
