/* tpe-exec PATH [ARG...]: execv(PATH) and, when the kernel refuses, say why
 * with the errno's name, so a test can tell EACCES from anything else:
 *   tpe-exec: /tmp/x: EACCES (Permission denied)      exit 126
 * A shell folds all of these into "Permission denied" or 126.
 * tpe-exec --no-argv PATH: the same with an empty argv, which the kernel
 * warns about once per boot, naming PATH as it was given. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ENOEXEC: return "ENOEXEC";
	case ETXTBSY: return "ETXTBSY";
	default: return "errno";
	}
}

int main(int argc, char **argv)
{
	static char *const no_argv[] = { NULL };

	if (argc < 2 || (!strcmp(argv[1], "--no-argv") && argc != 3)) {
		fprintf(stderr, "usage: tpe-exec PATH [ARG...] | --no-argv PATH\n");
		return 2;
	}
	if (!strcmp(argv[1], "--no-argv"))
		execv(argv[2], no_argv);
	else
		execv(argv[1], argv + 1);
	int e = errno;
	printf("tpe-exec: %s: %s (%s)\n", argv[1], errno_name(e), strerror(e));
	return 126;
}
