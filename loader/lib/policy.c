// SPDX-License-Identifier: GPL-2.0
/* struct tpe_policy <-> the binary blob defined by <linux/tpe.h>. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tpe.h>

#include "libtpe.h"

#define HDR_LEN sizeof(struct tpe_policy_hdr)

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Is id in the list? The list is sorted, as ids_fold() leaves it. */
int ids_has(const struct tpe_ids *ids, uint32_t id)
{
	return ids->n &&
	       bsearch(&id, ids->id, ids->n, sizeof(id), cmp_id) != NULL;
}

/* Sort and drop duplicates; returns the new count. */
size_t ids_fold(uint32_t *id, size_t n)
{
	size_t i, out = 0;

	if (n)
		qsort(id, n, sizeof(*id), cmp_id);
	for (i = 0; i < n; i++)
		if (out == 0 || id[i] != id[out - 1])
			id[out++] = id[i];
	return out;
}

static uint8_t *put_ids(uint8_t *at, const struct tpe_ids *ids)
{
	for (size_t i = 0; i < ids->n; i++, at += 4) {
		uint32_t le = htole32(ids->id[i]);

		memcpy(at, &le, 4);
	}
	return at;
}

/* The ID lists must already be folded (sorted, unique). */
int policy_encode(const struct tpe_policy *p, uint8_t **blob, size_t *len,
		  char err[ERRLEN])
{
	size_t entries = p->users.n + p->groups.n;
	struct tpe_policy_hdr h = {
		.magic = htole32(TPE_POLICY_MAGIC),
		.version = htole16(TPE_POLICY_VERSION),
		.hdr_len = htole16(HDR_LEN),
		.flags = htole32(p->flags),
		.nr_uids = htole32(p->users.n),
		.nr_gids = htole32(p->groups.n),
	};

	if (entries > TPE_POLICY_MAX_ENTRIES) {
		snprintf(err, ERRLEN, "too many entries: %zu users and groups, "
			 "the kernel takes at most %u", entries,
			 TPE_POLICY_MAX_ENTRIES);
		return -1;
	}
	*len = HDR_LEN + 4 * entries;
	*blob = malloc(*len);
	if (!*blob) {
		snprintf(err, ERRLEN, "out of memory");
		return -1;
	}
	memcpy(*blob, &h, HDR_LEN);
	put_ids(put_ids(*blob + HDR_LEN, &p->users), &p->groups);
	return 0;
}

static uint32_t get32(const uint8_t *at)
{
	uint32_t le;

	memcpy(&le, at, 4);
	return le32toh(le);
}

static const char *get_ids(const uint8_t **at, uint32_t n,
			   struct tpe_ids *ids)
{
	ids->id = malloc((n ? n : 1) * sizeof(*ids->id));
	if (!ids->id)
		return "out of memory";
	for (ids->n = 0; ids->n < n; ids->n++, *at += 4) {
		ids->id[ids->n] = get32(*at);
		if (ids->n && ids->id[ids->n] <= ids->id[ids->n - 1])
			return "policy ID lists are not strictly ascending";
	}
	return NULL;
}

/* Checks what the kernel checks, so a decoded blob re-encodes identically. */
int policy_decode(const uint8_t *blob, size_t len, struct tpe_policy *p,
		  char err[ERRLEN])
{
	struct tpe_policy_hdr h;
	const uint8_t *at = blob + HDR_LEN;
	const char *why;
	uint32_t nu, ng;

	memset(p, 0, sizeof(*p));
	if (len < HDR_LEN) {
		snprintf(err, ERRLEN, "policy is %zu bytes, shorter than its "
			 "header", len);
		return -1;
	}
	memcpy(&h, blob, HDR_LEN);
	nu = le32toh(h.nr_uids);
	ng = le32toh(h.nr_gids);
	p->flags = le32toh(h.flags);
	if (le32toh(h.magic) != TPE_POLICY_MAGIC ||
	    le16toh(h.version) != TPE_POLICY_VERSION ||
	    le16toh(h.hdr_len) != HDR_LEN || h.reserved ||
	    (p->flags & ~TPE_POLICY_ALL_FLAGS)) {
		snprintf(err, ERRLEN, "policy header is not a version %u "
			 "tpe policy", TPE_POLICY_VERSION);
		return -1;
	}
	if ((uint64_t)nu + ng > TPE_POLICY_MAX_ENTRIES ||
	    len != HDR_LEN + 4 * ((size_t)nu + ng)) {
		snprintf(err, ERRLEN, "policy is %zu bytes, its header "
			 "says %u users and %u groups", len, nu, ng);
		return -1;
	}
	why = get_ids(&at, nu, &p->users);
	if (!why)
		why = get_ids(&at, ng, &p->groups);
	if (why) {
		policy_free(p);
		snprintf(err, ERRLEN, "%s", why);
		return -1;
	}
	return 0;
}

void policy_free(struct tpe_policy *p)
{
	free(p->users.id);
	free(p->groups.id);
	p->users = p->groups = (struct tpe_ids){ 0 };
}
