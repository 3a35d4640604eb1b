#!/bin/sh
# The tpe-suggest command line: exit codes, FILE:LINE errors, and a real
# log (fixtures/journal-k) through each output. Prints "ok - NAME" or
# "not ok - NAME: REASON" per check; exits 1 if any failed.
set -u
cd "$(dirname "$0")" || exit 1	# fixtures/ is here
umask 022	# a config must not be group- or other-writable
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
		echo "not ok - $name: exit $rc, want $want: $(head -c 200 "$T/err")"
		failed=1
	elif [ -n "$text" ] && ! grep -qF -- "$text" "$T/out" "$T/err"; then
		echo "not ok - $name: no '$text' in: $(head -c 300 "$T/out" "$T/err")"
		failed=1
	else
		echo "ok - $name"
	fi
}

S="$SUGGEST -c $T/tpe.conf"
t "usage: two logs, with the reason" 2 "tpe-suggest: one LOG at most" $S a b
t "usage: --drop-in and --apply exclude each other" 2 "tpe-suggest: --drop-in and --apply exclude each other" $S --drop-in --apply fixtures/dmesg
t "usage: --apply and --drop-in exclude each other" 2 "tpe-suggest: --drop-in and --apply exclude each other" $S --apply --drop-in fixtures/dmesg
t "usage: --copy without --apply, with the reason" 2 "tpe-suggest: --copy and --copy-dir go with --apply" $S --copy fixtures/dmesg
t "usage: --copy-dir not absolute" 2 "tpe-suggest: --copy-dir: an absolute path" $S --apply --copy-dir rel fixtures/dmesg
t "--help lists the options" 0 "--drop-in      print only the drop-in" $S --help
# The version is debian/changelog's, one answer in one place.
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' ../../debian/changelog)
[ -n "$version" ] || version='(no version in debian/changelog)'
t "--version" 0 "tpe-suggest $version" $S --version
t "usage: unknown option" 2 "usage:" $S --bogus
t "usage: --copy-dir without --apply" 2 "usage:" $S --copy-dir /x fixtures/dmesg
t "--commands is gone, for --apply" 2 "use --apply" $S --commands fixtures/dmesg
t "missing log names it" 1 "tpe-suggest: $T/none: No such file" $S "$T/none"
t "missing config names it" 1 "$T/none.conf" $SUGGEST -c "$T/none.conf" fixtures/journal-k
t "missing config: a hint about -c" 1 "tpe-suggest: $T/none.conf is the configuration in force; name another with -c FILE" $SUGGEST -c "$T/none.conf" fixtures/journal-k
{ echo "kernel: something else"; echo "kernel: tpe: denied exec of /x by uid=1"; } >"$T/bad"
# Skipped and counted, never used; a log of nothing else has no records.
t "an unreadable TPE line names file and line" 1 "$T/bad:2: skipped TPE record: old kernel log format" $S "$T/bad"
t "and is counted" 1 "1 unreadable TPE record skipped" $S "$T/bad"
t "and no TPE records are found" 1 "tpe-suggest: no TPE records found in $T/bad (only unreadable ones, skipped)" $S "$T/bad"
t "and nothing is written for a drop-in" 1 "no TPE records found" $S --drop-in "$T/bad"
t "the journal's cut and forged lines are skipped and counted" 0 "2 unreadable TPE records skipped" $S fixtures/journal-k
t "ausearch -i is refused with a hint" 1 "use ausearch --raw or audit.log" $S fixtures/ausearch-i
t "ausearch -i gives no records" 1 "no TPE records found" $S fixtures/ausearch-i
t "ausearch --raw is read" 0 "18 denials (2 denied, 16 would deny)" $S fixtures/ausearch-raw
t "a log without TPE lines: says so" 1 "tpe-suggest: no TPE records found in $T/tpe.conf" $S "$T/tpe.conf"
t "the journal fixture" 0 "18 denials (2 denied, 16 would deny)" $S fixtures/journal-k
t "standard input" 0 "18 denials" sh -c "$S - <fixtures/dmesg"
# Not this machine's directories: nothing acted on, trust proposed.
t "report: not found here" 0 "not found on this machine" $S fixtures/audit.log
t "--drop-in: nobody for objects not found here" 0 "# Nobody needs to be trusted." $S --drop-in fixtures/audit.log

