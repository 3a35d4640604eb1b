# The shell library every guest suite sources first:
#	. /usr/lib/tpe-tests/lib.sh
# An area keeps only its own additions, in a file that sources this one
# (tests/hardening/suite-lib.sh, tests/bench/lib.sh).
#
# Result lines (tests/README.md): a suite prints one line per check on
# stdout, `ok - NAME` or `not ok - NAME: REASON`; anything else is its log.
# FAILED is 1 once any check failed, for a suite that ends `exit $FAILED`.
#
# The environment overrides are for host runs (tests/bench/selftest).

TPE_TESTS=${TPE_TESTS:-/usr/lib/tpe-tests}
TPE_BIN=$TPE_TESTS/bin
TPE_SECFS=${TPE_SECURITYFS:-/sys/kernel/security/tpe}
POLICY=$TPE_SECFS/policy
TPE_CMDLINE=${TPE_CMDLINE:-/proc/cmdline}
FAILED=0

ok() { echo "ok - $1"; }
not_ok() {
	echo "not ok - $1: $2"
	FAILED=1
}

# check NAME CMD...: ok when CMD exits 0; otherwise not ok with CMD's last
# line of output as the reason. CMD's output is kept as log either way.
check() {
	local name=$1 out rc lines=()
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ -n "$out" ] && mapfile -t lines <<<"$out" && printf '#   %s\n' "${lines[@]}"
	if [ $rc = 0 ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc: ${lines[*]: -1}"
	fi
	return $rc
}

# run_prog NAME CMD...: run a test program that prints its own result
# lines; a non-zero exit with no `not ok` line of its own (a crash) is a
# failure under NAME.
run_prog() {
	local name=$1 log rc
	shift
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$log"; then
		not_ok "$name" "exited $rc without naming a failure"
	fi
	rm -f "$log"
	return "$rc"
}

# as USER CMD...: CMD as USER with USER's groups, as a login has them
# (--init-groups: what NSS lists), and USER's HOME, USER and LOGNAME, in
# AS_DIR (default /: USER may not reach the caller's directory).
# setpriv, not runuser: runuser opens a PAM session per call, which costs
# seconds under TCG; and no program the shell can do without (cut, id,
# env, getent for a user in /etc/passwd): every exec costs a tenth of a
# second on the debug kernel.
as() {
	local user=$1 name pw= gid home
	shift
	while IFS=: read -r name _ _ gid _ home _; do
		[ "$name" = "$user" ] && pw=$name && break
	done </etc/passwd
	if [ -z "$pw" ]; then
		pw=$(getent passwd "$user") || { echo "as: no user $user" >&2; return 2; }
		IFS=: read -r _ _ _ gid _ home _ <<<"$pw"
	fi
	(cd "${AS_DIR:-/}" && HOME=${home:-/} USER=$user LOGNAME=$user \
		exec setpriv --reuid="$user" --regid="$gid" --init-groups "$@")
}

# runs NAME USER PATH: USER can exec PATH (tpe-exec runs it and it says so).
runs() {
	local out
	out=$(as "$2" "$TPE_BIN/tpe-exec" "$3" 2>&1)
	if [ $? = 0 ] && [[ $out != "tpe-exec:"* ]]; then
		ok "$1"
	else
		not_ok "$1" "$2 could not run $3: $out"
	fi
}

# denied NAME USER PATH: USER's exec of PATH fails with EACCES.
denied() {
	local out
	out=$(as "$2" "$TPE_BIN/tpe-exec" "$3" 2>&1)
	case "$out" in
	*": EACCES "*) ok "$1" ;;
	*) not_ok "$1" "$2 running $3: expected EACCES, got: $out" ;;
	esac
}

# cmdline_arg NAME [DEFAULT]: the value of the last NAME= on the kernel
# command line, or DEFAULT.
cmdline_arg() {
	local v
	v=$(tr ' ' '\n' <"$TPE_CMDLINE" | sed -n "s/^$1=//p" | tail -n1)
	echo "${v:-${2:-}}"
}

# tpe_active: tpe is in the kernel's list of active LSMs.
tpe_active() {
	tr , '\n' 2>/dev/null </sys/kernel/security/lsm | grep -qx tpe
}

# need_tpe: tpe is active with its policy file; else a failure.
need_tpe() {
	if ! tpe_active; then
		not_ok "tpe is an active LSM" "lsm list is '$(cat /sys/kernel/security/lsm 2>&1)'"
		return 1
	fi
	if [ ! -e "$POLICY" ]; then
		not_ok "tpe is an active LSM" "no $POLICY"
		return 1
	fi
}

# counter NAME: tpe's counter NAME from securityfs tpe/stats.
counter() {
	local name value
	while read -r name value; do
		[ "$name" = "$1" ] && echo "$value"
	done <"$TPE_SECFS/stats"
}
