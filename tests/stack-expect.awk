# The rows `klang stack --format tsv` must print, worked out independently
# from git's own output:
#   git log --reverse --first-parent --numstat \
#       --format='@@@%H%x1f%an%x1f%s' BASE..HEAD | awk -f tests/stack-expect.awk
# Tags are the leading "WORD: " prefixes from the known set; an uppercase
# subsystem after them is not a tag; Revert "..." carries no tag.
BEGIN {
	FS = "\t"
	known = "^(UPSTREAM|BACKPORT|FROMGIT|FROMLIST|HACK|CUSTOM|OBSOLETE|CHROMIUM|ANDROID):([ \t]+|$)"
	print "index\tcommit\ttags\tsubject\tauthor\tfiles\tinsertions\tdeletions"
}
function flush() {
	if (id != "")
		printf "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\n", ++idx, id, tags, subj, author, nf, ins, del
}
/^@@@[0-9a-f]+\037/ {
	flush()
	split(substr($0, 4), h, "\037")
	id = h[1]; author = h[2]; subj = h[3]
	nf = ins = del = 0
	tags = ""
	sub(/^[ \t]+/, "", subj)
	if (subj !~ /^Revert "/) {
		while (match(subj, known)) {
			word = substr(subj, 1, index(subj, ":") - 1)
			tags = tags (tags == "" ? "" : ",") word
			subj = substr(subj, RLENGTH + 1)
		}
	}
	if (tags == "")
		tags = "-"
	gsub(/[\t\r\n]/, " ", subj)
	gsub(/[\t\r\n]/, " ", author)
	next
}
/^([0-9]+|-)\t([0-9]+|-)\t/ {
	nf++
	ins += $1 == "-" ? 0 : $1
	del += $2 == "-" ? 0 : $2
}
END { flush() }
