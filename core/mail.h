/* Mail as patches travel in it: header blocks with folded and RFC 2047
 * encoded values, RFC 2822 dates, "Name <email>" addresses, quoted-printable
 * and base64 bodies in any charset iconv knows, and the "Re:" / "[PATCH v3
 * 07/12]" prefixes of subjects. */
#ifndef KLANG_CORE_MAIL_H
#define KLANG_CORE_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mail_header {
	char *key;   /* as written: "Subject", "Forwarded", "X-Mailing-List" ... */
	char *value; /* unfolded, encoded words decoded to UTF-8 */
	char *lines; /* the value line by line, one blank dropped from each
		      * continuation line (DEP-3's multi-line Description) */
	size_t line; /* 0-based line of the key within the block */
};

struct mail_headers {
	struct mail_header *v;
	size_t n, cap;
};

/* Is the line (up to '\n') a "Key: value" header line? */
bool mail_is_header_line(const char *line, size_t len);
/* Read the header block at the start of text[0..len): header lines and their
 * continuation lines, up to and including the first empty line, or up to the
 * first line that is not a header. Returns the bytes read; *lines gets the
 * number of lines. */
size_t mail_read_headers(const char *text, size_t len, struct mail_headers *h, size_t *lines);
/* The value of the first header named key (case-insensitive), or NULL. */
const char *mail_header(const struct mail_headers *h, const char *key);
void mail_headers_free(struct mail_headers *h);

/* RFC 2047 encoded words (=?UTF-8?q?...?=) decoded to UTF-8; caller frees. */
char *mail_decode_words(const char *s);
/* An RFC 2822 date ("Mon, 13 Sep 2021 16:25:56 -0300") or an ISO date
 * ("2016-11-21", DEP-3's Last-Update). false if it is neither. */
bool mail_parse_date(const char *s, int64_t *time, int *tz_minutes);
/* "Name <email>", "\"Last, First\" <email>", "email (Name)" or "email". */
void mail_parse_address(const char *s, char **name, char **email);
/* A body by its Content-Transfer-Encoding and charset, as UTF-8 text with
 * CRLF line ends made LF. Either may be NULL. Caller frees. */
char *mail_decode_body(const char *s, size_t len, const char *cte, const char *charset);
/* The charset parameter of a Content-Type value, or NULL; caller frees. */
char *mail_content_param(const char *content_type, const char *param);
/* The subject past "Re:" and bracketed patch prefixes ("[PATCH v3 07/12]",
 * "[RFC PATCH]"; brackets without PATCH or RFC, such as "[sh4]", stay, as
 * with git am -b). If n/total was in the prefix, *n and *total get them
 * (else 0). Points into s. */
const char *mail_subject_strip(const char *s, unsigned *n, unsigned *total);

#endif
