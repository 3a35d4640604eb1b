# The hardening suites' additions to tests/lib/lib.sh (sourced here):
#	. /usr/lib/tpe-tests/hardening/suite-lib.sh
. /usr/lib/tpe-tests/lib.sh

H=$TPE_TESTS/hardening
TPE_SUITES=$TPE_TESTS/suites

# Exec under reload in CI: 4 workers until 3,000 execs and the 10,000
# reloads are done, then stop; at most 150 s for the execs (up to 3 x that
# for the reloads); fewer than 1,000 execs fails. Both counts are met in
# about a minute on a 2-core host beside another guest (TCG with the debug
# kernel: 57 execs/s, 188 reloads/s). The million execs are `make soak`'s,
# on the lean kernel (tests/hardening/README.md). tpe_stress_*= on the
# command line win.
STRESS_EXECS=3000
STRESS_MIN_EXECS=1000
STRESS_SECS=150

# cpu1_online 0|1: take the guest's second CPU down or bring it up
# (run-suite --cpus 2), and say whether it took.
cpu1_online() {
	local f=/sys/devices/system/cpu/cpu1/online
	echo "$1" >"$f" || return 1
	[ "$(<"$f")" = "$1" ] || { echo "$f reads $(<"$f"), not $1"; return 1; }
}

# add_carol: a second untrusted user, as the rollout suite adds her (flood.c).
add_carol() {
	id carol >/dev/null 2>&1 || useradd -M -u 1003 -U -s /usr/sbin/nologin carol ||
		not_ok "add user carol" "useradd failed"
}

# ktest USER TEST...: run kselftests exec:TEST... as USER in $ST/exec
# (trusted: root-owned, not group/other-writable); one result line per
# test, a skip as a skip (tests/run-check never counts one as a pass).
# The verdicts are the kselftest runner's (run_kselftest.sh): exit 0 ok, 4
# (KSFT_SKIP) a skip, anything else, or 600 s gone, a failure. The runner
# itself starts a dozen processes and a perl per test, seconds each under
# TCG; a test here is one timeout(1) and the test.
ktest() {
	local user=$1 t out rc ret=0 lines=()
	shift
	for t in "$@"; do
		echo "# selftests $user exec:$t"
		if [ "$user" = root ]; then
			out=$(cd "$ST/exec" && timeout 600 "./$t" 2>&1)
		else
			out=$(AS_DIR=$ST/exec as "$user" timeout 600 "./$t" 2>&1)
		fi
		rc=$?
		[ -n "$out" ] && mapfile -t lines <<<"$out" && printf '#   %s\n' "${lines[@]}"
		case $rc in
		0) echo "ok - selftests $user exec:$t" ;;
		4) echo "ok - selftests $user exec:$t # SKIP exit 4 (KSFT_SKIP)" ;;
		124) echo "not ok - selftests $user exec:$t: timed out after 600 s"; ret=1 ;;
		*) echo "not ok - selftests $user exec:$t: exit $rc"; ret=1 ;;
		esac
	done
	return $ret
}

# run_selftests tpe|notpe: the exec selftests as root (all of them) and as
# alice (those an unprivileged user can pass from a directory she cannot
# write), with TPE enforcing + MMAP (then the configured policy again), or
# on a boot without TPE.
run_selftests() {
	local mode=$1 lsms all alice_tests rc=0 t
	lsms=$(cat /sys/kernel/security/lsm 2>/dev/null)
	if [ "$mode" = tpe ]; then
		need_tpe || return 1
		if ! "$H/policy-set" -f enforce,mmap -u "$(id -u bob)"; then
			echo "not ok - selftests: set policy ENFORCE|MMAP"
			return 1
		fi
		echo "ok - selftests: tpe active ($lsms), policy ENFORCE|MMAP, bob trusted, alice not"
	elif tpe_active; then
		echo "not ok - selftests: tpe left out of lsm=: lsm list is '$lsms'"
		return 1
	else
		echo "ok - selftests: tpe not active (lsm list '$lsms')"
	fi
	if [ ! -f "$H/selftests/kselftest-list.txt" ]; then
		echo "not ok - selftests: installed: no $H/selftests (make -C tests/hardening selftests before the image)"
		return 1
	fi
	# A private copy: the tests write into their own directory.
	mkdir -p /run/tpe-selftests
	mount -t tmpfs -o mode=0755 tpe-selftests /run/tpe-selftests || return 1
	ST=/run/tpe-selftests/st
	# kselftest installs its scripts 0744: let alice run them too (a+rX),
	# while nobody but root can write anything there (go-w).
	cp -a "$H/selftests" "$ST" && chown -R 0:0 "$ST" && chmod -R go-w,a+rX "$ST" || return 1
	all=$(sed -n 's/^exec://p' "$ST/kselftest-list.txt")
	ktest root $all || rc=1
	# As alice: execveat, binfmt_script.py and non-regular create files in
	# their own directory (or /tmp) and run them; a directory alice can
	# write is untrusted by definition, and from one she cannot write they
	# fail without TPE too. recursion-depth needs CAP_SYS_ADMIN (it skips).
	# So alice runs the rest, from the trusted copy.
	alice_tests=
	for t in $all; do
		case "$t" in
		load_address.*|null-argv) alice_tests="$alice_tests $t" ;;
		esac
	done
	ktest alice $alice_tests || rc=1
	# The configured policy back, for a suite after this one in the boot.
	if [ "$mode" = tpe ]; then
		check "selftests: the boot's policy back (systemctl reload tpe)" \
			systemctl reload tpe.service || rc=1
	fi
	return $rc
}

# quiet_audit: for a run of 10^5 policy writes or execs, stop auditd and
# drop TPE's audit record types (AVC, MAC_POLICY_LOAD) with an exclude
# rule. Under TCG each record (and the SYSCALL and PROCTITLE records it pulls
# in) costs far more than the check itself: 10,000 policy writes took 28 s
# with auditd, 3 s with auditd stopped (records still printed and dropped),
# 0.8 s with the exclude rule (lean kernel). TPE's audit code is exercised by
# the bypass suite, which leaves auditd running, and by the e2e suite.
quiet_audit() {
	systemctl stop auditd.service 2>/dev/null
	auditctl -a never,exclude -F msgtype=AVC >/dev/null &&
		auditctl -a never,exclude -F msgtype=MAC_POLICY_LOAD >/dev/null
	echo "# auditd $(systemctl is-active auditd.service 2>&1); audit rules: $(auditctl -l 2>&1 | tr '\n' ';')"
}
