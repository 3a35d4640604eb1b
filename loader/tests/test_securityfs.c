// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of securityfs.c: where the kernel's files are, what its refusals
 * mean, and whether tpe is active, against a fake securityfs (TPE_SECURITYFS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "io.h"
#include "unit.h"

static void test_securityfs_path(void **state)
{
	(void)state;
	unsetenv("TPE_SECURITYFS");
	assert_string_equal(securityfs_policy(),
			    "/sys/kernel/security/tpe/policy");
	setenv("TPE_SECURITYFS", "/tmp/fake", 1);
	assert_string_equal(securityfs_policy(), "/tmp/fake/policy");
	unsetenv("TPE_SECURITYFS");
}

static void test_errno_words(void **state)
{
	(void)state;
	assert_string_equal(errno_words(EPERM), "EPERM: policy is locked or "
			    "you lack CAP_MAC_ADMIN");
	assert_string_equal(errno_words(EINVAL), "EINVAL: kernel rejected the "
			    "policy as malformed");
	assert_string_equal(errno_words(E2BIG), "E2BIG: too many entries");
	assert_non_null(strstr(errno_words(ENOENT), "securityfs tpe not "
			       "present"));
	assert_string_equal(errno_words(EIO), strerror(EIO));
}

static void fake_securityfs(const char *lsm, uint32_t flags)
{
	char path[1200];
	struct tpe_policy p = { .flags = flags };
	uint8_t *blob;
	size_t len;

	snprintf(path, sizeof(path), "%s/sfs", fixture_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sfs/tpe", fixture_dir);
	mkdir(path, 0755);
	setenv("TPE_SECURITYFS", path, 1);
	snprintf(path, sizeof(path), "%s/sfs/lsm", fixture_dir);
	unlink(path);
	if (lsm)
		fixture_write(path, lsm);
	assert_int_equal(policy_encode(&p, &blob, &len, err), 0);
	assert_int_equal(write_once(securityfs_policy(), O_CREAT, blob, len),
			 0);
	free(blob);
}

static void test_presence_and_refusals(void **state)
{
	char want[1300], out[ERRLEN];
	struct utsname u;
	int why;

	(void)state;
	assert_int_equal(uname(&u), 0);
	fake_securityfs("capability,tpe,landlock\n", TPE_POLICY_LOCK);
	snprintf(want, sizeof(want), "%s/sfs", fixture_dir);
	assert_string_equal(securityfs_root(), want);
	assert_int_equal(tpe_presence(&why), TPE_ACTIVE);
	/* EPERM: the live flags tell a locked policy from a missing cap */
	write_refusal(EPERM, out);
	assert_string_equal(out, "EPERM: the live policy is locked (lock = "
			    "true; reboot to change it)");
	fake_securityfs("capability,tpe", TPE_POLICY_ENFORCE);
	write_refusal(EPERM, out);
	assert_string_equal(out, "EPERM: you lack CAP_MAC_ADMIN (the live "
			    "policy is not locked)");
	write_refusal(EACCES, out);
	assert_string_equal(out, "EACCES: only root may write the policy");
	write_refusal(EINVAL, out);
	assert_string_equal(out, errno_words(EINVAL));
	/* tpe not among the LSMs: which kernel to boot */
	fake_securityfs("capability,tpex,landlock", 0);
	assert_int_equal(tpe_presence(&why), TPE_INACTIVE);
	write_refusal(ENOENT, out);
	snprintf(want, sizeof(want), "tpe is not active in this kernel "
		 "(uname -r %s): boot a kernel with CONFIG_SECURITY_TPE=y "
		 "and tpe in lsm=, e.g. linux-image-*-tpe", u.release);
	assert_string_equal(out, want);
	/* no lsm file: securityfs is not mounted; nobody can tell */
	fake_securityfs(NULL, 0);
	assert_int_equal(tpe_presence(&why), TPE_UNKNOWN);
	assert_int_equal(why, ENOENT);
	write_refusal(ENOENT, out);
	snprintf(want, sizeof(want), "securityfs is not mounted at %s/sfs: "
		 "cannot tell whether tpe is active", fixture_dir);
	assert_string_equal(out, want);
	unsetenv("TPE_SECURITYFS");
	assert_string_equal(securityfs_root(), "/sys/kernel/security");
	setenv("TPE_SECURITYFS", "rel/", 1);
	assert_string_equal(securityfs_root(), ".");
	unsetenv("TPE_SECURITYFS");
}

/*
 * tpe built in but not active: the command line's lsm= and the kernel's
 * config (stand-ins next to the fake securityfs) say why, and what to do.
 */
static void test_inactive_words(void **state)
{
	static const struct {
		/* want: what follows "(uname -r RELEASE" */
		const char *cmdline, *config, *want;
	} cases[] = {
		/* nothing known: which kernel to boot, as before */
		{ NULL, NULL, "): boot a kernel with CONFIG_SECURITY_TPE=y and "
		  "tpe in lsm=, e.g. linux-image-*-tpe" },
		/* lsm= without tpe, config unknown; init's arguments after -- */
		{ "root=/dev/vda lsm=landlock,yama quiet -- lsm=tpe\n", NULL,
		  "): the command line's lsm=landlock,yama leaves it out; if "
		  "the kernel has tpe (CONFIG_SECURITY_TPE=y, as "
		  "linux-image-*-tpe), add tpe to lsm= (GRUB_CMDLINE_LINUX in "
		  "/etc/default/grub, then update-grub) and reboot, else boot "
		  "one that has" },
		/* the same, with a config that has tpe: the command line */
		{ "root=/dev/vda lsm=landlock,yama,tpex\n",
		  "CONFIG_SECURITY=y\nCONFIG_SECURITY_TPE=y\n"
		  "CONFIG_LSM=\"landlock,yama,tpe\"\n",
		  ") but the command line's lsm=landlock,yama,tpex leaves it "
		  "out: add tpe to lsm= (GRUB_CMDLINE_LINUX in "
		  "/etc/default/grub, then update-grub) and reboot" },
		/* no lsm=, and CONFIG_LSM without tpe */
		{ "root=/dev/vda\n", "CONFIG_SECURITY_TPE=y\n"
		  "CONFIG_LSM=\"landlock,yama\"\n",
		  ") but its CONFIG_LSM leaves it out: add lsm=landlock,yama,tpe "
		  "to the command line (GRUB_CMDLINE_LINUX in /etc/default/grub, "
		  "then update-grub) and reboot" },
		/* a kernel built without it */
		{ "lsm=landlock\n", "# CONFIG_SECURITY_TPE is not set\n",
		  ": CONFIG_SECURITY_TPE is not set in its config): boot a "
		  "kernel with CONFIG_SECURITY_TPE=y, e.g. linux-image-*-tpe" },
		/* the last lsm= counts: it has tpe, so the kernel lacks it */
		{ "lsm=landlock lsm=yama,tpe\n", NULL,
		  "): boot a kernel with CONFIG_SECURITY_TPE=y and tpe in "
		  "lsm=, e.g. linux-image-*-tpe" },
	};
	char path[1200], want[1300], out[ERRLEN];
	struct utsname u;

	(void)state;
	assert_int_equal(uname(&u), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_securityfs("capability,landlock", 0);
		snprintf(path, sizeof(path), "%s/sfs/cmdline", fixture_dir);
		unlink(path);
		if (cases[i].cmdline)
			fixture_write(path, cases[i].cmdline);
		snprintf(path, sizeof(path), "%s/sfs/config", fixture_dir);
		unlink(path);
		if (cases[i].config)
			fixture_write(path, cases[i].config);
		tpe_absent_words(TPE_INACTIVE, 0, out);
		snprintf(want, sizeof(want), "%s (uname -r %s%s",
			 cases[i].config && strstr(cases[i].config, "TPE=y") ?
			 "tpe is built into this kernel" :
			 cases[i].config ? "tpe is not built into this kernel" :
			 "tpe is not active in this kernel", u.release,
			 cases[i].want);
		assert_string_equal(out, want);
	}
	unsetenv("TPE_SECURITYFS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_securityfs_path),
		cmocka_unit_test(test_errno_words),
		cmocka_unit_test(test_presence_and_refusals),
		cmocka_unit_test(test_inactive_words),
	};

	return cmocka_run_group_tests_name("securityfs", tests, setup_conf,
					   fixture_dir_remove);
}
