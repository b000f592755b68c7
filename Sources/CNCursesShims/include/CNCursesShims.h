#ifndef CNCURSES_SHIMS_H
#define CNCURSES_SHIMS_H
// Swift 6 cannot read ncurses' mutable globals, macro-only attributes or the ACS table
// directly; these `static inline` functions expose them. Kept in a normal C target so
// that editing this header rebuilds the Swift code that uses it.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <ncurses.h>

static inline WINDOW *weft_stdscr(void) { return stdscr; }
static inline FILE *weft_stdout(void) { return stdout; }
static inline FILE *weft_stdin(void) { return stdin; }
static inline int weft_colors(void) { return COLORS; }

static inline int weft_cursor_row(WINDOW *win) { return getcury(win); }
static inline int weft_cursor_column(WINDOW *win) { return getcurx(win); }
static inline int weft_rows(WINDOW *win) { int y, x; getmaxyx(win, y, x); (void)x; return y; }
static inline int weft_columns(WINDOW *win) { int y, x; getmaxyx(win, y, x); (void)y; return x; }

static inline attr_t weft_a_normal(void) { return A_NORMAL; }
static inline attr_t weft_a_bold(void) { return A_BOLD; }
static inline attr_t weft_a_reverse(void) { return A_REVERSE; }
static inline attr_t weft_a_dim(void) { return A_DIM; }
static inline attr_t weft_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }

// ACS characters index `acs_map[]`, which is filled by newterm: call these after it.
static inline chtype weft_acs_ulcorner(void) { return ACS_ULCORNER; }
static inline chtype weft_acs_urcorner(void) { return ACS_URCORNER; }
static inline chtype weft_acs_llcorner(void) { return ACS_LLCORNER; }
static inline chtype weft_acs_lrcorner(void) { return ACS_LRCORNER; }
static inline chtype weft_acs_hline(void) { return ACS_HLINE; }
static inline chtype weft_acs_vline(void) { return ACS_VLINE; }

// Whether the current locale (after setlocale) encodes text as UTF-8.
static inline int weft_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// Whether the terminal of the current screen has the string capability `name` (such as
// "cup", cursor addressing, or "rmcup", leaving the alternate screen).
static inline int weft_has_capability(const char *name) {
    const char *value = tigetstr(name);
    return value != NULL && value != (const char *)-1 && value[0] != '\0';
}

// Sends the terminal's `clear` capability (blank screen, cursor home), outside curses mode.
static inline void weft_put_clear(void) {
    const char *value = tigetstr("clear");
    if (value != NULL && value != (const char *)-1) { putp(value); fflush(stdout); }
}

/// Turns the terminal's mouse reporting on or off: clicks and the wheel (mode 1000) in the
/// SGR format (mode 1006), written to standard output. The `atexit` backstop turns it
/// off if it is still on.
void weft_set_mouse_reporting(int on);

/// Wraps ncurses' SIGTSTP handler (installed by newterm; call this after it) so that Ctrl-Z
/// turns mouse reporting off while the process is stopped and back on after `fg`.
void weft_install_suspend_handler(void);

/// Registers, once per process, an `atexit` handler that calls `endwin` if curses
/// mode is still active, so that no exit path leaves the terminal in raw mode.
void weft_install_endwin_backstop(void);

#endif
