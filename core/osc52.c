/* OSC 52 clipboard sequences and the tmux / screen ways of getting them out. */
#include "core/osc52.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *base64_encode(const void *data, size_t len)
{
	static const char abc[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = data;
	char *out = xmalloc((len + 2) / 3 * 4 + 1), *o = out;
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)s[i] << 16;
		if (i + 1 < len)
			v |= (unsigned)s[i + 1] << 8;
		if (i + 2 < len)
			v |= s[i + 2];
		*o++ = abc[v >> 18 & 63];
		*o++ = abc[v >> 12 & 63];
		*o++ = i + 1 < len ? abc[v >> 6 & 63] : '=';
		*o++ = i + 2 < len ? abc[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

char *osc52_sequence(const char *text, size_t len, enum osc52_wrap wrap)
{
	char *b64 = base64_encode(text, len);
	char *seq = xasprintf("\033]52;c;%s\a", b64);
	free(b64);
	if (wrap == OSC52_PLAIN)
		return seq;
	struct strbuf sb = STRBUF_INIT;
	if (wrap == OSC52_TMUX) {
		sb_adds(&sb, "\033Ptmux;");
		for (const char *p = seq; *p; p++) {
			if (*p == '\033')
				sb_addc(&sb, '\033');
			sb_addc(&sb, *p);
		}
		sb_adds(&sb, "\033\\");
	} else {
		/* screen passes at most 768 bytes of a DCS string: send chunks */
		for (size_t off = 0, n = strlen(seq); off < n; off += 76)
			sb_addf(&sb, "\033P%.76s\033\\", seq + off);
	}
	free(seq);
	return sb_detach(&sb);
}

enum osc52_wrap osc52_wrap_for_env(void)
{
	const char *tmux = getenv("TMUX"), *sty = getenv("STY"), *term = getenv("TERM");
	if (tmux && *tmux)
		return OSC52_TMUX;
	if ((sty && *sty) || (term && str_startswith(term, "screen")))
		return OSC52_SCREEN;
	return OSC52_PLAIN;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* `tmux load-buffer -w -`: tmux keeps the text and sets the outer clipboard. */
static int tmux_load_buffer(const char *text)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[0], 0);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("tmux", "tmux", "load-buffer", "-w", "-", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	int rc = write_all(fds[1], text, strlen(text));
	close(fds[1]);
	signal(SIGPIPE, old);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int osc52_copy(int fd, const char *text, struct kerr *e)
{
	size_t len = strlen(text);
	if (len > OSC52_MAX)
		return kerr_set(e, "%zu bytes is too much for the clipboard (at most %d)", len,
				OSC52_MAX);
	enum osc52_wrap wrap = osc52_wrap_for_env();
	if (wrap == OSC52_TMUX && tmux_load_buffer(text) == 0)
		return 0;
	char *seq = osc52_sequence(text, len, wrap == OSC52_TMUX ? OSC52_PLAIN : wrap);
	int rc = write_all(fd, seq, strlen(seq));
	free(seq);
	if (rc == 0 && wrap == OSC52_TMUX) {
		seq = osc52_sequence(text, len, OSC52_TMUX);
		rc = write_all(fd, seq, strlen(seq));
		free(seq);
	}
	if (rc < 0)
		return kerr_set(e, "cannot write to the terminal: %s", strerror(errno));
	return 0;
}
