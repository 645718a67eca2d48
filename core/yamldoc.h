/* Reading a whole YAML file into a libyaml document, with the syntax error
 * (if any) as "FILE:LINE:COL: problem context". */
#ifndef KLANG_CORE_YAMLDOC_H
#define KLANG_CORE_YAMLDOC_H

#include <yaml.h>

#include "core/util.h"

/* Load the first document of `path`; `label` names the file in messages
 * (NULL = path). The caller yaml_document_delete()s it. -1 with a message. */
int yamldoc_load(yaml_document_t *doc, const char *path, const char *label, struct kerr *e);

#endif
