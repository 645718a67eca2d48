/* Links out of klang: the ClangBuiltLinux issue tracker searched for a
 * warning flag's label, and the Link:/Closes:/BugLink: trailers of a patch. */
#ifndef KLANG_CORE_LINKS_H
#define KLANG_CORE_LINKS_H

#include <stddef.h>

#include "core/stack.h"

#define CBL_ISSUES "https://github.com/ClangBuiltLinux/linux/issues"

/* Percent-encode everything but RFC 3986's unreserved characters; caller frees. */
char *url_encode(const char *s);
/* The flag as the tracker labels it: "-Wfoo" for "-Wfoo", "Wfoo",
 * "-Werror=foo", "-Wno-foo" or "foo"; a category that is not a -W flag
 * (objtool, modpost, ld, kernel-doc) as it is. Caller frees. */
char *links_flag_label(const char *flag);
/* https://github.com/ClangBuiltLinux/linux/issues?q=label%3A%22-Wfoo%22 for a
 * -W flag; a full-text search ("objtool") for a category. Caller frees. */
char *links_cbl_issue_url(const char *flag);

struct patch_link {
	const char *key; /* "Link", "Closes", "BugLink" (points into the patch) */
	const char *url;
};
/* The URLs in a patch's Link:, Closes: and BugLink: trailers, in order (not
 * URLs in the body text). Returns how many; *out is allocated (free it). */
size_t links_patch(const struct patch *p, struct patch_link **out);

#endif
