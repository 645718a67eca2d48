/* Objects read straight from pack files (index version 2), every object met
 * on the way kept in an LRU cache of DELTA_CACHE_BYTES, as git's delta base
 * cache does. The pack format: an entry header (type, size), then either the
 * zlib-compressed object, or a delta (against an object at an earlier offset
 * of the pack, or named by id) whose copy/insert instructions rebuild the
 * object from its base. */
#include "core/objread.h"

#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/util.h"

#define DELTA_CACHE_BYTES ((size_t)96 << 20) /* git's core.deltaBaseCacheLimit */
#define CACHE_BUCKETS 65536
#define MAX_CHAIN 100000

enum { OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7 };

struct pack {
	const unsigned char *idx, *data;
	size_t idx_len, data_len;
	uint32_t n;
	const unsigned char *fanout, *ids, *offsets, *large;
};

struct entry {
	struct entry *hnext, *newer, *older;
	uint32_t pack;
	uint64_t offset;
	git_object_t type;
	size_t len;
	int pins;
	bool cached;
	char data[];
};

struct objread {
	git_repository *repo;
	struct pack *packs;
	size_t npacks;
	struct entry *buckets[CACHE_BUCKETS];
	struct entry *newest, *oldest;
	size_t bytes, limit;
	z_stream zs;
	bool zs_ready;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static const unsigned char *map_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p = MAP_FAILED;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		*len = (size_t)st.st_size;
		p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	}
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* A version-2 index and its pack; anything else is left to libgit2. */
static bool pack_open(struct pack *p, const char *idx_path)
{
	char *pack_path = xasprintf("%.*s.pack", (int)(strlen(idx_path) - 4), idx_path);
	memset(p, 0, sizeof(*p));
	p->idx = map_file(idx_path, &p->idx_len);
	p->data = map_file(pack_path, &p->data_len);
	free(pack_path);
	if (p->idx && p->data && p->idx_len >= 8 + 1024 && be32(p->idx) == 0xff744f63 &&
	    be32(p->idx + 4) == 2 && p->data_len >= 12 && !memcmp(p->data, "PACK", 4)) {
		p->fanout = p->idx + 8;
		p->n = be32(p->fanout + 255 * 4);
		p->ids = p->fanout + 1024;
		p->offsets = p->ids + (size_t)p->n * (GIT_OID_RAWSZ + 4);
		p->large = p->offsets + (size_t)p->n * 4;
		if ((size_t)(p->large - p->idx) <= p->idx_len)
			return true;
	}
	if (p->idx)
		munmap((void *)p->idx, p->idx_len);
	if (p->data)
		munmap((void *)p->data, p->data_len);
	return false;
}

