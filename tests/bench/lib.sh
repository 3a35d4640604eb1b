# Shared by the bench suites (/usr/lib/tpe-tests/suites/bench*): sourced.
#
# A suite prints its checks on stdout (`ok - ...`, `not ok - ...: why`) like
# every other suite. Its measurements are `# bench key=value ...` lines that
# go straight to /dev/ttyS1, where tests/bench/run reads them back from
# $BUILD/logs/NAME.results; they are held in a file and written out once per
# round, so the serial port's interrupts land in the next cell's warm-up and
# not in its measured iterations.
#
# Knobs from the kernel command line (tests/bench/run sets them):
#   tpe_bench_iters=N     measured iterations per cell over all rounds (20000)
#   tpe_bench_rounds=N    rounds; every variant runs once per round (5)
#   tpe_bench_warmup=N    unmeasured iterations before each cell's round (100)
#   tpe_bench_sizes=LIST  TPE policy sizes, trusted uids (1,1024,65536,1048576)
#   tpe_bench_mmap=LIST   TPE MMAP flag values (off,on)
#   tpe_bench_notpe=LIST  variants of a boot without tpe (floor,fapolicyd)
#   tpe_bench_ops=LIST    what each cell measures (exec,mmap,open-mmap)
#   tpe_bench_load=0|1    also time tpe-load and 1M-entry policy writes (1)

# The environment overrides are for ./selftest on the host only.
BENCH=${TPE_BENCH_DIR:-/usr/lib/tpe-tests/bench}
TB=$BENCH/tpe-bench
POLICY=${TPE_SECURITYFS:-/sys/kernel/security/tpe}/policy
CMDLINE=${TPE_BENCH_CMDLINE:-/proc/cmdline}
TRUSTED_UID=2000000	# listed in every policy; no passwd entry needed
UNTRUSTED_UID=2000001	# never listed
WORK=${TPE_BENCH_WORK:-/var/tmp/tpe-bench}
UNTRUSTED_DIR=$WORK/untrusted	# world-writable: not a trusted path
SAMPLES=$WORK/samples
PENDING=$WORK/pending
RESULTS=${TPE_BENCH_RESULTS:-/dev/ttyS1}
FAILED=0

arg() { # arg NAME DEFAULT: tpe_bench_NAME= from the kernel command line
	local v
	v=$(tr ' ' '\n' <"$CMDLINE" | sed -n "s/^tpe_bench_$1=//p" | tail -n1)
	echo "${v:-$2}"
}

ITERS=$(arg iters 20000)
ROUNDS=$(arg rounds 5)
WARMUP=$(arg warmup 100)
OPS=$(arg ops exec,mmap,open-mmap | tr , ' ')
PER_ROUND=$(( (ITERS + ROUNDS - 1) / ROUNDS ))

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1: $2"; FAILED=1; }

# bench KEY=VALUE...: one measurement line, sent at the next flush.
bench() { echo "# bench $*" >>"$PENDING"; }
flush() {
	[ -s "$PENDING" ] || return 0
	cat "$PENDING" >>"$RESULTS"
	cat "$PENDING" >>"$WORK/all"
	: >"$PENDING"
}

# setup: the work dir, the exec target in an untrusted directory, checks
# that the trusted one is trusted. Everything on the root file system.
setup() {
	rm -rf "$WORK"
	mkdir -p "$UNTRUSTED_DIR" "$SAMPLES"
	chmod 0755 "$WORK"
	chmod 0777 "$UNTRUSTED_DIR"
	cp "$BENCH/true" "$UNTRUSTED_DIR/true"
	chmod 0755 "$UNTRUSTED_DIR/true"
	: >"$PENDING"
	local owner mode
	read -r owner mode < <(stat -c '%u %a' "$BENCH")
	if [ "$owner" != 0 ] || (( 0$mode & 022 )); then
		not_ok "bench setup" "$BENCH is not a trusted dir: uid $owner, mode $mode"
		return 1
	fi
	bench "info iters=$ITERS rounds=$ROUNDS per_round=$PER_ROUND" \
		"warmup=$WARMUP kernel=$(uname -r)" \
		"lsm=$(cat /sys/kernel/security/lsm 2>/dev/null)" \
		"clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)" \
		"cpus=$(nproc)"
	echo "# bench: $ITERS iterations per cell in $ROUNDS rounds; ops: $OPS"
}

# cells BOOT VARIANT ROUND DENY_EXEC DENY_MMAP: every op, by both users,
# from both directories. DENY_*: allow or deny, what the untrusted user
# running from the untrusted directory must get; every other cell is allowed.
cells() {
	local boot=$1 variant=$2 round=$3 dexec=$4 dmmap=$5
	local op dir user path uid expect line rc
	echo "# bench: round $round: $variant"
	for op in $OPS; do
		for dir in trusted untrusted; do
			for user in trusted untrusted; do
				path=$BENCH/true uid=$TRUSTED_UID expect=allow
				[ "$dir" = untrusted ] && path=$UNTRUSTED_DIR/true
				[ "$user" = untrusted ] && uid=$UNTRUSTED_UID
				if [ "$dir/$user" = untrusted/untrusted ]; then
					expect=$dmmap
					[ "$op" = exec ] && expect=$dexec
				fi
				line=$("$TB" "$op" -n "$PER_ROUND" -w "$WARMUP" \
					-u "$uid" -e "$expect" \
					-s "$SAMPLES/$variant.$op.$dir.$user" \
					"$path" 2>"$WORK/err")
				rc=$?
				bench "boot=$boot variant=$variant round=$round" \
					"dir=$dir user=$user expect=$expect $line"
				if [ $rc != 0 ]; then
					not_ok "$boot: $variant round $round: $op from $dir dir by $user user" \
						"$(tail -n1 "$WORK/err")"
					echo "$variant" >>"$WORK/bad-variants"
				fi
			done
		done
	done
}

# summarize BOOT VARIANT: statistics of each cell over all its rounds, and
# one ok per variant whose every cell did what it must.
summarize() {
	local boot=$1 variant=$2 op dir user f line
	for op in $OPS; do
		for dir in trusted untrusted; do
			for user in trusted untrusted; do
				f=$SAMPLES/$variant.$op.$dir.$user
				[ -f "$f" ] || continue
				line=$("$TB" summarize "$f")
				bench "boot=$boot variant=$variant round=all" \
					"op=$op dir=$dir user=$user $line"
			done
		done
	done
	if grep -qx "$variant" "$WORK/bad-variants" 2>/dev/null; then
		not_ok "$boot: $variant: cells as expected" "see the lines above"
	else
		ok "$boot: $variant: every cell allowed or denied as expected, numbers out"
	fi
}

# policy VARIANT ROUND ENTRIES FLAGS: make a policy live (one write), time
# it and the read-back.
policy() {
	local variant=$1 round=$2 n=$3 flags=$4 line
	if line=$("$TB" policy -N "$n" -f "$flags" -t "$TRUSTED_UID" 2>"$WORK/err"); then
		bench "boot=tpe variant=$variant round=$round $line"
		return 0
	fi
	not_ok "tpe: $variant: policy of $n uids loaded" "$(tail -n1 "$WORK/err")"
	echo "$variant" >>"$WORK/bad-variants"
	return 1
}
