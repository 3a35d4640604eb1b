#!/bin/sh
# The tpe-suggest command line: exit codes, FILE:LINE errors, the inputs it
# refuses and why, the captured logs (fixtures/) through each output, and
# as root the acts a person names, on this machine's files. Prints "ok -
# NAME" or "not ok - NAME: REASON" per check; exits 1 if any failed.
set -u
cd "$(dirname "$0")" || exit 1	# fixtures/ is here
umask 022	# a config or a log must not be group- or other-writable
SUGGEST=${TPE_SUGGEST:-../../build/loader/tpe-suggest}
T=$(mktemp -d "${TMPDIR:-/tmp}/tpe-suggest-XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failed=0
printf 'enforce = false;\ntrusted_users = [ ];\n' >"$T/tpe.conf"

# t NAME WANT_EXIT GREP_STDOUT_OR_STDERR COMMAND...
t() {
	name=$1 want=$2 text=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "not ok - $name: exit $rc, want $want: $(head -c 300 "$T/err")"
		failed=1
	elif [ -n "$text" ] && ! grep -qF -- "$text" "$T/out" "$T/err"; then
		echo "not ok - $name: no '$text' in: $(head -c 300 "$T/out" "$T/err")"
		failed=1
	else
		echo "ok - $name"
	fi
}
# no NAME TEXT: the last t's output does not have TEXT
no() {
	if grep -qF -- "$2" "$T/out" "$T/err"; then
		echo "not ok - $1: '$2' in: $(grep -F -- "$2" "$T/out" "$T/err" | head -n1)"
		failed=1
	else
		echo "ok - $1"
	fi
}

S="$SUGGEST -c $T/tpe.conf"
A=fixtures/audit.log
t "usage: --drop-in and --apply exclude each other" 2 "tpe-suggest: --summary, --drop-in and --apply exclude each other" $S --drop-in --apply --fix $A
t "usage: --summary and --drop-in exclude each other" 2 "exclude each other" $S --summary --drop-in $A
t "usage: --trust without --drop-in, with the reason" 2 "tpe-suggest: --trust goes with --drop-in" $S --trust=alice $A
t "usage: --fix without --apply" 2 "tpe-suggest: --fix, --copy and --copy-dir go with --apply" $S --fix $A
t "usage: --copy without --apply" 2 "go with --apply" $S --copy $A
t "usage: --apply names what it takes" 2 "tpe-suggest: --apply takes what is named: --fix[=DIR], --copy[=PROGRAM]" $S --apply $A
t "usage: --copy-dir not absolute" 2 "tpe-suggest: --copy-dir: an absolute path" $S --apply --copy --copy-dir rel $A
t "usage: --fix=DIR not absolute" 2 "tpe-suggest: --fix=DIR: an absolute path" $S --apply --fix=srv/x $A
t "--help lists the options" 0 "--trust=USER    ...but USER" $S --help
# The version is debian/changelog's, one answer in one place.
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' ../../debian/changelog)
[ -n "$version" ] || version='(no version in debian/changelog)'
t "--version" 0 "tpe-suggest $version" $S --version
t "usage: unknown option" 2 "usage:" $S --bogus
t "--commands is gone, for --apply" 2 "use --apply" $S --commands $A
t "missing log names it" 1 "tpe-suggest: $T/none: No such file" $S "$T/none"
t "missing config names it" 1 "$T/none.conf" $SUGGEST -c "$T/none.conf" $A
t "missing config: a hint about -c" 1 "tpe-suggest: $T/none.conf is the configuration in force; name another with -c FILE" $SUGGEST -c "$T/none.conf" $A

# The channels only the kernel writes: auditd's log, ausearch --raw, stdin.
t "audit.log is read" 0 "would deny) of " $S $A
t "the report says where from" 0 "places, from fixtures/audit.log." $S $A
t "ausearch --raw is read" 0 "would deny) of " $S fixtures/ausearch-raw
t "standard input (a pipe)" 0 "from standard input." sh -c "cat $A | $S -"
t "two logs: the same records once" 0 "from the logs named." $S $A fixtures/ausearch-raw
head -n1 "$T/out" >"$T/two"
$S $A | head -n1 | sed 's/from .*//' >"$T/one"
t "two logs count as one" 0 "" sh -c "sed 's/from .*//' '$T/two' | cmp -s - '$T/one'"
cp $A "$T/audit.log"
chmod 0666 "$T/audit.log"
t "a log others may write is refused" 1 "mode 0666: a file that others may write is no record of the kernel's; refusing it" $S "$T/audit.log"
chmod 0644 "$T/audit.log"
if [ "$(id -u)" = 0 ]; then
	mkfifo -m 0666 "$T/fifo"
	t "a FIFO others may write is refused" 1 "mode 0666: a file that others may write" $S "$T/fifo"
fi

# Refused, saying why and what to read instead; nothing proposed.
for f in dmesg journal-k; do
	t "$f is refused: kernel-log text" 1 "tpe-suggest: fixtures/$f:1: kernel-log text (dmesg, journalctl -k, kern.log, a console capture) is refused" $S fixtures/$f
	t "$f: the refusal says what to read" 1 "tpe-suggest with no LOG reads the journal's" $S fixtures/$f
done
t "journalctl -o json is refused" 1 "journalctl JSON is refused" $S fixtures/journal-json
t "ausearch -i is refused with a hint" 1 "use ausearch --raw" $S fixtures/ausearch-i
grep -v '^----' fixtures/ausearch-i >"$T/ausearch-i"
t "ausearch -i's records: interpreted, refused" 1 "$T/ausearch-i:1: ausearch -i text: names and IDs interpreted; use ausearch --raw or audit.log" $S "$T/ausearch-i"
{ head -n3 $A; echo "[   12.3] tpe: would deny exec uid=0"; } >"$T/mixed"
t "an audit log with a kernel line in it: refused whole, by line" 1 "$T/mixed:4: kernel-log text" $S "$T/mixed"
no "refused whole: no report" "denials ("
{ echo 'type=AVC msg=audit(1.200:3): lsm=tpe op=exec enforcing=1 path="/x" res=0'; } >"$T/odd"
t "a record not in the kernel's form: skipped, by line" 1 "$T/odd:1: skipped TPE record: a field missing" $S "$T/odd"
t "and no TPE records are found" 1 "tpe-suggest: no TPE records found (only unreadable ones, skipped)" $S "$T/odd"
t "a file that is no audit log: refused" 1 "tpe-suggest: $T/tpe.conf:1: not an audit record" $S "$T/tpe.conf"
printf 'type=DAEMON_START msg=audit(1796546257.757:1): op=start ver=3.0.9 res=success\n' >"$T/none"
t "an audit log without TPE records: says so" 1 "tpe-suggest: no TPE records found" $S "$T/none"

# What it proposes, from the capture (its objects are not here).
t "report: sorted, trusting no one" 0 "Trust: no one is trusted unless a person decides" $S $A
t "report: objects not found here" 0 "not found on this machine" $S $A
t "--drop-in: nobody trusted" 0 "# Nobody is trusted by this drop-in." $S --drop-in $A
t "--drop-in --trust=4242: no denial of that user's" 1 "--trust=4242: no denial in the log that trusting this user would allow" $S --drop-in --trust=4242 $A
t "--summary: who, where, how often, which check" 0 "  uid 1001: " $S --summary $A
t "--summary: from when to when" 0 " UTC to " $S --summary $A
t "--summary of kernel-log text: refused too" 1 "kernel-log text" $S --summary fixtures/dmesg
# A workstation: no /etc/tpe.conf. Where there is one, root hides it in a
# mount namespace of its own.
offline() {
	if [ ! -e /etc/tpe.conf ]; then
		"$@"
	elif [ "$(id -u)" = 0 ]; then
		unshare -m sh -c 'cp -a /etc/. "$0" && rm "$0/tpe.conf" &&
			mount --bind "$0" /etc && exec "$@"' "$(mktemp -d "$T/etc.XXXXXX")" "$@"
	else
		echo "tpe-suggest-cli: /etc/tpe.conf exists and only root can hide it" >&2
		return 99
	fi
}
t "no /etc/tpe.conf: a read-only summary" 0 "no /etc/tpe.conf on this machine: a read-only summary; nothing can be verified or applied here." offline $SUGGEST $A
t "no /etc/tpe.conf: who was refused where" 0 "  uid 1001: " offline $SUGGEST $A
t "no /etc/tpe.conf: --apply refused" 1 "nothing can be verified or applied on this machine" offline $SUGGEST --apply --fix $A

# The drop-in in place: its users are kept, the same log gives the same.
mkdir -p "$T/tpe.conf.d"
printf 'trusted_users = [ 4000 ];\n' >"$T/tpe.conf.d/50-suggest.conf"
t "a user the drop-in trusts is kept" 0 "	4000	# kept from the drop-in as it was" $S --drop-in $A
$S --drop-in $A >"$T/dropin1"
cp "$T/dropin1" "$T/tpe.conf.d/50-suggest.conf"
$S --drop-in $A >"$T/dropin2"
for f in dropin1 dropin2; do sed 's/#.*//' "$T/$f" | grep -v '^$' >"$T/$f.users"; done
t "the same log with its drop-in in place: the same users" 0 "" \
	cmp "$T/dropin1.users" "$T/dropin2.users"
rm -r "$T/tpe.conf.d"

# On this machine, as root: by dev:ino, on the descriptors checked.
rec() {	# FILE UID PID CHECK: an audit record of FILE as it is now
	d=$(stat -c %d "$1")
	hex=$(printf '%s' "$1" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
	printf 'type=AVC msg=audit(1796471694.%03d:%s): lsm=tpe op=exec enforcing=0 check=%s subj_euid=%s dev=%s:%s ino=%s dir_ino=%s ppid=1 pid=%s auid=4294967295 uid=%s gid=%s euid=%s suid=%s fsuid=%s egid=%s sgid=%s fsgid=%s tty=(none) ses=4294967295 comm="x" exe="/x" path=%s tclass=file res=1\n' \
		"$3" "$3" "$4" "$2" $((d >> 8)) $((d & 255)) "$(stat -c %i "$1")" \
		"$(stat -c %i "$(dirname "$1")")" "$3" "$2" "$2" "$2" "$2" "$2" \
		"$2" "$2" "$2" "$hex"
}
if [ "$(id -u)" != 0 ]; then
	echo "ok - --apply on this machine # SKIP not root"
	exit $failed
fi
mkdir -m 0777 "$T/shared" "$T/swap" && chmod 0777 "$T/shared" "$T/swap"
mkdir "$T/svc" && chgrp daemon "$T/svc" && chmod 2775 "$T/svc"
cp /bin/true "$T/shared/tool" && cp /bin/true "$T/swap/prog" && cp /bin/true "$T/svc/tool"
{ rec "$T/shared/tool" 4001 10 dir-writable; rec "$T/swap/prog" 4001 11 dir-writable
  rec "$T/svc/tool" 4002 12 dir-writable; } >"$T/log"
# after the denial: the directory swapped for a symlink to /tmp
mv "$T/swap" "$T/swap.old" && ln -s /tmp "$T/swap"
t "report: the swapped directory changed since logged" 0 "changed since logged: a symlink on the way" $S "$T/log"
t "report: who loses write access: every other user" 0 "chmod go-w $T/shared  (directory dev " $S "$T/log"
t "report: a directory only a service's group writes" 0 "group daemon (members: daemon) loses write access" $S "$T/log"
t "--apply --fix: the fix that takes no person's write access" 0 "chmod g-w $T/svc" $S --apply --fix "$T/log"
no "--apply --fix: not the one every user would lose" "$T/shared"
t "--apply --fix: $T/svc is 2755 now" 0 "2755" stat -c %a "$T/svc"
t "--apply --fix: $T/shared is still 777" 0 "777" stat -c %a "$T/shared"
t "--apply --fix=DIR: by name, every user's write access" 0 "chmod go-w $T/shared" $S --apply --fix="$T/shared" "$T/log"
t "--apply --fix=DIR: $T/shared is 755 now" 0 "755" stat -c %a "$T/shared"
t "--apply --fix=DIR: again: nothing left to do" 0 "  (none)" $S --apply --fix="$T/shared" "$T/log"
t "--apply --fix=/tmp: no such fix" 1 "/tmp: no such action in the report" $S --apply --fix=/tmp "$T/log"
t "--apply: nothing through the symlink" 0 "1777" stat -L -c %a "$T/swap"
mkdir -m 1777 "$T/sticky" && chmod 1777 "$T/sticky" && cp /bin/true "$T/sticky/prog"
rec "$T/sticky/prog" 4001 13 dir-writable >>"$T/log"
t "--drop-in: a sticky directory's user is a proposal, not trusted" 0 "#	4001	# " $S --drop-in "$T/log"
t "--drop-in --trust=4001: trusted by the one act" 0 "" \
	sh -c "$S --drop-in --trust=4001 '$T/log' | grep -q '^	4001	# '"
# A copy of a program in a directory a user owns: never a chown.
mkdir "$T/own" && cp /bin/true "$T/own/prog" && chmod 0750 "$T/own/prog" &&
	chown -R 4003:daemon "$T/own"
rec "$T/own/prog" 4003 14 dir-owner >"$T/own.log"
t "report: a user's own directory: what TPE stops, no copy" 0 "a directory a user owns (uid 4003)" $S "$T/own.log"
t "--apply --copy: nothing to copy" 0 "  (none)" $S --apply --copy --copy-dir "$T/copies" "$T/own.log"
# A file root owns that others may write, in a root directory: a copy.
mkdir "$T/fw" && cp /bin/true "$T/fw/tool" && chmod 0666 "$T/fw/tool"
rec "$T/fw/tool" 4001 15 file-writable >"$T/fw.log"
t "report: a writable file is copied, never fixed in place" 0 "$T/fw/tool -> /opt/tpe-suggest/uid-4001/tool  (root:root 0544, from file dev " $S "$T/fw.log"
t "--apply --copy=PROGRAM: the copy" 0 "  done" $S --apply --copy="$T/fw/tool" --copy-dir "$T/copies" "$T/fw.log"
t "--apply --copy: root's, no wider than its source, in root's directory" 0 "0:0 544 0 755" \
	sh -c "echo \$(stat -c '%u:%g %a' '$T/copies/uid-4001/tool') \$(stat -c '%u %a' '$T/copies/uid-4001')"
t "--apply --copy: the source is as it was" 0 "666" stat -c %a "$T/fw/tool"
exit $failed
