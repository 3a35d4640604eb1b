// SPDX-License-Identifier: GPL-2.0
/*
 * policy-fuzz: write many mutated policy blobs to tpe/policy and check each
 * result against a reference validator written here from the ABI
 * (include/uapi/linux/tpe.h), not from the kernel's code:
 *
 *   - a write at a file offset other than 0                     EINVAL
 *   - shorter than the header                                   EINVAL
 *   - bad magic, version, hdr_len, unknown flag, reserved != 0  EINVAL
 *   - nr_uids + nr_gids > TPE_POLICY_MAX_ENTRIES (no wrap)      E2BIG
 *   - length != hdr_len + 4 * (nr_uids + nr_gids)               EINVAL
 *   - a list not strictly ascending (unsorted, duplicate)       EINVAL
 *   - the buffer not readable                                   EFAULT
 *
 * in that order of precedence: a bad header is EINVAL whatever its counts
 * say; a good header with too many entries is E2BIG whatever the length is
 * (a huge count with a short blob is E2BIG, not EINVAL).
 *
 * After every write the live policy read back must be byte-identical to
 * the last blob that was accepted. Run as root: root is never checked by
 * TPE, so no flag combination stops this program. LOCK is masked out of
 * every blob (it would end the run), and the policy found at the start is
 * put back at the end.
 *
 *   policy-fuzz [-s SEED] [-n COUNT] [-d]
 *
 * -d (dry run) only generates and classifies, writing nothing: for looking
 * at the generator on a host without TPE.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define HDR ((size_t)sizeof(struct tpe_policy_hdr))
#define MAX_BLOB (HDR + 4 * (size_t)TPE_POLICY_MAX_ENTRIES)

/* ---- a reproducible generator: splitmix64 ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

/* ---- the reference validator ---- */

static uint32_t le32_at(const unsigned char *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b + off, 4);
	return le32toh(v);
}

static uint16_t le16_at(const unsigned char *b, size_t off)
{
	uint16_t v;

	memcpy(&v, b + off, 2);
	return le16toh(v);
}

static bool ascending(const unsigned char *ids, uint64_t n)
{
	for (uint64_t i = 1; i < n; i++)
		if (le32_at(ids, 4 * (i - 1)) >= le32_at(ids, 4 * i))
			return false;
	return true;
}

/* The header and the length: 0, EINVAL or E2BIG. len >= HDR. */
static int reference_header(const unsigned char *b, size_t len)
{
	uint64_t nu, ng;

	if (le32_at(b, 0) != TPE_POLICY_MAGIC || le16_at(b, 4) != TPE_POLICY_VERSION ||
	    le16_at(b, 6) != HDR || (le32_at(b, 8) & ~TPE_POLICY_ALL_FLAGS) ||
	    le32_at(b, 20) != 0)
		return EINVAL;
	nu = le32_at(b, 12);
	ng = le32_at(b, 16);
	if (nu + ng > TPE_POLICY_MAX_ENTRIES)
		return E2BIG;
	if (len != HDR + 4 * (nu + ng))
		return EINVAL;
	return 0;
}

/*
 * The errno the ABI promises for writing b[0..len) at offset off, when only
 * the first readable bytes of the caller's buffer can be read; 0: accepted.
 */
static int reference(const unsigned char *b, size_t len, off_t off, size_t readable)
{
	uint64_t nu;
	int err;

	if (off != 0)
		return EINVAL;
	if (len < HDR)
		return EINVAL;
	if (readable < HDR)
		return EFAULT;
	err = reference_header(b, len);
	if (err)
		return err;
	if (readable < len)
		return EFAULT;
	nu = le32_at(b, 12);
	if (!ascending(b + HDR, nu) || !ascending(b + HDR + 4 * nu, le32_at(b, 16)))
		return EINVAL;
	return 0;
}

/* ---- blobs ---- */

static unsigned char *blob;	/* MAX_BLOB + slack */
static size_t blob_cap;

static void put32(size_t off, uint32_t v)
{
	v = htole32(v);
	memcpy(blob + off, &v, 4);
}

static void put16(size_t off, uint16_t v)
{
	v = htole16(v);
	memcpy(blob + off, &v, 2);
}