# The drop-in in place: its users are kept, the same log gives the same.
mkdir -p "$T/tpe.conf.d"
$S --drop-in fixtures/audit.log >"$T/dropin1"
printf 'trusted_users = [ 4000 ];\n' >"$T/tpe.conf.d/50-suggest.conf"
t "a user the drop-in trusts is kept" 0 "	4000	# kept from the drop-in as it was" $S --drop-in fixtures/audit.log
cp "$T/dropin1" "$T/tpe.conf.d/50-suggest.conf"
$S --drop-in fixtures/audit.log >"$T/dropin2"
for f in dropin1 dropin2; do grep -v '^#' "$T/$f" | sed 's/#.*//' >"$T/$f.users"; done
t "the same log with its drop-in in place: the same users" 0 "" \
	cmp "$T/dropin1.users" "$T/dropin2.users"
rm -r "$T/tpe.conf.d"

# On this machine: by dev:ino, on the descriptors checked (root only).
line() {	# FILE PID CHECK: a record of FILE as it is now
	d=$(stat -c %d "$1")
	printf 'tpe: would deny exec uid=4001 euid=4001 pid=%s comm=x check=%s dev=%s:%s ino=%s dir_ino=%s path=%s\n' \
		"$2" "$3" $((d >> 8)) $((d & 255)) "$(stat -c %i "$1")" \
		"$(stat -c %i "$(dirname "$1")")" "$1"
}
if [ "$(id -u)" = 0 ]; then
	mkdir -m 0777 "$T/shared" "$T/swap" && chmod 0777 "$T/shared"
	cp /bin/true "$T/shared/tool" && cp /bin/true "$T/swap/prog"
	{ line "$T/shared/tool" 10 dir-writable; line "$T/swap/prog" 11 dir-writable; } >"$T/log"
	# after the denial: the directory swapped for a symlink to /tmp
	mv "$T/swap" "$T/swap.old" && ln -s /tmp "$T/swap"
	t "report: the swapped directory changed since logged" 0 "changed since logged: a symlink on the way" $S "$T/log"
	mkdir -m 1777 "$T/sticky" && chmod 1777 "$T/sticky" && cp /bin/true "$T/sticky/prog"
	line "$T/sticky/prog" 12 dir-writable >>"$T/log"
	t "--drop-in: a sticky directory's user, by number, and why" 0 \
		"	4001	# 1 in $T/sticky: prog" $S --drop-in "$T/log"
	t "--apply: chmod go-w of the shared directory" 0 "chmod go-w $T/shared" $S --apply "$T/log"
	t "--apply: again: nothing left to do" 0 "  (none)" $S --apply "$T/log"
	t "--apply: the shared directory is 0755 now" 0 "755" stat -c %a "$T/shared"
	mkdir "$T/own" && cp /bin/true "$T/own/prog" && chown -R 4001 "$T/own"
	line "$T/own/prog" 13 dir-owner >"$T/own.log"
	t "report: a user's directory gets a copy, no chown" 0 "install -o root -g root -m 0755 $T/own/prog /opt/tpe-suggest/uid-4001/prog" $S "$T/own.log"
	t "--apply without --copy copies nothing" 0 "  (none)" $S --apply --copy-dir "$T/copies" "$T/own.log"
	t "--apply --copy: a root-owned copy" 0 "  done" $S --apply --copy --copy-dir "$T/copies" "$T/own.log"
	t "--apply --copy: root's, 0755, in root's directory" 0 "0 755 0 755" \
		sh -c "echo \$(stat -c '%u %a' '$T/copies/uid-4001/prog' '$T/copies/uid-4001')"
	t "--apply --copy: the user's directory is still hers" 0 "4001" stat -c %u "$T/own"
	t "--apply: nothing through the symlink" 0 "1777" stat -L -c %a "$T/swap"
fi
exit $failed
