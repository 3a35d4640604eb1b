// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of explain.c: the verdict in words and in JSON.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <linux/tpe.h>

#include "json.h"
#include "judge.h"
#include "explain.h"
#include "unit.h"

/* The verdict in words names the check as the kernel logs it. */
static void test_explain_names_in_words(void **state)
{
	uint32_t g[] = { 1001 };
	struct tpe_identity alice = { 1001, 1001, g, 1, 0 };
	struct tpe_facts f = { .path = "/tmp/x", .resolved = "/srv/x",
			       .dir_path = "/srv",
			       .dir = { 0, S_IFDIR | 01777 },
			       .file = { 1001, S_IFREG | 0644 } };
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE };
	struct tpe_verdict v;
	char *s;
	size_t len;
	FILE *out = open_memstream(&s, &len);

	(void)state;
	explain_judge(&p, &alice, &f, &v);
	explain_write(out, &p, &alice, &f, &v, &fake_db);
	fclose(out);
	assert_non_null(strstr(s, "/tmp/x: denied check=dir-writable\n"));
	assert_non_null(strstr(s, "  resolved: /srv/x\n"));
	assert_non_null(strstr(s, "uid 1001 (alice)"));
	assert_non_null(strstr(s, "/srv is writable by group and others "
			       "(mode 1777)"));
	assert_non_null(strstr(s, "mmap PROT_EXEC: allowed (MMAP is off"));
	assert_non_null(strstr(s, "note: no execute bit"));
	free(s);
}

/* A script is refused when its interpreter is; a UID without a group. */
static void test_explain_chain_and_no_egid(void **state)
{
	struct tpe_identity ghost = { 4242, 0, NULL, 0, 1 };
	struct tpe_facts f = { .path = "/srv/s", .resolved = "/srv/s",
			       .dir_path = "/srv", .dir = DIR_OK,
			       .file = FILE_OK };
	uint32_t g0[] = { 0 };
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE,
				.groups = { g0, 1 } };
	struct explain_chain c = { .n = 1 };
	struct tpe_verdict v;
	char *s;
	size_t len;
	FILE *out;

	(void)state;
	/* egid 0 would be listed; a UID with no passwd entry has none */
	explain_judge(&p, &ghost, &f, &v);
	assert_int_equal(v.listed, LISTED_NONE);
	assert_false(v.trusted);
	assert_false(explain_refused(&v));
	assert_string_equal(explain_headline(&v), "allowed");
	v.interp = "/tmp/sh";
	v.interp_check = TPE_CHECK_DIR_WRITABLE;
	v.listed_at = "/etc/tpe.conf:3";
	assert_true(explain_refused(&v));
	assert_string_equal(explain_headline(&v), "denied");
	out = open_memstream(&s, &len);
	explain_write(out, &p, &ghost, &f, &v, &fake_db);
	fclose(out);
	assert_non_null(strstr(s, "/srv/s: denied (its interpreter /tmp/sh) "
			       "check=dir-writable\n"));
	assert_non_null(strstr(s, "  user: uid 4242, gid none (no passwd "
			       "entry: no primary group), groups none\n"));
	assert_non_null(strstr(s, "  exec: denied: the interpreter /tmp/sh "
			       "is refused (below)\n"));
	/* not listed: no listed line, whatever listed_at says */
	assert_null(strstr(s, "listed:"));
	free(s);
	p.flags = 0;	/* permissive */
	explain_judge(&p, &ghost, &f, &v);
	v.interp = "/tmp/sh";
	v.interp_check = TPE_CHECK_DIR_WRITABLE;
	assert_string_equal(explain_headline(&v), "would deny");
	/* JSON: the same facts */
	c.step[0] = (struct explain_step){ .f = f, .v = v };
	out = open_memstream(&s, &len);
	json_explain(out, "/x", &p, &ghost, &c, 1, &fake_db);
	fclose(out);
	assert_string_equal(s, "{\"policy\": \"/x\", \"paths\": ["
		"{\"path\": \"/srv/s\", \"resolved\": "
		"\"/srv/s\", \"verdict\": \"would deny\", \"check\": "
		"\"dir-writable\", "
		"\"user\": {\"uid\": 4242, \"gid\": null, \"groups\": []}, "
		"\"root\": false, \"trusted\": false, \"listed\": \"none\", "
		"\"invert\": false, \"strict\": false, \"checked\": true, "
		"\"file\": {\"path\": \"/srv/s\", \"uid\": 0, \"mode\": "
		"\"0755\"}, \"directory\": {\"path\": \"/srv\", \"uid\": 0, "
		"\"mode\": \"0755\"}, \"unseen\": [], \"exec\": \"would deny\", "
		"\"mmap\": "
		"\"not checked\", \"refused_interpreter\": \"/tmp/sh\", "
		"\"interpreters\": []}]}\n");
	free(s);
}

