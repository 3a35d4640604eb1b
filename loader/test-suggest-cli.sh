#!/bin/sh
# The tpe-suggest command line: exit codes, FILE:LINE errors, and a real
# log (fixtures/journal-k) through each output. Prints "ok - NAME" or
# "not ok - NAME: REASON" per check; exits 1 if any failed.
set -u
umask 022	# a config must not be group- or other-writable
SUGGEST=${TPE_SUGGEST:-../build/loader/tpe-suggest}
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
t "usage: two logs" 2 "usage:" $S a b
t "usage: unknown option" 2 "usage:" $S --bogus
t "missing log names it" 1 "$T/none: No such file" $S "$T/none"
t "missing config names it" 1 "$T/none.conf" $SUGGEST -c "$T/none.conf" fixtures/journal-k
{ echo "kernel: something else"; echo "kernel: tpe: denied exec of /x by uid=1"; } >"$T/bad"
# Skipped and counted, never fatal, never used.
t "an unreadable TPE line names file and line" 0 "$T/bad:2: skipped TPE record: old kernel log format" $S "$T/bad"
t "and is counted in the report" 0 "1 unreadable TPE record skipped" $S "$T/bad"
t "and nothing is proposed" 0 "0 denials" $S "$T/bad"
t "and nothing is proposed in the drop-in" 0 "Nobody needs to be trusted" $S --drop-in "$T/bad"
t "the journal's cut and forged lines are skipped and counted" 0 "2 unreadable TPE records skipped" $S fixtures/journal-k
t "ausearch -i is refused with a hint" 0 "use ausearch --raw or audit.log" $S fixtures/ausearch-i
t "ausearch -i gives no denials" 0 "0 denials" $S fixtures/ausearch-i
t "ausearch --raw is read" 0 "18 denials (2 denied, 16 would deny)" $S fixtures/ausearch-raw
t "a mixed log without TPE lines" 0 "0 denials" $S "$T/tpe.conf"
t "the journal fixture" 0 "18 denials (2 denied, 16 would deny)" $S fixtures/journal-k
t "standard input" 0 "18 denials" sh -c "$S - <fixtures/dmesg"
# Not this machine's directories: nothing to fix here, trust proposed.
t "--commands: nothing for directories not on this machine" 0 "" sh -c "test -z \"\$($S --commands fixtures/audit.log)\""
t "--drop-in: numbers for unknown users" 0 "trusted_users = ( " $S --drop-in fixtures/audit.log
exit $failed