struct objread *objread_new(git_repository *r)
{
	struct objread *o = xcalloc(1, sizeof(*o));
	size_t cap = 0;
	o->repo = r;
	o->limit = DELTA_CACHE_BYTES;
	char *dir = xasprintf("%sobjects/pack", git_repository_path(r));
	DIR *d = opendir(dir);
	for (struct dirent *de; d && (de = readdir(d));) {
		if (!str_endswith(de->d_name, ".idx"))
			continue;
		char *path = xasprintf("%s/%s", dir, de->d_name);
		ALLOC_GROW(o->packs, o->npacks + 1, cap);
		if (pack_open(&o->packs[o->npacks], path))
			o->npacks++;
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	return o;
}

static size_t bucket(uint32_t pack, uint64_t offset)
{
	return (size_t)((offset * 2654435761u) ^ pack) % CACHE_BUCKETS;
}

static void lru_unlink(struct objread *o, struct entry *e)
{
	if (e->newer)
		e->newer->older = e->older;
	else
		o->newest = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		o->oldest = e->newer;
}

static void lru_push(struct objread *o, struct entry *e)
{
	e->older = o->newest;
	e->newer = NULL;
	if (o->newest)
		o->newest->newer = e;
	o->newest = e;
	if (!o->oldest)
		o->oldest = e;
}

static void entry_unlink(struct objread *o, struct entry *e)
{
	struct entry **h = &o->buckets[bucket(e->pack, e->offset)];
	while (*h != e)
		h = &(*h)->hnext;
	*h = e->hnext;
	lru_unlink(o, e);
	o->bytes -= e->len;
	e->cached = false;
}

void objread_free(struct objread *o)
{
	if (!o)
		return;
	while (o->oldest) {
		struct entry *e = o->oldest;
		entry_unlink(o, e);
		if (!e->pins)
			free(e);
	}
	for (size_t i = 0; i < o->npacks; i++) {
		munmap((void *)o->packs[i].idx, o->packs[i].idx_len);
		munmap((void *)o->packs[i].data, o->packs[i].data_len);
	}
	free(o->packs);
	if (o->zs_ready)
		inflateEnd(&o->zs);
	free(o);
}

static struct entry *cache_get(struct objread *o, uint32_t pack, uint64_t offset)
{
	struct entry *e = o->buckets[bucket(pack, offset)];
	while (e && (e->offset != offset || e->pack != pack))
		e = e->hnext;
	if (e) {
		lru_unlink(o, e);
		lru_push(o, e);
		e->pins++;
	}
	return e;
}

/* Keep e (pinned by the caller); forget the least recently used objects
 * beyond the budget (one still pinned is freed by its last release). */
static void cache_put(struct objread *o, struct entry *e)
{
	size_t b = bucket(e->pack, e->offset);
	e->hnext = o->buckets[b];
	o->buckets[b] = e;
	lru_push(o, e);
	o->bytes += e->len;
	e->cached = true;
	while (o->bytes > o->limit && o->oldest != e) {
		struct entry *v = o->oldest;
		entry_unlink(o, v);
		if (!v->pins)
			free(v);
	}
}

/* zlib's fast decoding loop runs only while 258 bytes of output room are
 * left: an exact-size buffer would decode a small object a byte at a time */
#define INFLATE_SLACK 258

static struct entry *entry_alloc(size_t len, size_t slack)
{
	struct entry *e = xmalloc(sizeof(*e) + len + 1 + slack);
	memset(e, 0, sizeof(*e));
	e->len = len;
	e->data[len] = '\0';
	e->pins = 1;
	return e;
}

static struct entry *entry_new(size_t len)
{
	return entry_alloc(len, 0);
}

void objread_limit(struct objread *o, size_t bytes)
{
	o->limit = bytes;
}

size_t objread_cached(const struct objread *o)
{
	return o->bytes;
}

size_t objread_packs(const struct objread *o)
{
	return o->npacks;
}

void objread_release(struct objread *o, const char *data)
{
	if (!data)
		return;
	struct entry *e = (struct entry *)(void *)(data - offsetof(struct entry, data));
	(void)o;
	if (--e->pins == 0 && !e->cached)
		free(e);
}

static bool find(const struct objread *o, const unsigned char *id, uint32_t *pack, uint64_t *off)
{
	for (uint32_t i = 0; i < o->npacks; i++) {
		const struct pack *p = &o->packs[i];
		uint32_t lo = id[0] ? be32(p->fanout + (id[0] - 1) * 4) : 0;
		uint32_t hi = be32(p->fanout + id[0] * 4);
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int c = memcmp(p->ids + (size_t)mid * GIT_OID_RAWSZ, id, GIT_OID_RAWSZ);
			if (c < 0)
				lo = mid + 1;
			else if (c > 0)
				hi = mid;
			else {
				uint32_t v = be32(p->offsets + (size_t)mid * 4);
				if (v & 0x80000000u) {
					const unsigned char *l =
					    p->large + (size_t)(v & 0x7fffffffu) * 8;
					if ((size_t)(l + 8 - p->idx) > p->idx_len)
						return false;
					*off = (uint64_t)be32(l) << 32 | be32(l + 4);
				} else {
					*off = v;
				}
				*pack = i;
				return *off < p->data_len;
			}
		}
	}
	return false;
}

