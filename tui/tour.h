/* The autoplay tour (klang demo --play FILE): keys replayed with pauses
 * from the event loop's timers, and captions drawn over the views. A tour
 * file has one step per line:
 *
 *   # a comment
 *   Down                  a key: tmux names (Enter Escape Tab BTab Space
 *   j j Enter             BSpace Up Down Left Right PageUp PageDown Home End
 *   "fix"                 IC DC F1..F12 C-x), a single character, a key as
 *                         key files write it (<Down> <C-f>), or a "string"
 *                         typed key by key; several on a line
 *   :caption TEXT         a caption over the views until the next one
 *                         (":caption" alone takes it away)
 *   :pause SECONDS        wait (the default after every key: 0.8)
 *   :delay SECONDS        the wait after each key from here on
 *   :wait-builds [SECS]   wait until the builds started are done (at most
 *                         SECS, default 300; real time, whatever the speed)
 *
 * While it plays, a key pressed by a person pauses it and another resumes
 * it; q stops the tour and leaves the workbench to the person, where it is. */
#ifndef KLANG_TUI_TOUR_H
#define KLANG_TUI_TOUR_H

#include <stdbool.h>

#include "core/util.h"

/* Read and check a tour file: -1 with "FILE:LINE: unknown key 'Foo'". */
int tour_load(const char *path, struct kerr *e);
/* Pauses are divided by speed (> 0; default 1). */
void tour_set_speed(double speed);
/* A tour was loaded: start it once the workbench is up. */
bool tour_loaded(void);
void tour_start(void);
/* It is still playing (or paused). */
bool tour_playing(void);
void tour_free(void);

#endif
