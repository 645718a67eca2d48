/* Reading a diagnostics input from a file or stdin: logs are streamed in
 * 128 KiB reads into one buffer (memory does not grow with the file, and
 * the buffer stays in the cache: mapping the file instead costs a page
 * fault every few pages, which in a VM was three times what the reads
 * cost), a JSON document (SARIF, GCC JSON) is read whole and handed to
 * the JSON reader. */
#include "core/diag.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sarif.h"

#define CHUNK (128u << 10)

static ssize_t read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int diag_parse_file(struct diag_set *into, const char *path, const struct diag_parser_opts *opts,
		    struct kerr *e)
{
	bool is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kerr_set(e, "%s: %s", path, strerror(errno));
	if (!is_stdin && is_dir(path)) {
		close(fd);
		return kerr_set(e, "%s: is a directory, not a log", path);
	}
#ifdef POSIX_FADV_SEQUENTIAL
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	struct diag_parser_opts o = opts ? *opts : (struct diag_parser_opts){0};
	if (!o.log_name)
		o.log_name = is_stdin ? "<stdin>" : path;
	struct diag_parser *p = diag_parser_new(&o);
	char *buf = xmalloc(CHUNK);
	bool first = true, json = false;
	struct strbuf whole = STRBUF_INIT;
	int rc = 0;
	for (;;) {
		ssize_t n = read_full(fd, buf, CHUNK);
		if (n < 0) {
			rc = kerr_set(e, "%s: %s", path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		if (first) {
			size_t i = 0;
			while (i < (size_t)n && strchr(" \t\r\n", buf[i]))
				i++;
			/* SARIF, or GCC JSON from its first array on ("[{" or "[]") */
			size_t j = i + 1;
			while (j < (size_t)n && strchr(" \t\r\n", buf[j]))
				j++;
			json = i < (size_t)n && (buf[i] == '{' || (buf[i] == '[' && j < (size_t)n &&
								   strchr("{]", buf[j])));
			first = false;
		}
		if (json)
			sb_add(&whole, buf, (size_t)n);
		else
			diag_parser_feed(p, buf, (size_t)n);
	}
	free(buf);
	if (!is_stdin)
		close(fd);
	if (!rc && json)
		rc = diag_read_json(p, whole.buf, whole.len, path, e);
	sb_free(&whole);
	diag_parser_finish(p, rc ? NULL : into);
	return rc;
}
