// SPDX-License-Identifier: GPL-2.0
/*
 * The file system a file is on, as far as user space can see it, for the
 * kernel's untrusted-fs check (tpe_file_untrusted() in module/fs.c): a
 * super block a user made (FUSE through fusermount3, a user namespace), a
 * disk first mounted nosuid (mounted for a user, as udisks2 and pmount
 * do; a disk is a block device's, or a file system /proc/filesystems
 * does not mark nodev, as btrfs, which has no block device), or a loop
 * device whose backing file is not a root-owned file in a
 * trusted path.
 *
 * /proc/self/mountinfo (read by libmount) lists this namespace's mounts
 * oldest first: by their unique mount ID, which only grows (the ID it
 * prints is reused, its order is not). The first entry with a block
 * device's major:minor is therefore the oldest mount of its super block
 * still here, the first mount itself unless that was unmounted or
 * remounted since. sysfs names a loop device's backing file by path, and
 * LOOP_GET_STATUS64 (for whoever may open the device: root) gives the
 * device and inode of the file really bound, so that a path which now
 * names another file is not judged in its place. The backing file is
 * judged as the kernel judged it when it was bound: as root, CHECK_FILE.
 *
 * What the kernel knows and this cannot see goes into f->unseen and is
 * said with the verdict (tpe_unseen[]).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libmount.h>

#include "judge.h"

/* Loop devices on files on loop devices: followed this deep, no deeper. */
#define LOOP_DEPTH_MAX	4

const struct fs_roots fs_roots_system = {
	.mountinfo = "/proc/self/mountinfo", .sys = "/sys", .dev = "/dev",
	.filesystems = "/proc/filesystems",
};

const struct unseen_fact tpe_unseen[] = {
	{ UNSEEN_MOUNTER, "mounter",
	  "who made the file system: in a user namespace, or through a "
	  "set-user-ID helper for a user (mountinfo shows neither; FUSE's "
	  "user_id= is seen)" },
	{ UNSEEN_FIRST_MOUNT, "first-mount",
	  "the nosuid of the disk's first mount, if that mount was since "
	  "unmounted or remounted (its oldest mount here is judged)" },
	{ UNSEEN_LOOP_FILE, "loop-file",
	  "which file the loop device is bound to (LOOP_GET_STATUS64 needs "
	  "the device open, as root can; the path sysfs gives was judged)" },
	{ UNSEEN_LOOP_BIND, "loop-bind",
	  "the backing file as it was when the loop device was bound (it is "
	  "judged as it is now)" },
	{ 0, NULL, NULL }
};

static int is_fuse(const char *fstype)
{
	return !strcmp(fstype, "fuse") || !strncmp(fstype, "fuse.", 5) ||
	       !strcmp(fstype, "fuseblk") || !strncmp(fstype, "fuseblk.", 8);
}

/* libmount's strings may be absent; said as "?" */
static const char *str(const char *s)
{
	return s ? s : "?";
}

static int has_option(const char *optstr, const char *name)
{
	return optstr && mnt_optstr_get_option(optstr, name, NULL, NULL) == 0;
}

/* The first mount of tb that matches: its ID, or its device. */
static struct libmnt_fs *first_mount(struct libmnt_table *tb, int mnt_id,
				     dev_t dev)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs = NULL, *found = NULL;

	if (!it)
		return NULL;
	while (!found && mnt_table_next_fs(tb, it, &fs) == 0)
		if (mnt_id >= 0 ? mnt_fs_get_id(fs) == mnt_id :
		    mnt_fs_get_devno(fs) == dev)
			found = fs;
	mnt_free_iter(it);
	return found;
}

/* A FUSE file system whose daemon's user (user_id=) is not root. */
static char *fuse_user(struct libmnt_fs *fs)
{
	const char *fstype = mnt_fs_get_fstype(fs);
	char *user = NULL, *why = NULL;
	size_t len = 0;

	if (fstype && is_fuse(fstype) &&
	    mnt_optstr_get_option(mnt_fs_get_fs_options(fs), "user_id",
				  &user, &len) == 0 &&
	    user && strtoul(user, NULL, 10) != 0 &&
	    asprintf(&why, "%s mounted for user_id=%.*s (fusermount3)",
		     fstype, (int)len, user) < 0)
		why = NULL;
	return why;
}

/*
 * Is fstype read from a device (the kernel's FS_REQUIRES_DEV), as btrfs
 * is, whose super block has no block device of its own? /proc/filesystems
 * marks the others "nodev".
 */
static int device_fs(const struct fs_roots *r, const char *fstype)
{
	char line[128], *name;
	int found = 0;
	FILE *f;

	if (!fstype || !r->filesystems)
		return 0;
	f = fopen(r->filesystems, "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		name = strchr(line, '\t');
		found = name && name == line && !strcmp(name + 1, fstype);
	}
	fclose(f);
	return found;
}

/*
 * The sysfs directory of the whole disk dev is (or is a partition of),
 * or NULL if dev is not a block device.
 */
static char *disk_dir(const struct fs_roots *r, dev_t dev)
{
	char *link, *dir = NULL, *part;

	if (asprintf(&link, "%s/dev/block/%u:%u", r->sys, major(dev),
		     minor(dev)) < 0)
		return NULL;
	dir = realpath(link, NULL);
	free(link);
	if (!dir || asprintf(&part, "%s/partition", dir) < 0)
		return dir;
	if (!access(part, F_OK))
		*strrchr(dir, '/') = 0;
	free(part);
	return dir;
}

