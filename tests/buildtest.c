/* Helpers shared by the build tests (not a suite). */
#include "tests/buildtest.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

int buildtest_elf_machine(const char *path)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, h, sizeof(h)) : -1;
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4))
		return -1;
	return h[18] | h[19] << 8;
}

static char *script(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct kerr e;
	if (write_file_atomic(path, text, strlen(text), &e) < 0 || chmod(path, 0755) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		exit(2);
	}
	return path;
}

char *buildtest_counting_cc(const char *dir, double secs)
{
	char *text = xasprintf(
	    "#!/bin/sh\n"
	    "D=%s\n"
	    "case \" $* \" in *\" -c \"*) ;; *) exec ${CROSS_COMPILE}gcc \"$@\";; esac\n"
	    "( flock 9; n=$(( $(cat $D/cur 2>/dev/null || echo 0) + 1 )); echo $n > $D/cur;"
	    " echo $n >> $D/log ) 9>$D/lock\n"
	    "sleep %.2f\n"
	    "${CROSS_COMPILE}gcc \"$@\"; rc=$?\n"
	    "( flock 9; echo $(( $(cat $D/cur) - 1 )) > $D/cur ) 9>$D/lock\n"
	    "exit $rc\n",
	    dir, secs);
	char *p = script(dir, "count-cc", text);
	free(text);
	return p;
}

int buildtest_max_concurrency(const char *dir)
{
	char *path = xasprintf("%s/log", dir);
	struct kerr e;
	char *text = read_file(path, NULL, &e);
	int max = 0;
	for (char *p = text; p && *p;) {
		int n = atoi(p);
		max = n > max ? n : max;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	free(text);
	free(path);
	return max;
}

char *buildtest_stalling_cc(const char *dir, int ignore_term)
{
	char *cmd = xasprintf("cp /bin/sleep %s/stall-sleep", dir);
	if (system(cmd) != 0)
		exit(2);
	free(cmd);
	char *text =
	    xasprintf("#!/bin/sh\n"
		      "case \" $* \" in *\" -c \"*) ;; *) exec ${CROSS_COMPILE}gcc \"$@\";; esac\n"
		      "%s"
		      "%s/stall-sleep 60\n",
		      ignore_term ? "trap '' TERM\n" : "", dir);
	char *p = script(dir, ignore_term ? "stubborn-cc" : "stall-cc", text);
	free(text);
	return p;
}

int buildtest_count_procs(const char *needle)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;
	while (d && (de = readdir(d))) {
		int pid = atoi(de->d_name);
		if (pid <= 0 || pid == getpid())
			continue;
		char *path = xasprintf("/proc/%d/cmdline", pid);
		char buf[4096];
		int fd = open(path, O_RDONLY);
		ssize_t len = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		free(path);
		if (len <= 0)
			continue;
		for (ssize_t i = 0; i < len; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[len] = '\0';
		n += strstr(buf, needle) != NULL;
	}
	if (d)
		closedir(d);
	return n;
}
