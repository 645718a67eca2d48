/* Fuzz target: quilt series. The input is read twice: as a `series` file
 * (patch names, comments, -pN options), and as patches exported the quilt
 * way (a directory of format-patch files and a series file naming them,
 * on tmpfs) that quilt_read must read as the mbox reader reads the same
 * mails, losing none. */
#include "fuzz/fuzz.h"

#include <sys/stat.h>

#include "core/mbox.h"
#include "core/quilt.h"

FUZZ_TARGET(quilt)
{
	static char *dir;
	if (!dir)
		dir = fuzz_tmpdir();
	char *text = fuzz_str(data, size);
	struct quilt_entry *v;
	size_t n;
	quilt_parse_series(text, &v, &n);
	for (size_t i = 0; i < n; i++)
		FUZZ_CHECK(v[i].name && *v[i].name && v[i].line >= 1 && v[i].strip >= 0);
	quilt_entries_free(v, n);
	free(text);

	/* the export round trip: NNNN.patch files + series, read back */
	struct patch_files a = {0}, b = {0};
	mbox_parse(&a, (const char *)data, size, "fuzz.mbox", NULL);
	struct strbuf series = STRBUF_INIT, mails = STRBUF_INIT;
	struct kerr e;
	for (size_t i = 0; i < a.npatches; i++) {
		struct strbuf mail = STRBUF_INIT;
		mbox_format_patch(&a.patches[i], a.patches[i].diff, i + 1, a.npatches, &mail);
		char *path = xasprintf("%s/%04zu.patch", dir, i + 1);
		if (write_file_atomic(path, mail.buf, mail.len, &e) < 0)
			abort();
		sb_addf(&series, "%04zu.patch\n", i + 1);
		sb_add(&mails, mail.buf, mail.len);
		free(path);
		sb_free(&mail);
	}
	if (a.npatches) {
		char *sp = xasprintf("%s/series", dir);
		if (write_file_atomic(sp, series.buf, series.len, &e) < 0)
			abort();
		FUZZ_CHECK(quilt_read(&b, dir, NULL, &e) == 0);
		/* nothing lost; and each file reads as the same mail did in an
		 * mbox (quilt reads its patch files with the mbox reader) */
		FUZZ_CHECK(b.npatches + b.nmalformed == a.npatches);
		struct patch_files m = {0};
		mbox_parse(&m, mails.buf, mails.len, "again.mbox", NULL);
		FUZZ_CHECK(m.npatches == b.npatches);
		for (size_t i = 0; i < m.npatches && i < b.npatches; i++) {
			FUZZ_CHECK(!strcmp(m.patches[i].subject, b.patches[i].subject));
			FUZZ_CHECK(!strcmp(m.patches[i].body, b.patches[i].body));
			FUZZ_CHECK(!strcmp(m.patches[i].diff ? m.patches[i].diff : "",
					   b.patches[i].diff ? b.patches[i].diff : ""));
		}
		patch_files_free(&m);
		unlink(sp);
		free(sp);
		for (size_t i = 0; i < a.npatches; i++) {
			char *path = xasprintf("%s/%04zu.patch", dir, i + 1);
			unlink(path);
			free(path);
		}
	}
	sb_free(&series);
	sb_free(&mails);
	patch_files_free(&a);
	patch_files_free(&b);
	return 0;
}
