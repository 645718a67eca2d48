/* Two trees compared entry by entry on their raw bytes ("<octal mode>
 * <name>\0<20-byte id>" each), like git's tree-diff.c. libgit2's tree diff
 * reads every entry of both trees (70,000 per commit on a kernel tree), and
 * its tree objects parse each entry's mode with a general strtol: on a tree
 * of big directories that parsing alone costs more than git's whole diff.
 * The trees come from objread.c. */
#include "core/treediff.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/objread.h"
#include "core/util.h"

struct entry {
	const char *name; /* NUL-terminated in the raw tree */
	size_t len;
	unsigned mode;
	const git_oid *id;
};

struct raw_tree {
	const char *data, *p, *end;
};

static int raw_open(struct objread *o, const git_oid *id, struct raw_tree *t)
{
	git_object_t type;
	size_t len;
	memset(t, 0, sizeof(*t));
	if (!id)
		return 0;
	if (objread_read(o, id, &type, &t->data, &len) < 0)
		return -1;
	if (type != GIT_OBJECT_TREE) {
		objread_release(o, t->data);
		t->data = NULL;
		git_error_set_str(GIT_ERROR_OBJECT, "not a tree");
		return -1;
	}
	t->p = t->data;
	t->end = t->data + len;
	return 0;
}

/* The next entry, or false at the end (or on a corrupt tree). */
static bool raw_next(struct raw_tree *t, struct entry *e)
{
	unsigned mode = 0;
	const char *p = t->p;
	while (p < t->end && *p >= '0' && *p <= '7')
		mode = mode * 8 + (unsigned)(*p++ - '0');
	if (p >= t->end || *p != ' ')
		return false;
	const char *name = ++p, *nul = memchr(name, '\0', (size_t)(t->end - name));
	if (!nul || t->end - nul < 1 + GIT_OID_RAWSZ)
		return false;
	e->name = name;
	e->len = (size_t)(nul - name);
	e->mode = mode;
	e->id = (const git_oid *)(nul + 1);
	t->p = nul + 1 + GIT_OID_RAWSZ;
	return true;
}

static bool mode_is_tree(unsigned mode)
{
	return S_ISDIR(mode);
}

/* git's base_name_compare: a directory sorts as if its name ended in '/'. */
static int entry_cmp(const struct entry *a, const struct entry *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	unsigned char ca = (unsigned char)a->name[n], cb = (unsigned char)b->name[n];
	if (!ca && mode_is_tree(a->mode))
		ca = '/';
	if (!cb && mode_is_tree(b->mode))
		cb = '/';
	return (ca > cb) - (ca < cb);
}

static void add_change(struct changes *ch, const struct strbuf *dir, const struct entry *a,
		       const struct entry *b)
{
	const struct entry *any = a ? a : b;
	ALLOC_GROW(ch->v, ch->n + 1, ch->cap);
	struct change *c = &ch->v[ch->n++];
	memset(c, 0, sizeof(*c));
	c->path = xasprintf("%s%.*s", sb_str(dir), (int)any->len, any->name);
	if (a) {
		git_oid_cpy(&c->old_id, a->id);
		c->old_mode = a->mode;
	}
	if (b) {
		git_oid_cpy(&c->new_id, b->id);
		c->new_mode = b->mode;
	}
	ch->added += !a;
	ch->deleted += !b;
}

static int walk(struct objread *o, const git_oid *a_id, const git_oid *b_id, struct strbuf *dir,
		struct changes *ch)
{
	struct raw_tree a, b;
	struct entry ea, eb;
	int rc = raw_open(o, a_id, &a);
	if (rc == 0 && (rc = raw_open(o, b_id, &b)) < 0)
		objread_release(o, a.data);
	if (rc < 0)
		return rc;
	bool has_a = raw_next(&a, &ea), has_b = raw_next(&b, &eb);
	while (rc == 0 && (has_a || has_b)) {
		int cmp = !has_a ? 1 : !has_b ? -1 : entry_cmp(&ea, &eb);
		const struct entry *pa = cmp <= 0 ? &ea : NULL, *pb = cmp >= 0 ? &eb : NULL;
		bool same = pa && pb && git_oid_equal(pa->id, pb->id) && pa->mode == pb->mode;
		if (same) {
			/* identical file or subtree: nothing to read */
		} else if ((pa && mode_is_tree(pa->mode)) || (pb && mode_is_tree(pb->mode))) {
			/* equal names sort equal only when both are directories */
			size_t len = dir->len;
			sb_add(dir, (pa ? pa : pb)->name, (pa ? pa : pb)->len);
			sb_addc(dir, '/');
			rc = walk(o, pa ? pa->id : NULL, pb ? pb->id : NULL, dir, ch);
			dir->len = len;
			dir->buf[len] = '\0';
		} else {
			add_change(ch, dir, pa, pb);
		}
		if (pa)
			has_a = raw_next(&a, &ea);
		if (pb)
			has_b = raw_next(&b, &eb);
	}
	objread_release(o, a.data);
	objread_release(o, b.data);
	return rc;
}

int tree_changes(struct objread *o, const git_oid *old, const git_oid *new, struct changes *out)
{
	struct strbuf dir = STRBUF_INIT;
	memset(out, 0, sizeof(*out));
	sb_grow(&dir, 256);
	sb_reset(&dir);
	int rc = walk(o, old, new, &dir, out);
	sb_free(&dir);
	return rc;
}

void changes_free(struct changes *ch)
{
	for (size_t i = 0; i < ch->n; i++)
		free(ch->v[i].path);
	free(ch->v);
	memset(ch, 0, sizeof(*ch));
}
