/* Headless runs, as tig's TIG_SCRIPT: keys and commands come from a script
 * file, curses draws to /dev/null at a fixed size, and the screen is saved
 * as text. The script format:
 *
 *   # a comment
 *   jjJ<Down>/fix<Enter>      keys: characters, <Name> (<Enter> <Esc> <C-f>
 *                             <PgDown> <Up> <F1> <Space> <LessThan> ...),
 *                             a redraw before each
 *   :type KEYS                keys as one burst, no redraw between them
 *                             (typed ahead, pasted, tmux send-keys)
 *   :save-display FILE        the screen as plain text (UTF-8)
 *   :save-attrs FILE          which theme element draws where, per row
 *   :resize COLSxROWS         as if the terminal was resized
 *   :mouse click|double|wheel-up|wheel-down ROW COL
 *   :wait MS                  let the loop run (fds, timers) for MS ms
 *   :wait-tour MS             the same, until the autoplay tour is over
 */
#ifndef KLANG_TUI_SCRIPT_H
#define KLANG_TUI_SCRIPT_H

#include "core/util.h"
#include "tui/loop.h"

/* Run the script; -1 with "FILE:LINE: message" on a bad command. */
int script_run(const char *path, const struct loop_ui *ui, struct kerr *e);

/* The screen (curses' idea of it) as text: rows joined by '\n', trailing
 * blanks trimmed. Caller frees. */
char *screen_text(void);
/* Per row, the runs of cells drawn by a theme element other than
 * "default": "3: index@0-4 tag@6-15 id@17-24". Caller frees. */
char *screen_attrs(void);

#endif
