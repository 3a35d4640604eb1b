// SPDX-License-Identifier: GPL-2.0
/*
 * The objects a log names, found again by identity, not by path. A record
 * carries the path the user used, which the user chose, and the device and
 * inode numbers the kernel judged, which she did not. A path is resolved
 * here without following any symlink (openat2 RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS), with no "." or ".." component and no empty one,
 * and what it reaches counts only if fstat() of the descriptor agrees with
 * the record: the directory's st_dev and st_ino are dev= and dir_ino=, the
 * file's are dev= and ino=. Anything else (a symlink swapped in after the
 * denial, a file renamed, a bind mount in the user's own namespace over
 * /dev/zero) is "changed since logged" and is never acted on.
 *
 * The actions (--apply) are taken on the descriptors that were checked, at
 * the moment of acting: fchmod() of the directory's O_RDONLY descriptor; a
 * copy of exactly the size checked, read from the checked file descriptor
 * into a file created O_EXCL in a checked root-owned directory, given the
 * group and mode its plan names (no reader its source did not have), then
 * renamed within that directory; a source that changed while it was read
 * gives no copy.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "suggest.h"

#define RESOLVE_SAFE	(RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)
#define MAX_DEPTH	256

/* glibc 2.36 has no wrapper. */
static int openat2_safe(int dirfd, const char *path, int flags,
			unsigned long long resolve)
{
	struct open_how how = { .flags = (unsigned long long)flags | O_CLOEXEC,
				.resolve = resolve };

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

int object_path_ok(const char *path)
{
	const char *p = path;

	if (*p != '/' || strlen(path) >= REC_PATH_MAX)
		return -1;
	if (!p[1])
		return 0;		/* "/" */
	while (*p == '/') {
		size_t n = strcspn(++p, "/");

		/* "//", a trailing "/", ".", "..": not the kernel's d_path */
		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return -1;
		p += n;
	}
	return 0;
}

static bool same(const struct stat *st, uint32_t major_, uint32_t minor_,
		 uint64_t ino)
{
	return st->st_dev == makedev(major_, minor_) && st->st_ino == ino;
}

/* "/a/b/c" -> "/a/b" and "c"; "/c" -> "/" and "c". */
static int split_path(const char *path, char *dir, size_t size,
		      const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash == path ? 1 : (size_t)(slash - path);

	if (!slash || !slash[1] || n >= size)
		return -1;
	memcpy(dir, path, n);
	dir[n] = '\0';
	*base = slash + 1;
	return 0;
}

int object_open_dir(const char *dir, uint32_t major_, uint32_t minor_,
		    uint64_t ino, struct stat *st, const char **why)
{
	int fd;

	if (object_path_ok(dir)) {
		*why = "not a plain absolute path (\".\", \"..\" or \"//\" in it)";
		return -1;
	}
	fd = openat2_safe(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY, RESOLVE_SAFE);
	if (fd < 0) {
		*why = errno == ENOENT ? "directory not found" :
		       errno == ELOOP ? "changed since logged: a symlink on the way to the directory" :
		       errno == ENOTDIR ? "changed since logged: not a directory" :
		       "directory cannot be opened";
		return -1;
	}
	if (fstat(fd, st) || !same(st, major_, minor_, ino)) {
		*why = "changed since logged: the directory is another one now (dev:ino differ)";
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

int object_open_file(int dirfd, const char *base, int flags, uint32_t major_,
		     uint32_t minor_, uint64_t ino, struct stat *st,
		     const char **why)
{
	int fd = openat2_safe(dirfd, base, flags | O_NOFOLLOW,
			      RESOLVE_SAFE | RESOLVE_BENEATH);

	if (fd < 0) {
		*why = errno == ENOENT ? "file not found" :
		       errno == ELOOP ? "changed since logged: a symlink now" :
		       "file cannot be opened";
		return -1;
	}
	if (fstat(fd, st) || !same(st, major_, minor_, ino)) {
		*why = "changed since logged: the file is another one now (dev:ino differ)";
		close(fd);
		errno = ESTALE;
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		*why = "not a regular file";
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* ---- homes and the trees never touched ---- */

struct place {
	dev_t dev;
	ino_t ino;
	uid_t uid;
	bool owned;		/* its user owns it */
	char name[64];
};

static struct place *homes;
static size_t nhomes;
static bool homes_read;
static const char *const never_trees[] = { "/dev", "/proc", "/sys", "/run" };
static struct stat never_st[4];
static bool never_ok[4];

/* Every passwd entry's pw_dir, by identity (it may be a symlink). */
static void read_homes(void)
{
	struct passwd *pw;
	struct stat st;

	if (homes_read)
		return;
	homes_read = true;
	for (size_t i = 0; i < 4; i++)
		never_ok[i] = !stat(never_trees[i], &never_st[i]);
	setpwent();
	while ((pw = getpwent())) {
		struct place *more;

		if (!pw->pw_dir || pw->pw_dir[0] != '/' ||
		    stat(pw->pw_dir, &st) || !S_ISDIR(st.st_mode))
			continue;
		more = realloc(homes, (nhomes + 1) * sizeof(*homes));
		if (!more)
			break;
		homes = more;
		homes[nhomes] = (struct place){ .dev = st.st_dev,
						.ino = st.st_ino,
						.uid = pw->pw_uid,
						.owned = st.st_uid == pw->pw_uid };
		snprintf(homes[nhomes].name, sizeof(homes[nhomes].name), "%s",
			 pw->pw_name);
		nhomes++;
	}
	endpwent();
}

/*
 * Walk from the directory to the root by "..": a home is the directory
 * itself being any entry's pw_dir, or an ancestor being the pw_dir of a
 * user (not root) who owns it; a tree never touched is /dev, /proc, /sys,
 * /run or anything under them. By dev:ino, so no path can hide either.
 */
static void place_of(int dirfd, struct object *o)
{
	int fd = dup(dirfd);
	struct stat st, up;

	read_homes();
	for (int depth = 0; fd >= 0 && depth < MAX_DEPTH; depth++) {
		int parent;

		if (fstat(fd, &st))
			break;
		for (size_t i = 0; i < 4; i++)
			if (never_ok[i] && st.st_dev == never_st[i].st_dev &&
			    st.st_ino == never_st[i].st_ino)
				o->never = never_trees[i];
		for (size_t i = 0; i < nhomes && !o->home_of[0]; i++)
			if (st.st_dev == homes[i].dev &&
			    st.st_ino == homes[i].ino &&
			    (!depth || (homes[i].uid && homes[i].owned)))
				snprintf(o->home_of, sizeof(o->home_of), "%s",
					 homes[i].name);
		/* python3 -m venv leaves its pyvenv.cfg at the top */
		if (!o->home_of[0] &&
		    !fstatat(fd, "pyvenv.cfg", &up, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(up.st_mode))
			o->venv = true;
		parent = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up) ||
		    (up.st_dev == st.st_dev && up.st_ino == st.st_ino)) {
			if (parent >= 0)
				close(parent);
			break;
		}
		close(fd);
		fd = parent;
	}
	if (fd >= 0)
		close(fd);
}

/* Regular files in the directory that a user owns or group/others write. */
static void risky_files(int dirfd, struct object *o)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;

	if (!d) {
		if (fd >= 0)
			close(fd);
		o->nrisky = (size_t)-1;	/* unknown: as bad as many */
		return;
	}
	while ((e = readdir(d))) {
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) ||
		    (st.st_uid == 0 && !(st.st_mode & MODE_WRITABLE)))
			continue;
		if (o->nrisky < RISKY_MAX)
			snprintf(o->risky[o->nrisky], sizeof(o->risky[0]),
				 "%s", e->d_name);
		o->nrisky++;
	}
	closedir(d);
}

/* Where the directory is, and whether a chmod go-w of it would be safe. */
void object_place(int dirfd, const char *dir, struct object *o)
{
	struct stat st;

	for (size_t i = 0; i < 4; i++) {
		size_t n = strlen(never_trees[i]);

		if (!strncmp(dir, never_trees[i], n) &&
		    (!dir[n] || dir[n] == '/'))
			o->never = never_trees[i];
	}
	place_of(dirfd, o);
	/* what a chown or chmod of it would make trusted */
	if (!fstat(dirfd, &st) && !(st.st_mode & S_ISVTX) && !o->home_of[0] &&
	    !o->never && (st.st_uid || (st.st_mode & MODE_WRITABLE)))
		risky_files(dirfd, o);
}

int object_probe(const struct record *r, struct object *o)
{
	char dir[REC_PATH_MAX];
	const char *base;
	struct stat ds, fs;
	int dfd, ffd;

	memset(o, 0, sizeof(*o));
	if (object_path_ok(r->path) ||
	    split_path(r->path, dir, sizeof(dir), &base)) {
		o->state = OBJ_REFUSED;
		o->why = "not a plain absolute path (\".\", \"..\" or \"//\" in it)";
		return 0;
	}
	dfd = object_open_dir(dir, r->dev_major, r->dev_minor, r->dir_ino,
			      &ds, &o->why);
	if (dfd < 0) {
		o->state = errno == ENOENT ? OBJ_MISSING : OBJ_CHANGED;
		return 0;
	}
	ffd = object_open_file(dfd, base, O_PATH, r->dev_major, r->dev_minor,
			       r->ino, &fs, &o->why);
	if (ffd < 0) {
		o->state = errno == ENOENT ? OBJ_MISSING : OBJ_CHANGED;
		close(dfd);
		return 0;
	}
	close(ffd);
	o->state = OBJ_OK;
	o->dir_uid = ds.st_uid;
	o->dir_gid = ds.st_gid;
	o->dir_mode = ds.st_mode;
	o->file_uid = fs.st_uid;
	o->file_gid = fs.st_gid;
	o->file_mode = fs.st_mode;
	o->file_size = (uint64_t)fs.st_size;
	object_place(dfd, dir, o);
	close(dfd);
	return 0;
}

/* ---- acting ---- */

int object_fix_dir(const char *dir, uint32_t major_, uint32_t minor_,
		   uint64_t dir_ino, const char **why)
{
	struct object o = { 0 };
	struct stat st;
	int fd = object_open_dir(dir, major_, minor_, dir_ino, &st, why);

	if (fd < 0)
		return -1;
	object_place(fd, dir, &o);
	if (st.st_uid != 0 || (st.st_mode & S_ISVTX) || o.home_of[0] ||
	    o.never || o.nrisky) {
		*why = "changed since the report: no longer a root-owned, non-sticky directory outside homes holding only root's unwritable files";
		close(fd);
		return -1;
	}
	if (!(st.st_mode & MODE_WRITABLE)) {
		*why = "already done";
		close(fd);
		return 1;
	}
	if (fchmod(fd, st.st_mode & 07755)) {
		*why = "fchmod failed";
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* A directory in DIRFD that OWNER owns, mode 0755, made if missing. */
static int trusted_subdir(int dirfd, const char *name, uid_t owner,
			  const char **why)
{
	struct stat st;
	int fd;

	if (mkdirat(dirfd, name, 0755) && errno != EEXIST) {
		*why = "cannot make the directory for copies";
		return -1;
	}
	fd = openat2_safe(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW,
			  RESOLVE_SAFE | RESOLVE_BENEATH);
	if (fd < 0 || fstat(fd, &st)) {
		*why = "cannot open the directory for copies (a symlink?)";
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_uid != owner || (st.st_mode & (MODE_WRITABLE | S_ISVTX))) {
		*why = "the directory for copies is not root's alone";
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Exactly SIZE bytes of IN into OUT: the size checked when IN was opened,
 * never more, whatever its owner appends meanwhile. -1 if IN ends early.
 */
static int copy_fd(int in, int out, uint64_t size)
{
	char buf[65536];
	uint64_t left = size;
	ssize_t n;

	while (left) {
		n = read(in, buf, left < sizeof(buf) ? left : sizeof(buf));
		if (n <= 0)
			return -1;
		for (ssize_t w, off = 0; off < n; off += w)
			if ((w = write(out, buf + off, (size_t)(n - off))) <= 0)
				return -1;
		left -= (uint64_t)n;
	}
	return 0;
}

/* The file is as it was when opened: same size, not written since. */
static bool unchanged(int fd, const struct stat *was)
{
	struct stat now;

	return !fstat(fd, &now) && now.st_size == was->st_size &&
	       now.st_mtim.tv_sec == was->st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == was->st_mtim.tv_nsec &&
	       now.st_ctim.tv_sec == was->st_ctim.tv_sec &&
	       now.st_ctim.tv_nsec == was->st_ctim.tv_nsec;
}

int object_copy(const struct record *r, const char *copy_dir,
		const struct copy_plan *c, uid_t owner, const char **why)
{
	char dir[REC_PATH_MAX], tmp[64];
	const char *base;
	struct stat ds, fs, top;
	struct statvfs vfs;
	int dfd, src = -1, top_fd = -1, cd = -1, ud = -1, out = -1, rc = -1;
	static unsigned serial;

	if (c->why) {
		*why = c->why;
		return -1;
	}
	if (object_path_ok(r->path) ||
	    split_path(r->path, dir, sizeof(dir), &base)) {
		*why = "not a plain absolute path";
		return -1;
	}
	dfd = object_open_dir(dir, r->dev_major, r->dev_minor, r->dir_ino,
			      &ds, why);
	if (dfd < 0)
		return -1;
	src = object_open_file(dfd, base, O_RDONLY | O_NONBLOCK | O_NOCTTY,
			       r->dev_major, r->dev_minor, r->ino, &fs, why);
	close(dfd);
	if (src < 0)
		return -1;
	if ((uint64_t)fs.st_size > COPY_MAX) {
		*why = "larger than 64 MiB, the most tpe-suggest copies: install it by hand";
		goto out;
	}
	/* COPY_DIR/SUB, made where missing, every level root's alone */
	if (object_path_ok(copy_dir) ||
	    split_path(copy_dir, dir, sizeof(dir), &base)) {
		*why = "the directory for copies is not a plain absolute path";
		goto out;
	}
	top_fd = openat2_safe(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY,
			      RESOLVE_SAFE);
	if (top_fd < 0 || fstat(top_fd, &top) || top.st_uid != owner ||
	    (top.st_mode & MODE_WRITABLE)) {
		*why = "the parent of the directory for copies is not root's alone";
		goto out;
	}
	cd = trusted_subdir(top_fd, base, owner, why);
	if (cd < 0)
		goto out;
	ud = trusted_subdir(cd, c->sub, owner, why);
	if (ud < 0)
		goto out;
	/* room for it, and a margin: a copy never fills the file system */
	if (fstatvfs(ud, &vfs) ||
	    (uint64_t)vfs.f_bavail * vfs.f_frsize <
	    (uint64_t)fs.st_size + (64ull << 20)) {
		*why = "not enough free space for the copy and 64 MiB more";
		goto out;
	}
	snprintf(tmp, sizeof(tmp), ".tpe-suggest.%d.%u", (int)getpid(),
		 serial++);
	out = openat(ud, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		     O_CLOEXEC, 0600);
	if (out < 0) {
		*why = "cannot create the copy";
		goto out;
	}
	if (copy_fd(src, out, (uint64_t)fs.st_size) || !unchanged(src, &fs)) {
		*why = "the program changed while it was copied: no copy made";
		unlinkat(ud, tmp, 0);
		goto out;
	}
	if (fchown(out, owner, c->gid) || fchmod(out, c->mode & 0555) ||
	    fsync(out)) {
		*why = "cannot write the copy";
		unlinkat(ud, tmp, 0);
		goto out;
	}
	if (renameat2(ud, tmp, ud, c->name, RENAME_NOREPLACE)) {
		*why = errno == EEXIST ? "already there (not replaced)" :
		       "cannot rename the copy";
		rc = errno == EEXIST ? 1 : -1;
		unlinkat(ud, tmp, 0);
		goto out;
	}
	rc = 0;
out:
	if (out >= 0)
		close(out);
	if (ud >= 0)
		close(ud);
	if (cd >= 0)
		close(cd);
	if (top_fd >= 0)
		close(top_fd);
	close(src);
	return rc;
}