/* Mostly small lists, sometimes thousands, rarely the very limit. */
static uint32_t list_size(void)
{
	uint32_t r = below(10000);

	if (r < 3)
		return TPE_POLICY_MAX_ENTRIES - below(3);	/* near the limit */
	if (r < 30)
		return below(20000);
	if (r < 2500)
		return below(300);
	return below(12);
}

static void fill_ascending(size_t off, uint32_t n)
{
	/* strictly ascending, gaps from 1 up; sometimes ending at U32_MAX */
	uint64_t span = n ? (0xffffffffULL / n) : 1;
	uint64_t v = chance(20) ? 0 : below(1000);
	uint32_t step_max = span > 1000 ? 1000 : (uint32_t)span;

	if (step_max < 1)
		step_max = 1;
	for (uint32_t i = 0; i < n; i++) {
		put32(off + 4 * (size_t)i, (uint32_t)v);
		v += 1 + below(step_max);
	}
	if (n && chance(10) && le32_at(blob, off + 4 * ((size_t)n - 1)) < 0xffffffffu)
		put32(off + 4 * ((size_t)n - 1), 0xffffffffu);
}

/* A valid blob with random flags (never LOCK); returns its length. */
static size_t make_valid(void)
{
	uint32_t nu = list_size(), ng = list_size();

	if ((uint64_t)nu + ng > TPE_POLICY_MAX_ENTRIES)
		ng = TPE_POLICY_MAX_ENTRIES - nu;
	put32(0, TPE_POLICY_MAGIC);
	put16(4, TPE_POLICY_VERSION);
	put16(6, HDR);
	put32(8, below(TPE_POLICY_ALL_FLAGS + 1) & ~TPE_POLICY_LOCK);
	put32(12, nu);
	put32(16, ng);
	put32(20, 0);
	fill_ascending(HDR, nu);
	fill_ascending(HDR + 4 * (size_t)nu, ng);
	return HDR + 4 * ((size_t)nu + ng);
}

enum kind {
	K_VALID, K_ODD, K_BITFLIP, K_BYTES, K_TRUNCATE, K_EXTEND, K_COUNT,
	K_UNSORTED, K_DUPLICATE, K_HUGE, K_HEADER, K_RANDOM, K_OFFSET, K_FAULT,
	NR_KINDS
};

static const char *const kind_names[NR_KINDS] = {
	"valid", "valid-but-odd", "bit flips", "byte changes", "truncated",
	"extended", "count mismatch", "unsorted", "duplicate id", "huge count",
	"bad header field", "random bytes", "write at offset", "unreadable tail",
};

/* Valid blobs of unusual shape. */
static size_t make_odd(void)
{
	size_t len = make_valid();
	uint32_t nu = le32_at(blob, 12), ng = le32_at(blob, 16);

	switch (below(6)) {
	case 0: /* no lists at all */
		put32(12, 0);
		put32(16, 0);
		return HDR;
	case 1: /* the extremes of the ID space */
		put32(12, 2);
		put32(16, 2);
		put32(HDR, 0);
		put32(HDR + 4, 0xffffffffu);
		put32(HDR + 8, 0);
		put32(HDR + 12, 0xffffffffu);
		return HDR + 16;
	case 2: /* uids and gids the same list */
		if (nu > 4096)
			nu = 4096;
		put32(12, nu);
		put32(16, nu);
		fill_ascending(HDR, nu);
		memcpy(blob + HDR + 4 * (size_t)nu, blob + HDR, 4 * (size_t)nu);
		return HDR + 8 * (size_t)nu;
	case 3: /* every flag but LOCK, root listed */
		put32(8, TPE_POLICY_ALL_FLAGS & ~TPE_POLICY_LOCK);
		if (nu)
			put32(HDR, 0);
		return len;
	case 4: /* exactly the limit, split between the lists: rarely, it is 4 MiB */
		if (!chance(3))
			return len;
		nu = below(TPE_POLICY_MAX_ENTRIES + 1);
		ng = TPE_POLICY_MAX_ENTRIES - nu;
		put32(12, nu);
		put32(16, ng);
		fill_ascending(HDR, nu);
		fill_ascending(HDR + 4 * (size_t)nu, ng);
		return MAX_BLOB;
	default: /* one gid, no uids */
		put32(12, 0);
		put32(16, 1);
		put32(HDR, (uint32_t)rnd());
		return HDR + 4;
	}
	(void)ng;
}

