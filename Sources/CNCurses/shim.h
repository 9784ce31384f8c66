#ifndef OPENCOREDATA_CNCURSES_SHIM_H
#define OPENCOREDATA_CNCURSES_SHIM_H
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// Accessors for what ncurses declares as macros or mutable globals, which Swift cannot import or may not touch
// under strict concurrency. Each is stateless: it only forwards, so per-file emission of these inline functions
// is harmless.

static inline WINDOW *ocd_stdscr(void) { return stdscr; }
static inline WINDOW *ocd_curscr(void) { return curscr; }
static inline int ocd_colors(void) { return COLORS; }
static inline int ocd_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t ocd_color_pair(int pair) { return (attr_t)COLOR_PAIR(pair); }
static inline attr_t ocd_attr_normal(void) { return (attr_t)A_NORMAL; }
static inline attr_t ocd_attr_bold(void) { return (attr_t)A_BOLD; }
static inline attr_t ocd_attr_reverse(void) { return (attr_t)A_REVERSE; }
static inline attr_t ocd_attr_underline(void) { return (attr_t)A_UNDERLINE; }
static inline attr_t ocd_attr_dim(void) { return (attr_t)A_DIM; }

/// The C library's column width of one wide character (-1 when the locale cannot show it). Declared here because
/// glibc hides `wcwidth` unless _XOPEN_SOURCE is set, which package flags cannot do.
static inline int ocd_wcwidth(wchar_t character) {
    extern int wcwidth(wchar_t);
    return wcwidth(character);
}

static inline int ocd_key_f(int n) { return KEY_F(n); }

static inline mmask_t ocd_mouse_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t ocd_mouse_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t ocd_mouse_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t ocd_mouse_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t ocd_mouse_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t ocd_mouse_button3_clicked(void) { return BUTTON3_CLICKED; }
static inline mmask_t ocd_mouse_wheel_up(void) { return BUTTON4_PRESSED; }
#ifdef BUTTON5_PRESSED
static inline mmask_t ocd_mouse_wheel_down(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t ocd_mouse_wheel_down(void) { return 0; }
#endif

/// A terminfo string capability, or NULL when the terminal lacks it (tigetstr's (char *)-1 included).
static inline const char *ocd_terminfo_string(const char *name) {
    char *value = tigetstr(name);
    return (value == NULL || value == (char *)-1) ? NULL : value;
}

#endif
