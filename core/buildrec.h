/* What a finished build leaves behind: its record under the repository's
 * .klang/builds/ (read back for the next run's expected totals) and its
 * summary.json. The JSON writers for summaries are declared in core/build.h. */
#ifndef KLANG_CORE_BUILDREC_H
#define KLANG_CORE_BUILDREC_H

#include <jansson.h>
#include <sys/stat.h>

#include "core/build.h"

/* Each record (a JSON object) under dir with its file's stat; unreadable
 * and broken records are skipped. dir may be NULL or missing. With
 * newest_summary, a record whose build directory holds a later summary.json
 * of the same build (one cancelled leaves no record, but its log replaced
 * the recorded one) is given as that summary, with its stat. */
typedef void (*buildrec_fn)(json_t *rec, const struct stat *st, void *data);
void buildrec_each(const char *dir, bool newest_summary, buildrec_fn fn, void *data);

/* Set b->progress.expected from the previous record of the same build, else
 * from a similar one (same config; same arch preferred), else leave it 0. */
void buildrec_load_expected(const char *records_dir, struct build *b);
/* On completion: take the compiler version Kbuild saw (CONFIG_CC_VERSION_TEXT), write
 * <out>/summary.json and the record. Failures to write are noted in b->error, never fatal. */
void buildrec_finish(struct build_mgr *m, struct build *b);

#endif
