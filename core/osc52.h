/* Copying text to the clipboard of the terminal the user sits at, with the
 * OSC 52 escape sequence ("\e]52;c;<base64>\a"), so it works over ssh. Inside
 * tmux the text goes through `tmux load-buffer -w -` (tmux sets its buffer and
 * sends OSC 52 out itself, with default settings) and, failing that, as the
 * plain sequence (set-clipboard on) plus the DCS passthrough form
 * (allow-passthrough on); inside GNU screen, in DCS chunks. */
#ifndef KLANG_CORE_OSC52_H
#define KLANG_CORE_OSC52_H

#include <stddef.h>

#include "core/util.h"

enum osc52_wrap { OSC52_PLAIN, OSC52_TMUX, OSC52_SCREEN };

/* Largest text sent: terminals drop longer sequences (xterm's limit). */
#define OSC52_MAX 74994

/* Base64 (RFC 4648, padded); caller frees. */
char *base64_encode(const void *data, size_t len);
/* The escape sequence that puts `text` on the clipboard, wrapped for tmux
 * ("\ePtmux;" + the sequence with every ESC doubled + "\e\\") or screen.
 * Caller frees. */
char *osc52_sequence(const char *text, size_t len, enum osc52_wrap wrap);
/* TMUX set: tmux; STY set or TERM=screen*: screen; else plain. */
enum osc52_wrap osc52_wrap_for_env(void);
/* Copy `text` (NUL-terminated) to the clipboard, writing escape sequences to
 * `fd` (the terminal). -1 with a message if it is too long or cannot be
 * written. */
int osc52_copy(int fd, const char *text, struct kerr *e);

#endif