/*
 * A disk mounted for a user: the file system and why it is untrusted,
 * then each kernel fact user space could not see, in words and by name.
 */
static void test_explain_untrusted_fs(void **state)
{
	uint32_t g[] = { 1001 };
	struct tpe_identity alice = { 1001, 1001, g, 1, 0 },
		root = { 0, 0, NULL, 0, 0 };
	struct tpe_facts f = { .path = "/media/alice/stick/hello",
			       .resolved = "/media/alice/stick/hello",
			       .dir_path = "/media/alice/stick",
			       .dir = DIR_OK, .file = FILE_OK,
			       .mount = "ext4 /dev/vdb on /media/alice/stick",
			       .untrusted_fs = "/dev/vdb was first mounted nosuid",
			       .unseen = UNSEEN_MOUNTER | UNSEEN_FIRST_MOUNT };
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE | TPE_POLICY_MMAP };
	struct explain_chain c = { .n = 1 };
	char *s;
	size_t len;
	FILE *out = open_memstream(&s, &len);

	(void)state;
	explain_judge(&p, &alice, &f, &c.step[0].v);
	assert_int_equal(c.step[0].v.check, TPE_CHECK_UNTRUSTED_FS);
	explain_write(out, &p, &alice, &f, &c.step[0].v, &fake_db);
	fclose(out);
	assert_non_null(strstr(s, "/media/alice/stick/hello: denied "
			       "check=untrusted-fs\n"));
	assert_non_null(strstr(s, "\n  file system: ext4 /dev/vdb on "
			       "/media/alice/stick\n  file system: untrusted: "
			       "/dev/vdb was first mounted nosuid\n"));
	assert_non_null(strstr(s, "\n  not seen: who made the file system:"));
	assert_non_null(strstr(s, "\n  not seen: the nosuid of the disk's "
			       "first mount,"));
	assert_null(strstr(s, "loop device"));
	assert_non_null(strstr(s, "\n  check=untrusted-fs: "
			       "/media/alice/stick/hello is on a file system "
			       "mounted by or for a user: /dev/vdb was first "
			       "mounted nosuid\n"));
	free(s);

	/* root is not checked: nothing unseen can change that */
	out = open_memstream(&s, &len);
	explain_judge(&p, &root, &f, &c.step[0].v);
	explain_write(out, &p, &root, &f, &c.step[0].v, &fake_db);
	fclose(out);
	assert_null(strstr(s, "not seen:"));
	free(s);

	c.step[0].f = f;
	explain_judge(&p, &alice, &f, &c.step[0].v);
	out = open_memstream(&s, &len);
	json_explain(out, "/x", &p, &alice, &c, 1, &fake_db);
	fclose(out);
	assert_non_null(strstr(s, ", \"file_system\": \"ext4 /dev/vdb on "
			       "/media/alice/stick\", \"untrusted_fs\": "
			       "\"/dev/vdb was first mounted nosuid\", "
			       "\"unseen\": [\"mounter\", \"first-mount\"], "));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain_names_in_words),
		cmocka_unit_test(test_explain_chain_and_no_egid),
		cmocka_unit_test(test_explain_untrusted_fs),
	};

	return cmocka_run_group_tests_name("explain", tests, NULL, NULL);
}
