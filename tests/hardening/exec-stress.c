// SPDX-License-Identifier: GPL-2.0
/*
 * exec-stress: exec trusted and untrusted binaries from several processes
 * while another replaces the policy over and over, alternating two lists.
 *
 *   policy A: ENFORCE|MMAP,            uids {bob, carol}
 *   policy B: ENFORCE|MMAP|CHECK_FILE, uids {bob, 5000 others}, gids {dave's}
 *
 * Workers (each its own user) spawn a trusted binary (root-owned 0755 dir)
 * and an untrusted one (alice's 0755 dir) in turn:
 *   alice - untrusted in both:         trusted always runs, untrusted never
 *   bob   - trusted in both:           both always run
 *   carol - trusted in A only,
 *   dave  - trusted in B only:         trusted always runs, untrusted either
 * A trusted exec denied, or an exec the two policies agree on going the
 * other way, is a failure. The debug kernel must stay silent (boot-qemu).
 *
 * Between execs each worker also maps the untrusted binary PROT_EXEC from
 * its own process, whose credential stays the same while the policies
 * swap under it (TPE keeps a verdict per credential and policy): the same
 * expectations hold. Once the reloads stop, root writes policy A one last
 * time and every worker's next mapping must follow A.
 *
 * carol's and dave's untrusted execs may also die by a signal: the exec
 * passed bprm_check_security under one policy, and the kernel's own mmap of
 * the ELF segments was refused (MMAP) under the next. Past exec's point of
 * no return the process is killed; it never ran. Counted and reported.
 *
 *   exec-stress [-t SECONDS] [-e EXECS] [-m MIN_EXECS] [-r RELOADS] [-w WORKERS]
 *
 * Runs until RELOADS are done and either EXECS are reached or SECONDS have
 * passed (waiting up to 3 x SECONDS for the reloads). Fewer
 * than MIN_EXECS (default EXECS) or RELOADS is a failure: under TCG the
 * suite asks for the 1,000,000 as EXECS, stops at its time budget,
 * and sets MIN_EXECS from what that budget was measured to give.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define BASE "/run/tpe-stress"
#define T BASE "/trusted/tiny"
#define U BASE "/untrusted/tiny"

static struct user carol = { "carol", 60003, 60003, 0, { 0 } };
static struct user dave = { "dave", 60004, 60004, 0, { 0 } };

enum expect { ALWAYS, NEVER, EITHER };

struct counters {
	atomic_ulong execs;		/* attempts, all workers */
	atomic_ulong reloads;
	atomic_int stop;
	atomic_ulong bad;		/* violations */
	atomic_ulong per[8][2][2];	/* worker, target (0 T, 1 U), [denied, ran] */
	atomic_ulong other[8];		/* neither EACCES nor exit 0 */
	atomic_ulong killed[8];		/* killed mid-exec by a policy change */
	atomic_ulong maps[8][2];	/* worker, [denied, mapped] */
	atomic_int settled;		/* policy A written after the last reload */
	atomic_int last_map[8];		/* then: 1 denied, 2 mapped, 3 other */
};

static struct counters *c;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Map the untrusted binary PROT_EXEC: 0 mapped, else the errno. */
static int map_untrusted(int fd)
{
	void *m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	if (m == MAP_FAILED)
		return errno;
	munmap(m, 4096);
	return 0;
}