/* Mutate a fresh valid blob in the way kind says; returns the new length. */
static size_t make(enum kind k, off_t *off, bool *fault)
{
	size_t len = k == K_ODD ? make_odd() : make_valid();
	uint32_t nu = le32_at(blob, 12), ng = le32_at(blob, 16);
	uint32_t n;

	*off = 0;
	*fault = false;
	switch (k) {
	case K_VALID:
	case K_ODD:
		break;
	case K_BITFLIP:
		n = 1 + below(8);
		for (uint32_t i = 0; i < n; i++) {
			/* half of the flips in the header, where they matter most */
			size_t at = chance(50) ? below(HDR) : below(len);

			blob[at] ^= 1u << below(8);
		}
		break;
	case K_BYTES:
		n = 1 + below(4);
		for (uint32_t i = 0; i < n; i++)
			blob[below(len)] = (unsigned char)rnd();
		break;
	case K_TRUNCATE:
		len = chance(30) ? below(HDR) : below(len);
		break;
	case K_EXTEND:
		n = chance(50) ? 4 * (1 + below(16)) : 1 + below(64);
		for (uint32_t i = 0; i < n; i++)
			blob[len + i] = (unsigned char)rnd();
		len += n;
		break;
	case K_COUNT:
		if (chance(50))
			put32(12, nu + (chance(50) ? 1 + below(4) : -(1 + below(4))));
		else
			put32(16, ng + (chance(50) ? 1 + below(4) : -(1 + below(4))));
		break;
	case K_UNSORTED:
		if (nu + ng >= 2) {
			bool in_uids = nu >= 2 && (ng < 2 || chance(50));
			uint32_t base = in_uids ? 0 : nu;
			uint32_t cnt = in_uids ? nu : ng;
			uint32_t i = below(cnt - 1);
			size_t a = HDR + 4 * ((size_t)base + i), b = a + 4;
			unsigned char t[4];

			if (cnt < 2)
				break;
			memcpy(t, blob + a, 4);
			memcpy(blob + a, blob + b, 4);
			memcpy(blob + b, t, 4);
		}
		break;
	case K_DUPLICATE:
		if (nu >= 2 || ng >= 2) {
			bool in_uids = nu >= 2 && (ng < 2 || chance(50));
			uint32_t base = in_uids ? 0 : nu;
			uint32_t cnt = in_uids ? nu : ng;
			size_t at = HDR + 4 * ((size_t)base + 1 + below(cnt - 1));

			memcpy(blob + at, blob + at - 4, 4);
		}
		break;
	case K_HUGE:
		switch (below(4)) {
		case 0:
			put32(12, TPE_POLICY_MAX_ENTRIES + 1 + below(1000));
			break;
		case 1: /* the sum wraps in 32 bits */
			put32(12, 0xffffffffu - below(4));
			put32(16, 1 + below(8));
			break;
		case 2:
			put32(12, (uint32_t)rnd());
			put32(16, (uint32_t)rnd());
			break;
		default: /* each half fits, the sum does not */
			put32(12, TPE_POLICY_MAX_ENTRIES / 2 + 1);
			put32(16, TPE_POLICY_MAX_ENTRIES / 2);
			break;
		}
		if (chance(30)) {	/* and also a bad header */
			blob[below(8)] ^= 1u << below(8);
		}
		break;
	case K_HEADER:
		switch (below(6)) {
		case 0: put32(0, (uint32_t)rnd()); break;
		case 1: put16(4, chance(50) ? 0 : (uint16_t)rnd()); break;
		case 2: put16(6, chance(50) ? HDR + 4 * (1 + below(4)) : (uint16_t)rnd()); break;
		case 3: put32(8, le32_at(blob, 8) | (TPE_POLICY_LOCK << (1 + below(26)))); break;
		case 4: put32(20, 1u << below(32)); break;
		default: put32(8, (uint32_t)rnd()); break;
		}
		break;
	case K_RANDOM:
		len = below(chance(80) ? 64 : 4096);
		for (size_t i = 0; i < len; i++)
			blob[i] = (unsigned char)rnd();
		if (chance(50) && len >= 4)
			put32(0, TPE_POLICY_MAGIC);
		if (chance(30) && len >= 8) {
			put16(4, TPE_POLICY_VERSION);
			put16(6, HDR);
		}
		break;
	case K_OFFSET:
		*off = 1 + below(len + 8);
		break;
	case K_FAULT:
		*fault = true;
		break;
	default:
		break;
	}
	/* Never let a LOCK through: it would end the run. */
	if (len >= 12)
		put32(8, le32_at(blob, 8) & ~TPE_POLICY_LOCK);
	return len;
}