struct hdr {
	int type;
	size_t size;		      /* of the object, or of the delta data */
	uint64_t data;		      /* where the zlib stream starts */
	uint64_t base;		      /* OFS_DELTA: the base's offset */
	const unsigned char *base_id; /* REF_DELTA */
};

static bool parse_header(const struct pack *p, uint64_t off, struct hdr *h)
{
	const unsigned char *s = p->data + off, *end = p->data + p->data_len;
	if (s >= end)
		return false;
	unsigned c = *s++, shift = 4;
	h->type = (c >> 4) & 7;
	h->size = c & 15;
	while (c & 0x80) {
		if (s >= end || shift > 57)
			return false;
		c = *s++;
		h->size |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	}
	if (h->type == OBJ_OFS_DELTA) {
		if (s >= end)
			return false;
		c = *s++;
		uint64_t rel = c & 0x7f;
		while (c & 0x80) {
			if (s >= end || rel >> 56)
				return false;
			c = *s++;
			rel = ((rel + 1) << 7) | (c & 0x7f);
		}
		if (rel == 0 || rel > off)
			return false;
		h->base = off - rel;
	} else if (h->type == OBJ_REF_DELTA) {
		if (end - s < GIT_OID_RAWSZ)
			return false;
		h->base_id = s;
		s += GIT_OID_RAWSZ;
	} else if (h->type < GIT_OBJECT_COMMIT || h->type > GIT_OBJECT_TAG) {
		return false;
	}
	h->data = (uint64_t)(s - p->data);
	return true;
}

/* Inflate exactly `size` bytes from the zlib stream at h->data. */
static char *inflate_at(struct objread *o, const struct pack *p, const struct hdr *h,
			struct entry **out)
{
	if (h->size >= UINT32_MAX - INFLATE_SLACK - 1) /* zlib counts in 32 bits: libgit2 */
		return NULL;
	struct entry *e = entry_alloc(h->size, INFLATE_SLACK);
	if (!o->zs_ready) {
		if (inflateInit(&o->zs) != Z_OK)
			goto fail;
		o->zs_ready = true;
	} else if (inflateReset(&o->zs) != Z_OK) {
		goto fail;
	}
	o->zs.next_in = (unsigned char *)p->data + h->data;
	size_t avail = p->data_len - h->data;
	o->zs.avail_in = avail > UINT32_MAX ? UINT32_MAX : (unsigned)avail;
	o->zs.next_out = (unsigned char *)e->data;
	/* room to see a stream that is too long */
	o->zs.avail_out = (unsigned)h->size + 1 + INFLATE_SLACK;
	int rc = inflate(&o->zs, Z_FINISH);
	if (rc != Z_STREAM_END || o->zs.total_out != h->size)
		goto fail;
	e->data[h->size] = '\0';
	*out = e;
	return e->data;
fail:
	free(e);
	return NULL;
}