static void worker(int id, const struct user *u, enum expect untrusted)
{
	static char *const envp[] = { NULL };
	const char *paths[2] = { T, U };
	unsigned long n = 0;

	int fd, err;

	become(u);
	fd = open(U, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(120);
	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		int which = n++ & 1, st;
		char *argv[] = { (char *)paths[which], NULL };
		pid_t pid;
		enum expect want = which ? untrusted : ALWAYS;
		bool ran;

		err = map_untrusted(fd);
		if (err && err != EACCES) {
			atomic_fetch_add(&c->bad, 1);
		} else {
			atomic_fetch_add_explicit(&c->maps[id][!err], 1, memory_order_relaxed);
			if ((untrusted == ALWAYS && err) || (untrusted == NEVER && !err))
				if (atomic_fetch_add(&c->bad, 1) < 10)
					printf("# exec-stress: %s's mapping %s\n", u->name,
					       err ? "denied" : "allowed");
		}
		err = posix_spawn(&pid, paths[which], NULL, NULL, argv, envp);
		if (!err) {
			if (waitpid(pid, &st, 0) < 0) {
				atomic_fetch_add(&c->bad, 1);
				continue;
			}
			if (WIFSIGNALED(st) && want == EITHER) {
				/*
				 * The exec passed the check under one policy and
				 * its ELF mapping was refused under the next one:
				 * past exec's point of no return that kills it.
				 * It did not run; it is a denial, just a late one.
				 */
				atomic_fetch_add(&c->killed[id], 1);
				atomic_fetch_add_explicit(&c->execs, 1, memory_order_relaxed);
				continue;
			}
			if (!WIFEXITED(st) || WEXITSTATUS(st)) {
				if (atomic_fetch_add(&c->other[id], 1) < 3)
					printf("# exec-stress: %s %s: %s %d\n", u->name, paths[which],
					       WIFSIGNALED(st) ? "killed by signal" : "exit",
					       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
				atomic_fetch_add(&c->bad, 1);
				continue;
			}
			ran = true;
		} else if (err == EACCES) {
			ran = false;
		} else {
			if (atomic_fetch_add(&c->other[id], 1) < 3)
				printf("# exec-stress: %s %s: posix_spawn: %s\n", u->name, paths[which],
				       strerror(err));
			atomic_fetch_add(&c->bad, 1);
			continue;
		}
		atomic_fetch_add_explicit(&c->execs, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&c->per[id][which][ran], 1, memory_order_relaxed);
		if ((want == ALWAYS && !ran) || (want == NEVER && ran)) {
			if (atomic_fetch_add(&c->bad, 1) < 10)
				printf("# exec-stress: %s %s %s: %s\n", u->name,
				       ran ? "ran" : "was denied", paths[which],
				       want == ALWAYS ? "both policies trust it" :
				       "both policies distrust it");
		}
	}
	while (!atomic_load(&c->settled))
		usleep(1000);
	err = map_untrusted(fd);
	atomic_store(&c->last_map[id], err == EACCES ? 1 : err ? 3 : 2);
	_exit(0);
}

/* The two policies, as blobs. */
static unsigned char *blob_a, *blob_b;
static size_t len_a, len_b;

static void make_policies(void)
{
	uint32_t a_uids[] = { bob.uid < carol.uid ? bob.uid : carol.uid,
			      bob.uid < carol.uid ? carol.uid : bob.uid };
	static uint32_t b_uids[5001];
	uint32_t b_gids[] = { dave.gid };
	struct policy a = { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, 2, 0, a_uids, NULL };
	struct policy b = { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP | TPE_POLICY_CHECK_FILE,
			    5001, 1, b_uids, b_gids };
	uint32_t n = 0;

	/* bob among 5000 others that no worker is, well away from carol and dave */
	for (uint32_t v = 200000; n < 5000; v += 7)
		b_uids[n++] = v;
	b_uids[n++] = bob.uid;
	/* keep it sorted: bob's uid is below 200000 in any sane image */
	for (uint32_t i = n - 1; i > 0 && b_uids[i] < b_uids[i - 1]; i--) {
		uint32_t t = b_uids[i];

		b_uids[i] = b_uids[i - 1];
		b_uids[i - 1] = t;
	}
	blob_a = policy_blob(&a, &len_a);
	blob_b = policy_blob(&b, &len_b);
}

static void setup(const char *tiny)
{
	umount2(BASE, MNT_DETACH);
	mkdir(BASE, 0755);
	if (mount("tpe-stress", BASE, "tmpfs", 0, "mode=0755"))
		die("mount tmpfs on %s", BASE);
	make_dir(BASE "/trusted", 0755, 0, 0);
	make_dir(BASE "/untrusted", 0755, alice.uid, alice.gid);
	copy_file(tiny, T, 0755, 0, 0);
	copy_file(tiny, U, 0755, alice.uid, alice.gid);
}

int main(int argc, char **argv)
{
	double seconds = 240, t0, t1;
	unsigned long want_execs = 1000000, want_reloads = 10000, min_execs = 0;
	int nworkers = 4, opt, fd;
	char tiny[PATH_MAX + 8];
	struct {
		const struct user *u;
		enum expect untrusted;
	} roles[8];
	pid_t pids[8];
	unsigned char *orig = malloc(1 << 20);
	ssize_t orig_len;
	unsigned long reload_err = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	prog_name = "exec-stress";
	while ((opt = getopt(argc, argv, "t:e:m:r:w:")) != -1) {
		switch (opt) {
		case 'm': min_execs = strtoul(optarg, NULL, 0); break;
		case 't': seconds = atof(optarg); break;
		case 'e': want_execs = strtoul(optarg, NULL, 0); break;
		case 'r': want_reloads = strtoul(optarg, NULL, 0); break;
		case 'w': nworkers = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: exec-stress [-t SECONDS] [-e EXECS] [-m MIN_EXECS] [-r RELOADS] [-w WORKERS]\n");
			return 2;
		}
	}
	if (!min_execs)
		min_execs = want_execs;
	if (nworkers < 4 || nworkers > 8)
		die("need 4 to 8 workers");
	if (!orig)
		die("malloc");
	helper_path("tiny", tiny, sizeof(tiny));
	users_init();
	setup(tiny);
	make_policies();
	orig_len = policy_read(orig, 1 << 20);
	if (orig_len < 0)
		die("read policy");

	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		die("mmap");
	memset(c, 0, sizeof(*c));

	roles[0].u = &alice, roles[0].untrusted = NEVER;
	roles[1].u = &bob, roles[1].untrusted = ALWAYS;
	roles[2].u = &carol, roles[2].untrusted = EITHER;
	roles[3].u = &dave, roles[3].untrusted = EITHER;
	for (int i = 4; i < nworkers; i++)
		roles[i] = roles[i % 4];

	if (policy_write_raw(blob_a, len_a))
		die("write policy A");
	note("%d workers, up to %.0f s, for %lu execs and %lu reloads; policies %zu and %zu bytes",
	     nworkers, seconds, want_execs, want_reloads, len_a, len_b);
	t0 = now();
	for (int i = 0; i < nworkers; i++) {
		fflush(stdout);
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i] == 0)
			worker(i, roles[i].u, roles[i].untrusted);
	}

	/* The reloader: this process, root, alternating A and B. */
	fd = open(POLICY_PATH, O_WRONLY);
	if (fd < 0)
		die("open %s", POLICY_PATH);
	for (unsigned long r = 0;; r++) {
		const unsigned char *b = r & 1 ? blob_b : blob_a;
		size_t l = r & 1 ? len_b : len_a;
		double t = now() - t0;
		bool done = atomic_load(&c->reloads) >= want_reloads &&
			    (atomic_load(&c->execs) >= want_execs || t > seconds);

		/* The reloads are a must: past SECONDS, go on for them up to 3x. */
		if (done || t > 3 * seconds)
			break;
		if (pwrite(fd, b, l, 0) != (ssize_t)l) {
			if (++reload_err <= 5)
				note("reload %lu: %s", r, errno_name(errno));
			continue;
		}
		atomic_fetch_add(&c->reloads, 1);
		/* Past the reload target, leave the CPUs to the workers mostly. */
		if (atomic_load(&c->reloads) >= want_reloads)
			usleep(2000);
	}
	atomic_store(&c->stop, 1);
	if (pwrite(fd, blob_a, len_a, 0) != (ssize_t)len_a)
		die("write policy A after the reloads");
	atomic_store(&c->settled, 1);
	for (int i = 0; i < nworkers; i++)
		waitpid(pids[i], NULL, 0);
	t1 = now();
	close(fd);

	note("%lu execs, %lu reloads in %.1f s (%.0f execs/s)", (unsigned long)c->execs,
	     (unsigned long)c->reloads, t1 - t0, c->execs / (t1 - t0));
	for (int i = 0; i < nworkers; i++)
		note("  worker %d %-5s trusted: ran %lu denied %lu; untrusted: ran %lu denied %lu "
		     "killed mid-exec %lu; other %lu",
		     i, roles[i].u->name, (unsigned long)c->per[i][0][1],
		     (unsigned long)c->per[i][0][0], (unsigned long)c->per[i][1][1],
		     (unsigned long)c->per[i][1][0], (unsigned long)c->killed[i],
		     (unsigned long)c->other[i]);

	for (int i = 0; i < nworkers; i++)
		note("  worker %d %-5s mappings of the untrusted binary: %lu mapped, %lu denied",
		     i, roles[i].u->name, (unsigned long)c->maps[i][1],
		     (unsigned long)c->maps[i][0]);
	for (int i = 0; i < nworkers; i++) {
		/* Policy A trusts bob and carol. */
		int want = roles[i].u == &bob || roles[i].u == &carol ? 2 : 1;

		check(c->last_map[i] == want, "a verdict from an older policy stuck",
		      "worker %d %s: first mapping after the last reload %s", i,
		      roles[i].u->name, want == 2 ? "allowed" : "denied");
	}
	check(c->bad == 0, "see the log above",
	      "no trusted exec denied, no exec both policies distrust allowed (%lu violations)",
	      (unsigned long)c->bad);
	check(reload_err == 0, "a policy write failed", "every reload accepted");
	check(c->reloads >= want_reloads, "too few reloads in time",
	      "at least %lu policy reloads (%lu)", want_reloads, (unsigned long)c->reloads);
	check(c->execs >= min_execs, "too few execs in time",
	      "at least %lu execs by %d processes (%lu in %.0f s, %lu killed mid-exec by a reload)",
	      min_execs, nworkers, (unsigned long)c->execs, t1 - t0,
	      (unsigned long)(c->killed[2] + c->killed[3]));
	/* The policies must really have flipped under the workers in between. */
	check(c->per[2][1][0] && c->per[2][1][1] && c->per[3][1][0] && c->per[3][1][1],
	      "carol or dave never saw both answers",
	      "carol and dave saw both policies (allowed and denied from the untrusted dir)");
	check(c->maps[2][0] && c->maps[2][1] && c->maps[3][0] && c->maps[3][1],
	      "carol or dave never saw both answers",
	      "carol's and dave's mappings from one process saw both policies");

	if (policy_write_raw(orig, orig_len))
		die("putting the policy back");
	return nr_fail ? 1 : 0;
}