/* ---- the run ---- */

static int policy_fd = -1;
static unsigned char *readback;	/* MAX_BLOB + slack */
static unsigned char *last;	/* last accepted blob */
static size_t last_len;
static char *fault_page;	/* a readable page followed by an unmapped one */

static ssize_t read_live(void)
{
	ssize_t n = policy_read(readback, MAX_BLOB + 4096);

	return n;
}

static void hexdump(const unsigned char *b, size_t len)
{
	char line[3 * 48 + 1];
	size_t n = len < 48 ? len : 48;

	for (size_t i = 0; i < n; i++)
		snprintf(line + 3 * i, 4, "%02x ", b[i]);
	line[3 * n] = 0;
	note("  blob (%zu bytes) starts: %s", len, line);
}

int main(int argc, char **argv)
{
	uint64_t seed = 0;
	bool seeded = false, dry = false;
	unsigned long count = 100000;
	unsigned long per_kind[NR_KINDS][2] = { { 0 } };	/* [accepted, rejected] */
	unsigned long by_err[4] = { 0 };	/* 0, EINVAL, E2BIG, EFAULT */
	unsigned long mismatch = 0, readback_bad = 0, big = 0;
	unsigned char *orig;
	ssize_t orig_len;
	struct timespec t0, t1;
	int opt;

	setvbuf(stdout, NULL, _IOLBF, 0);
	prog_name = "policy-fuzz";
	while ((opt = getopt(argc, argv, "s:n:d")) != -1) {
		if (opt == 'd') {
			dry = true;
		} else if (opt == 's') {
			seed = strtoull(optarg, NULL, 0);
			seeded = true;
		} else if (opt == 'n') {
			count = strtoul(optarg, NULL, 0);
		} else {
			fprintf(stderr, "usage: policy-fuzz [-s SEED] [-n COUNT] [-d]\n");
			return 2;
		}
	}
	if (!seeded && getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		die("getrandom");
	rng_state = seed;
	note("seed %#" PRIx64 " count %lu (reproduce: policy-fuzz -s %#" PRIx64 " -n %lu)",
	     seed, count, seed, count);

	blob_cap = MAX_BLOB + 4096;
	blob = malloc(blob_cap);
	readback = malloc(MAX_BLOB + 4096);
	last = malloc(MAX_BLOB + 4096);
	orig = malloc(MAX_BLOB + 4096);
	fault_page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!blob || !readback || !last || !orig || fault_page == MAP_FAILED ||
	    mprotect(fault_page + 4096, 4096, PROT_NONE))
		die("memory");
	memset(blob, 0, blob_cap);

	if (dry) {
		unsigned long res[4] = { 0 };

		for (unsigned long i = 0; i < count; i++) {
			off_t off;
			bool fault;
			enum kind k = below(NR_KINDS);
			size_t len = make(k, &off, &fault);
			int want = reference(blob, len, off, fault ? below(len + 1) : len);

			res[want == 0 ? 0 : want == EINVAL ? 1 : want == E2BIG ? 2 : 3]++;
			per_kind[k][want == 0]++;
		}
		note("dry run: accepted %lu EINVAL %lu E2BIG %lu EFAULT %lu",
		     res[0], res[1], res[2], res[3]);
		for (int k = 0; k < NR_KINDS; k++)
			note("  %-18s accepted %6lu rejected %6lu", kind_names[k],
			     per_kind[k][1], per_kind[k][0]);
		return 0;
	}
	orig_len = policy_read(orig, MAX_BLOB + 4096);
	if (orig_len < 0) {
		errno = -orig_len;
		die("read %s", POLICY_PATH);
	}
	memcpy(last, orig, orig_len);
	last_len = orig_len;
	policy_fd = open(POLICY_PATH, O_WRONLY);
	if (policy_fd < 0)
		die("open %s", POLICY_PATH);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long i = 0; i < count; i++) {
		enum kind k = below(NR_KINDS);
		off_t off;
		bool fault;
		size_t len = make(k, &off, &fault);
		const unsigned char *src = blob;
		int want, got = 0;
		ssize_t n;

		if (k == K_VALID && chance(3))
			k = K_ODD, len = make(k, &off, &fault);
		want = reference(blob, len, off, len);
		if (fault) {
			/* only the first cut bytes are readable: the rest is an unmapped page */
			size_t keep = len < 4096 ? len : 4096;
			size_t cut = below(keep + 1);

			memcpy(fault_page + 4096 - cut, blob, cut);
			src = (unsigned char *)fault_page + 4096 - cut;
			want = reference(blob, len, off, cut);
		}
		if (len > 65536)
			big++;
		n = pwrite(policy_fd, src, len, off);
		if (n < 0)
			got = errno;
		else if ((size_t)n != len)
			got = -1;
		per_kind[k][got == 0]++;
		by_err[got == 0 ? 0 : got == EINVAL ? 1 : got == E2BIG ? 2 : 3]++;
		if (got != want) {
			if (++mismatch <= 20) {
				note("blob %lu (%s, %zu bytes, offset %lld): expected %s, got %s",
				     i, kind_names[k], len, (long long)off, errno_name(want),
				     got < 0 ? "short write" : errno_name(got));
				hexdump(src, len);
			}
		}
		if (got == 0) {
			memcpy(last, blob, len);
			last_len = len;
		}
		n = read_live();
		if (n != (ssize_t)last_len || memcmp(readback, last, last_len)) {
			if (++readback_bad <= 20)
				note("blob %lu (%s): live policy is %zd bytes, not the last accepted %zu",
				     i, kind_names[k], n, last_len);
		}
		/* Keep the live policy small, so reading it back stays cheap. */
		if (got == 0 && len > 65536) {
			size_t l = make(K_ODD, &off, &fault);

			while (reference(blob, l, 0, l) || l > 65536)
				l = make(K_VALID, &off, &fault);
			if (pwrite(policy_fd, blob, l, 0) != (ssize_t)l)
				die("writing a small policy back");
			memcpy(last, blob, l);
			last_len = l;
		}
		if ((i + 1) % 20000 == 0)
			note("%lu blobs, %lu mismatches", i + 1, mismatch);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(policy_fd);

	note("%lu blobs in %.1f s; accepted %lu, EINVAL %lu, E2BIG %lu, EFAULT/other %lu; %lu over 64 KiB",
	     count, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	     by_err[0], by_err[1], by_err[2], by_err[3], big);
	for (int k = 0; k < NR_KINDS; k++)
		note("  %-18s accepted %6lu rejected %6lu", kind_names[k], per_kind[k][1],
		     per_kind[k][0]);

	check(count >= 100000, "fewer than 100000 blobs asked for",
	      "at least 100000 blobs written (%lu)", count);
	check(mismatch == 0, "see the blobs logged above",
	      "every write's errno is the reference validator's (%lu mismatches, seed %#" PRIx64 ")",
	      mismatch, seed);
	check(readback_bad == 0, "see the blobs logged above",
	      "live policy read back is the last accepted blob after every write (%lu differ)",
	      readback_bad);
	/* The run means something only if every class of answer came up. */
	check(by_err[0] > count / 20 && by_err[1] > count / 5 && by_err[2] > count / 100 &&
	      by_err[3] > 0, "the generator is lopsided",
	      "accepted, EINVAL, E2BIG and EFAULT all seen often (%lu/%lu/%lu/%lu)",
	      by_err[0], by_err[1], by_err[2], by_err[3]);

	/* Put back the policy this run found. */
	opt = policy_write_raw(orig, orig_len);
	check(!opt, errno_name(opt), "the policy found at the start is live again");
	return nr_fail ? 1 : 0;
}
