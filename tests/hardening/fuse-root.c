// SPDX-License-Identifier: GPL-2.0
/*
 * fuse-root: a read-only FUSE file system that lies about ownership. Its root
 * directory and its one file, "hello" (the bytes of SRC), both claim uid 0,
 * gid 0 and mode 0755, whoever mounted it: the kernel test checks that a
 * user-mounted FUSE tree does not pass for a trusted, root-owned path.
 *
 *   fuse-root SRC MOUNTPOINT [allow_other]
 *
 * Serves in the foreground, single-threaded, until unmounted (fusermount3 -u
 * as the mounting user, umount as root) or sent SIGTERM/SIGINT/SIGHUP; then
 * exits 0. Non-root users mount through the setuid fusermount3, as libfuse
 * does by itself when mount(2) says EPERM.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *data;
static size_t data_len;

static void *fr_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static int fr_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	st->st_uid = 0;
	st->st_gid = 0;
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (!strcmp(path, "/hello")) {
		st->st_mode = S_IFREG | 0755;
		st->st_nlink = 1;
		st->st_size = data_len;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int fr_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "hello", NULL, 0, 0);
	return 0;
}

static int fr_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/hello"))
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	return 0;
}

static int fr_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	(void)fi;
	if (strcmp(path, "/hello"))
		return -ENOENT;
	if (off < 0 || (size_t)off >= data_len)
		return 0;
	if (size > data_len - off)
		size = data_len - off;
	memcpy(buf, data + off, size);
	return size;
}

static const struct fuse_operations fr_ops = {
	.init = fr_init,
	.getattr = fr_getattr,
	.readdir = fr_readdir,
	.open = fr_open,
	.read = fr_read,
};

static void load(const char *src)
{
	struct stat st;
	size_t done = 0;
	int fd = open(src, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "fuse-root: %s: %s\n", src, strerror(errno));
		exit(1);
	}
	data_len = st.st_size;
	data = malloc(data_len + 1);
	if (!data) {
		fprintf(stderr, "fuse-root: out of memory for %s\n", src);
		exit(1);
	}
	while (done < data_len) {
		ssize_t n = read(fd, data + done, data_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "fuse-root: reading %s: %s\n", src,
				n ? strerror(errno) : "short read");
			exit(1);
		}
		done += n;
	}
	close(fd);
}

int main(int argc, char **argv)
{
	char *fargv[] = { "fuse-root", "-o", "ro,fsname=tpe-fuse-root", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, fargv);
	struct fuse *fuse;
	int res;

	if (argc == 4 && !strcmp(argv[3], "allow_other"))
		fargv[2] = "ro,fsname=tpe-fuse-root,allow_other";
	else if (argc != 3) {
		fprintf(stderr, "usage: fuse-root SRC MOUNTPOINT [allow_other]\n");
		return 2;
	}
	load(argv[1]);
	fuse = fuse_new(&args, &fr_ops, sizeof(fr_ops), NULL);
	if (!fuse) {
		fprintf(stderr, "fuse-root: fuse_new failed\n");
		return 1;
	}
	if (fuse_mount(fuse, argv[2])) {
		fprintf(stderr, "fuse-root: mounting %s failed\n", argv[2]);
		fuse_destroy(fuse);
		return 1;
	}
	if (fuse_set_signal_handlers(fuse_get_session(fuse))) {
		fprintf(stderr, "fuse-root: fuse_set_signal_handlers failed\n");
		fuse_unmount(fuse);
		fuse_destroy(fuse);
		return 1;
	}
	/* single-threaded; > 0 is the signal that stopped it, 0 unmounted */
	res = fuse_loop(fuse);
	fuse_remove_signal_handlers(fuse_get_session(fuse));
	fuse_unmount(fuse);
	fuse_destroy(fuse);
	fuse_opt_free_args(&args);
	free(data);
	if (res < 0) {
		fprintf(stderr, "fuse-root: fuse_loop: %s\n", strerror(-res));
		return 1;
	}
	return 0;
}
