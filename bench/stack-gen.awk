# A git fast-import stream for a patch stack: a base commit of `files` files
# (tagged v1.0) and `n` patches on top of it, with tagged subjects, new files,
# renames, a binary file and a merge every 500 patches (its side commit is
# off the first-parent line). Usage:
#   awk -v n=10000 -v files=500 -f bench/stack-gen.awk | git fast-import --quiet
function content(f, v,    s, j) {
	s = ""
	for (j = 0; j < 40; j++)
		s = s ((v > 0 && j == v % 40) ? "changed in version " v " of file " f : "line " j " of file " f) "\n"
	return s
}
function blob(path, data) {
	printf "M 100644 inline %s\ndata %d\n%s\n", path, length(data), data
}
function path_of(f) {
	return sprintf("dir%02d/sub%d/file%04d.c", f % 50, f % 3, f)
}
function header(ref, subject, body, who,    msg) {
	msg = subject "\n\n" body
	mark++
	printf "commit %s\nmark :%d\n", ref, mark
	printf "author %s <%s> %d +0100\n", who, "dev@example.org", 1600000000 + mark
	printf "committer klang <klang@example.org> %d +0000\n", 1600000000 + mark
	printf "data %d\n%s\n", length(msg), msg
}
BEGIN {
	if (!n) n = 10000
	if (!files) files = 500
	ntags = split("UPSTREAM: |BACKPORT: |FROMGIT: |FROMLIST: |HACK: |CUSTOM: |OBSOLETE: |" \
		      "CHROMIUM: |ANDROID: |BACKPORT: FROMLIST: |ANDROID: ARM: |FROMLIST: USB: |" \
		      "DO-NOT-UPSTREAM: |", tag, "|")
	header("refs/heads/master", "base", "The base tree.\n", "Base Author")
	for (f = 0; f < files; f++)
		blob(path_of(f), content(f, 0))
	print ""
	printf "reset refs/tags/v1.0\nfrom :%d\n\n", mark
	for (k = 1; k <= n; k++) {
		f = (k * 7919) % files
		ver[f]++
		subject = tag[k % ntags + 1] "subsys: change number " k " of the stack"
		body = "Why change " k " is needed.\n\nSigned-off-by: Dev <dev@example.org>\n"
		if (k % 500 == 0) {
			prev = mark
			header("refs/heads/side", "side work " k, "", "Side Author")
			printf "from :%d\n", prev
			blob("side/" k ".c", content(k, 1))
			print ""
			side = mark
			header("refs/heads/master", "Merge branch 'side' (" k ")", "", "Merger")
			printf "from :%d\nmerge :%d\n", prev, side
			blob("side/" k ".c", content(k, 1))
		} else {
			header("refs/heads/master", subject, body, k % 7 ? "Dev Eloper" : "Jos\303\251 M\303\274ller")
		}
		blob(path_of(f), content(f, ver[f]))
		if (k % 10 == 0)
			blob("new/" k ".c", content(k, 2))
		if (k % 1000 == 1)
			printf "M 100644 inline bin/blob%d\ndata 5\nab%c%cc\n", k, 1, 0
		if (k % 1000 == 20)
			printf "R new/%d.c renamed/%d.c\n", k - 10, k
		print ""
	}
}
