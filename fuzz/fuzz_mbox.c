/* Fuzz target: patch series as files (mbox, format-patch, b4, mutt, DEP-3,
 * bare diffs) and their export round trip: every patch read is written back
 * as a format-patch mail (mbox_format_patch, what an mbox export writes)
 * and read again, twice. Checks: the first trip loses nothing (each patch
 * comes back or is reported malformed); from then on the trip is a fixed
 * point: the second gives the same patches as the first (subject, author,
 * date, body, trailers, diff, id, tags). The first trip may normalise what
 * the input wrote loosely (an in-body From:, a path that needs quotes). A
 * message or diff with carriage returns is left out: mail cannot carry
 * them (git am without --keep-cr reads them the same way). A body that
 * itself starts like in-body headers is kept (the writer puts its own
 * in-body From: first). */
#include "fuzz/fuzz.h"

#include "core/mbox.h"

static void mbox_same(const struct patch *x, const struct patch *y)
{
	FUZZ_CHECK(!strcmp(x->subject, y->subject));
	FUZZ_CHECK(!strcmp(x->author ? x->author : "", y->author ? y->author : ""));
	FUZZ_CHECK(!strcmp(x->author_email ? x->author_email : "",
			   y->author_email ? y->author_email : ""));
	FUZZ_CHECK(x->time == y->time && x->tz_offset == y->tz_offset);
	FUZZ_CHECK(!strcmp(x->body, y->body));
	FUZZ_CHECK(x->ntrailers == y->ntrailers);
	FUZZ_CHECK(!strcmp(x->diff ? x->diff : "", y->diff ? y->diff : ""));
	FUZZ_CHECK(!strcmp(x->id, y->id));
	FUZZ_CHECK(x->tags == y->tags);
}

/* A carriage return before a line end, in the message or the diff, is a
 * CRLF line end to a mail reader (git am without --keep-cr): mail cannot
 * carry it. */
static bool mbox_ambiguous(const struct patch *p)
{
	return strchr(p->body, '\r') || (p->diff && strchr(p->diff, '\r'));
}

/* Write every patch of `in` as a mail, read them all into `out`. */
static void mbox_trip(const struct patch_files *in, struct patch_files *out)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < in->npatches; i++) {
		FUZZ_CHECK(in->patches[i].subject && in->patches[i].body);
		mbox_format_patch(&in->patches[i], in->patches[i].diff, i + 1, in->npatches, &sb);
	}
	if (in->npatches)
		mbox_parse(out, sb.buf, sb.len, "again.mbox", NULL);
	sb_free(&sb);
}

FUZZ_TARGET(mbox)
{
	struct patch_files a = {0}, b = {0}, c = {0};
	mbox_parse(&a, (const char *)data, size, "fuzz.mbox", NULL);
	for (size_t i = 0; i < a.nmalformed; i++)
		FUZZ_CHECK(a.malformed[i].reason && a.malformed[i].position <= a.npatches);
	mbox_trip(&a, &b);
	/* a patch that only adds ANNOTATIONS reads back as an AOSP marker */
	FUZZ_CHECK(b.npatches + b.nmalformed + b.nannotations == a.npatches);
	mbox_trip(&b, &c);
	FUZZ_CHECK(c.npatches == b.npatches && c.nmalformed == 0);
	for (size_t i = 0; i < b.npatches && i < c.npatches; i++)
		if (!mbox_ambiguous(&b.patches[i]))
			mbox_same(&b.patches[i], &c.patches[i]);
	patch_files_free(&a);
	patch_files_free(&b);
	patch_files_free(&c);
	return 0;
}
