#ifndef OPENCOREDATA_CREADLINE_SHIM_H
#define OPENCOREDATA_CREADLINE_SHIM_H
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// Readline is configured through mutable globals, which Swift 6 does not let code touch directly. These stateless
// forwarders are the only way TerminalUI reads or writes them.

/// Puts readline in the mode an embedding application needs: input only from `getc`, no drawing, no terminal
/// mode changes, no signal handlers, and no exported LINES/COLUMNS (which would pin ncurses' size).
static inline void ocd_rl_embed(rl_getc_func_t *getc, rl_hook_func_t *input_available, rl_voidfunc_t *redisplay,
                                rl_vintfunc_t *prep_terminal, rl_voidfunc_t *deprep_terminal,
                                FILE *instream, FILE *outstream, const char *name) {
    rl_getc_function = getc;
    rl_input_available_hook = input_available;
    rl_redisplay_function = redisplay;
    rl_prep_term_function = prep_terminal;
    rl_deprep_term_function = deprep_terminal;
    rl_instream = instream;
    rl_outstream = outstream;
    rl_readline_name = name;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
}

/// Reads the user's inputrc now (readline does it once), then binds the keys of an xterm keypad that readline
/// leaves unbound when the terminal is unknown, in the emacs and vi insert maps, without overriding the user's.
static inline void ocd_rl_initialize_bindings(void) {
    rl_initialize();
    Keymap maps[] = { rl_get_keymap_by_name("emacs"), rl_get_keymap_by_name("vi-insert") };
    for (int index = 0; index < 2; index++) {
        if (maps[index] == NULL) continue;
        rl_bind_keyseq_if_unbound_in_map("\033[3~", rl_delete, maps[index]);
        rl_bind_keyseq_if_unbound_in_map("\033[H", rl_beg_of_line, maps[index]);
        rl_bind_keyseq_if_unbound_in_map("\033[F", rl_end_of_line, maps[index]);
    }
}

static inline void ocd_rl_set_completion(rl_completion_func_t *attempt, rl_compdisp_func_t *display) {
    rl_attempted_completion_function = attempt;
    rl_completion_display_matches_hook = display;
}

static inline void ocd_rl_set_attempted_completion_over(int over) { rl_attempted_completion_over = over; }
static inline void ocd_rl_set_completion_suppress_append(int suppress) { rl_completion_suppress_append = suppress; }
static inline const char *ocd_rl_line_buffer(void) { return rl_line_buffer; }
static inline int ocd_rl_point(void) { return rl_point; }
static inline int ocd_rl_end(void) { return rl_end; }
static inline const char *ocd_rl_prompt(void) { return rl_prompt; }
static inline const char *ocd_rl_display_prompt(void) { return rl_display_prompt; }
static inline int ocd_rl_is_emacs_mode(void) { return rl_editing_mode == 1; }
static inline int ocd_rl_is_vi_insert_mode(void) {
    return rl_editing_mode == 0 && rl_get_keymap() == rl_get_keymap_by_name("vi-insert");
}
static inline int ocd_history_length(void) { return history_length; }
/// The history line at `offset` (0 = oldest), or NULL.
static inline const char *ocd_history_line(int offset) {
    HIST_ENTRY *entry = history_get(history_base + offset);
    return entry == NULL ? NULL : entry->line;
}

#endif
