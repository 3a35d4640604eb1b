# Helpers for guest suites: source /usr/lib/tpe-tests/lib.sh.
# A suite prints one line per check on stdout, `ok - NAME` or
# `not ok - NAME: REASON`; anything else is its log.

TPE_TESTS=/usr/lib/tpe-tests
TPE_BIN=$TPE_TESTS/bin
TPE_SECFS=/sys/kernel/security/tpe

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1: $2"; }

# check NAME CMD...: ok when CMD exits 0; otherwise not ok with CMD's last
# line of output as the reason. CMD's output is kept as log either way.
check() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#   /'
	if [ $rc = 0 ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc: $(printf '%s' "$out" | tail -n1)"
	fi
	return $rc
}

# as USER CMD...: run CMD as USER, in /, without a login shell.
as() {
	local user=$1
	shift
	(cd / && runuser -u "$user" -- "$@")
}