static size_t delta_varint(const unsigned char **d, const unsigned char *end)
{
	size_t v = 0;
	unsigned shift = 0;
	unsigned char c;
	do {
		if (*d >= end || shift > 57)
			return SIZE_MAX;
		c = *(*d)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

/* git's patch_delta(): the object that `delta` makes of `base`. */
static struct entry *delta_apply(const struct entry *base, const struct entry *delta)
{
	const unsigned char *d = (const unsigned char *)delta->data, *end = d + delta->len;
	size_t src = delta_varint(&d, end), dst = delta_varint(&d, end);
	if (src != base->len || dst == SIZE_MAX)
		return NULL;
	struct entry *e = entry_new(dst);
	char *out = e->data, *out_end = e->data + dst;
	while (d < end) {
		unsigned cmd = *d++;
		if (cmd & 0x80) {
			size_t off = 0, size = 0;
			for (unsigned i = 0; i < 4; i++)
				if (cmd & (1u << i)) {
					if (d >= end)
						goto fail;
					off |= (size_t)*d++ << (8 * i);
				}
			for (unsigned i = 0; i < 3; i++)
				if (cmd & (0x10u << i)) {
					if (d >= end)
						goto fail;
					size |= (size_t)*d++ << (8 * i);
				}
			if (!size)
				size = 0x10000;
			if (off + size < off || off + size > base->len ||
			    size > (size_t)(out_end - out))
				goto fail;
			memcpy(out, base->data + off, size);
			out += size;
		} else if (cmd) {
			if (cmd > (size_t)(end - d) || cmd > (size_t)(out_end - out))
				goto fail;
			memcpy(out, d, cmd);
			out += cmd;
			d += cmd;
		} else {
			goto fail;
		}
	}
	if (out == out_end)
		return e;
fail:
	free(e);
	return NULL;
}

/* The object at a pack offset: down its delta chain to a cached object or a
 * whole one, then up again, keeping every object made on the way (but a
 * whole object read `once` is not kept). */
static struct entry *read_at(struct objread *o, uint32_t pack, uint64_t off, bool once)
{
	struct chain {
		uint32_t pack;
		uint64_t off;
		struct hdr h;
	} *chain = NULL;
	size_t n = 0, cap = 0;
	struct entry *cur = NULL;
	for (;;) {
		if ((cur = cache_get(o, pack, off)))
			break;
		if (n >= MAX_CHAIN)
			goto out;
		ALLOC_GROW(chain, n + 1, cap);
		struct chain *c = &chain[n++];
		c->pack = pack;
		c->off = off;
		if (!parse_header(&o->packs[pack], off, &c->h))
			goto out;
		if (c->h.type == OBJ_OFS_DELTA) {
			off = c->h.base;
		} else if (c->h.type == OBJ_REF_DELTA) {
			if (!find(o, c->h.base_id, &pack, &off))
				goto out;
		} else {
			n--; /* a whole object: the bottom of the chain */
			if (!inflate_at(o, &o->packs[pack], &c->h, &cur))
				goto out;
			cur->type = (git_object_t)c->h.type;
			cur->pack = pack;
			cur->offset = off;
			if (!once || n) {
				/* the fast loop's room back (in place): the cache
				 * counts only the object */
				cur = xrealloc(cur, sizeof(*cur) + cur->len + 1);
				cache_put(o, cur);
			}
			break;
		}
	}
	while (n > 0) {
		struct chain *c = &chain[--n];
		struct entry *delta, *next;
		if (!inflate_at(o, &o->packs[c->pack], &c->h, &delta))
			goto fail;
		next = delta_apply(cur, delta);
		free(delta);
		if (!next)
			goto fail;
		next->type = cur->type;
		next->pack = c->pack;
		next->offset = c->off;
		objread_release(o, cur->data);
		cur = next;
		cache_put(o, cur);
	}
	goto out;
fail:
	objread_release(o, cur->data);
	cur = NULL;
out:
	free(chain);
	return cur;
}

static int read_object(struct objread *o, const git_oid *id, git_object_t *type, const char **data,
		       size_t *len, bool once)
{
	uint32_t pack;
	uint64_t off;
	struct entry *e = NULL;
	if (find(o, id->id, &pack, &off))
		e = read_at(o, pack, off, once);
	if (!e) { /* loose, or not readable here: libgit2 */
		git_odb *odb;
		git_odb_object *obj;
		if (git_repository_odb(&odb, o->repo) < 0)
			return -1;
		int rc = git_odb_read(&obj, odb, id);
		git_odb_free(odb);
		if (rc < 0)
			return -1;
		e = entry_new(git_odb_object_size(obj));
		memcpy(e->data, git_odb_object_data(obj), e->len);
		e->type = git_odb_object_type(obj);
		git_odb_object_free(obj);
	}
	*type = e->type;
	*data = e->data;
	*len = e->len;
	return 0;
}

int objread_read(struct objread *o, const git_oid *id, git_object_t *type, const char **data,
		 size_t *len)
{
	return read_object(o, id, type, data, len, false);
}

int objread_read_once(struct objread *o, const git_oid *id, git_object_t *type, const char **data,
		      size_t *len)
{
	return read_object(o, id, type, data, len, true);
}