/* sysfs's loop/backing_file of a disk, without its newline; or NULL. */
static char *backing_file(const char *disk)
{
	char *path, line[PATH_MAX + 16];
	FILE *f;

	if (asprintf(&path, "%s/loop/backing_file", disk) < 0)
		return NULL;
	f = fopen(path, "re");
	free(path);
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	return strdup(line);
}

/*
 * Is path the file the loop device is bound to? 1 yes, 0 no, -1 cannot
 * tell (the device cannot be opened or asked).
 */
static int loop_bound_to(const struct fs_roots *r, const char *disk,
			 const char *path)
{
	struct loop_info64 info;
	struct stat st;
	char *node;
	int fd, rc = -1;

	if (asprintf(&node, "%s/%s", r->dev, strrchr(disk, '/') + 1) < 0)
		return -1;
	fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	free(node);
	if (fd < 0)
		return -1;
	if (!ioctl(fd, LOOP_GET_STATUS64, &info))
		rc = !stat(path, &st) && st.st_ino == info.lo_inode &&
		     major(st.st_dev) == ((info.lo_device >> 8) & 0xfff) &&
		     minor(st.st_dev) == ((info.lo_device & 0xff) |
					  ((info.lo_device >> 12) & ~0xffU));
	close(fd);
	return rc;
}

/*
 * A loop device's backing file, judged as the kernel judged it when it
 * was bound: as root, with CHECK_FILE. Returns why it makes the disk
 * untrusted, or NULL (trusted, or not seen: f->unseen says).
 */
static char *loop_judge(const struct fs_roots *r, const char *disk,
			struct tpe_facts *f, int depth)
{
	const char *name = strrchr(disk, '/') + 1;
	char *file = backing_file(disk), *why = NULL, *interp, err[ERRLEN];
	enum tpe_check check;
	struct tpe_facts bf;
	int bound;
	size_t len;

	if (!file)
		return NULL;
	f->unseen |= UNSEEN_LOOP_BIND;
	len = strlen(file);
	bound = loop_bound_to(r, disk, file);
	if (bound < 0)
		f->unseen |= UNSEEN_LOOP_FILE;
	if (!bound || (len > 10 && !strcmp(file + len - 10, " (deleted)")) ||
	    depth >= LOOP_DEPTH_MAX ||
	    facts_gather_in(file, r, depth + 1, &bf, &interp, err)) {
		/* another file is there now, or none: not judged */
		f->unseen |= UNSEEN_LOOP_FILE;
		free(file);
		return NULL;
	}
	free(interp);
	f->unseen |= bf.unseen;
	check = judge_path(&bf, TPE_POLICY_CHECK_FILE, 0);
	if (check != TPE_CHECK_NONE &&
	    asprintf(&why, "%s's backing file %s is not a root-owned file in "
		     "a trusted path (check=%s)", name, bf.resolved,
		     tpe_check_names[check]) < 0)
		why = NULL;
	facts_free(&bf);
	free(file);
	return why;
}

/*
 * The facts of the mount mnt_id (statx's stx_mnt_id) in r's mountinfo:
 * untrusted_fs, mount, unseen and idmapped. Returns 0 when the mount was
 * found, -1 if not.
 */
int mount_judge(const struct fs_roots *r, int mnt_id, int depth,
		struct tpe_facts *f)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs, *oldest;
	char *disk = NULL, *why = NULL, *mount = NULL;
	int nosuid = 0, found = -1;
	dev_t dev;

	if (!tb || mnt_table_parse_file(tb, r->mountinfo) < 0)
		goto out;
	fs = first_mount(tb, mnt_id, 0);
	if (!fs)
		goto out;
	found = 0;
	f->idmapped = has_option(mnt_fs_get_vfs_options(fs), "idmapped");
	f->unseen |= UNSEEN_MOUNTER;
	why = fuse_user(fs);
	dev = mnt_fs_get_devno(fs);
	disk = disk_dir(r, dev);
	oldest = disk || device_fs(r, mnt_fs_get_fstype(fs)) ?
		 first_mount(tb, -1, dev) : NULL;
	if (oldest) {
		f->unseen |= UNSEEN_FIRST_MOUNT;
		nosuid = has_option(mnt_fs_get_vfs_options(oldest), "nosuid");
		if (!why && nosuid &&
		    asprintf(&why, "%s was first mounted nosuid (its oldest "
			     "mount here: %s): mounted for a user",
			     str(mnt_fs_get_source(oldest)),
			     str(mnt_fs_get_target(oldest))) < 0)
			why = NULL;
		if (!why && disk)
			why = loop_judge(r, disk, f, depth);
	}
	if (asprintf(&mount, "%s %s on %s%s%s%s", str(mnt_fs_get_fstype(fs)),
		     str(mnt_fs_get_source(fs)), str(mnt_fs_get_target(fs)),
		     oldest ? "; its oldest mount here: " : "",
		     oldest ? str(mnt_fs_get_target(oldest)) : "",
		     !oldest ? "" : nosuid ? ", nosuid" : ", not nosuid") < 0)
		mount = NULL;
	f->mount = mount;
	f->untrusted_fs = why;
out:
	free(disk);
	mnt_unref_table(tb);
	return found;
}
