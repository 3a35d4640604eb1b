# The bench suites' additions to tests/lib/lib.sh (sourced here), for
# /usr/lib/tpe-tests/suites/bench*.
#
# A suite prints its checks on stdout (`ok - ...`, `not ok - ...: why`) like
# every other suite. Its measurements are `# bench key=value ...` lines that
# go straight to /dev/ttyS1, where tests/bench/run reads them back from
# $BUILD/logs/NAME.results; they are held in a file and written out once per
# round, so the serial port's interrupts land in the next cell's warm-up and
# not in its measured iterations.
#
# Knobs from the kernel command line (tests/bench/run sets them):
#   tpe_bench_iters=N     measured iterations per cell over all rounds, for
#                         the static program's cells (exec, mmap, open-mmap)
#   tpe_bench_iters_dyn=N the same for exec-dyn cells
#   tpe_bench_iters_py=N  the same for exec-py cells
#   tpe_bench_rounds=N    rounds; every variant runs once per round
#   tpe_bench_warmup=N    unmeasured iterations before each cell's round (100;
#                         exec-dyn 20, exec-py 1: tpe_bench_warmup_dyn=,
#                         tpe_bench_warmup_py=)
#   tpe_bench_sizes=LIST  TPE policy sizes, trusted uids (1,1024,65536,1048576)
#   tpe_bench_prog_sizes=LIST  the sizes that also get the exec-dyn and
#                         exec-py cells (1,65536,1048576)
#   tpe_bench_mmap=LIST   TPE MMAP flag values (off,on)
#   tpe_bench_notpe=LIST  variants of a boot without tpe (floor,fapolicyd)
#   tpe_bench_ops=LIST    what each cell measures
#                         (exec,mmap,open-mmap,exec-dyn,exec-py; also fork)
#   tpe_bench_aslr=on|off address space randomization of the measured execs
#                         (off, the default: tpe-bench exec -R)
#   tpe_bench_load=0|1    also time tpe-load and 1M-entry policy writes (1)
#   tpe_bench_count=0|1   count tpe's checks per exec of each program (1)
#   tpe_bench_count_runs=N  runs of each program for that count (3)
#
# Defaults: tests/bench/run always passes the iters, rounds and aslr; those
# below are for a suite booted by hand.

# The environment overrides are for ./selftest on the host only.
. "${TPE_TESTS:-/usr/lib/tpe-tests}/lib.sh"
BENCH=${TPE_BENCH_DIR:-$TPE_TESTS/bench}
TB=$BENCH/tpe-bench
TRUSTED_UID=2000000	# listed in every policy; no passwd entry needed
UNTRUSTED_UID=2000001	# never listed
WORK=${TPE_BENCH_WORK:-/var/tmp/tpe-bench}
UNTRUSTED_DIR=$WORK/untrusted	# world-writable: not a trusted path
SAMPLES=$WORK/samples
PENDING=$WORK/pending
RESULTS=${TPE_BENCH_RESULTS:-/dev/ttyS1}

arg() { cmdline_arg "tpe_bench_$1" "$2"; } # arg NAME DEFAULT: tpe_bench_NAME=

ITERS=$(arg iters 10000)
ITERS_DYN=$(arg iters_dyn 4000)
ITERS_PY=$(arg iters_py 60)
ROUNDS=$(arg rounds 20)
WARMUP=$(arg warmup 100)
WARMUP_DYN=$(arg warmup_dyn 20)
WARMUP_PY=$(arg warmup_py 1)
OPS=$(arg ops exec,mmap,open-mmap,exec-dyn,exec-py | tr , ' ')
PROG_SIZES=$(arg prog_sizes 1,65536,1048576 | tr , ' ')
ASLR=$(arg aslr off)
COUNT_RUNS=$(arg count_runs 3)
per_round() { echo $(( ($1 + ROUNDS - 1) / ROUNDS )); }
PER_ROUND=$(per_round "$ITERS")

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
	bench "info iters=$ITERS iters_dyn=$ITERS_DYN iters_py=$ITERS_PY" \
		"rounds=$ROUNDS per_round=$PER_ROUND aslr=$ASLR" \
		"warmup=$WARMUP kernel=$(uname -r)" \
		"lsm=$(cat /sys/kernel/security/lsm 2>/dev/null)" \
		"clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)" \
		"cpus=$(nproc)"
	echo "# bench: $ITERS iterations per cell in $ROUNDS rounds; ops: $OPS"
}

# cell_cmd OP DIR: sets CMD (tpe-bench's command and options, then the
# program and its arguments) for one cell; fails if OP has no DIR cell.
# The static program is timed from both directories; Debian's programs
# where they are installed, /usr/bin: a copy elsewhere would not be what
# users run (python3 finds its library next to itself), and the untrusted
# directory's cells are the static program's.
cell_cmd() {
	local op=$1 dir=$2 path=$BENCH/true
	[ "$dir" = untrusted ] && path=$UNTRUSTED_DIR/true
	local -a x=()
	[ "$ASLR" = off ] && x=(-R)
	case $op in
	exec) CMD=(exec -n "$PER_ROUND" -w "$WARMUP" "${x[@]}" "$path") ;;
	mmap|open-mmap) CMD=("$op" -n "$PER_ROUND" -w "$WARMUP" "$path") ;;
	fork)	# no exec, so no check: what tpe costs besides them
		[ "$dir" = trusted ] || return 1
		CMD=(fork -n "$PER_ROUND" -w "$WARMUP" "${x[@]}") ;;
	exec-dyn)
		[ "$dir" = trusted ] || return 1
		CMD=(exec -n "$(per_round "$ITERS_DYN")" -w "$WARMUP_DYN" \
		     "${x[@]}" /usr/bin/true) ;;
	exec-py)
		[ "$dir" = trusted ] || return 1
		CMD=(exec -n "$(per_round "$ITERS_PY")" -w "$WARMUP_PY" \
		     "${x[@]}" /usr/bin/python3 -c pass) ;;
	*) return 1 ;;
	esac
}

# cells BOOT VARIANT ROUND DENY_EXEC DENY_MMAP [OPS]: every op (default
# $OPS), by both users, from both directories. DENY_*: allow or deny, what
# the untrusted user running from the untrusted directory must get; every
# other cell is allowed.
cells() {
	local boot=$1 variant=$2 round=$3 dexec=$4 dmmap=$5 ops=${6:-$OPS}
	local op dir user uid expect line rc
	echo "# bench: round $round: $variant"
	for op in $ops; do
		for dir in trusted untrusted; do
			cell_cmd "$op" "$dir" || continue
			for user in trusted untrusted; do
				uid=$TRUSTED_UID expect=allow
				[ "$user" = untrusted ] && uid=$UNTRUSTED_UID
				if [ "$dir/$user" = untrusted/untrusted ]; then
					expect=$dmmap
					[ "$op" = exec ] && expect=$dexec
				fi
				line=$("$TB" "${CMD[0]}" -u "$uid" -e "$expect" \
					-s "$SAMPLES/$variant.$op.$dir.$user" \
					"${CMD[@]:1}" 2>"$WORK/err")
				rc=$?
				# tpe-bench says op=exec for every program.
				line=${line/#op=exec /op=$op }
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

# ---- tpe's checks per exec ----------------------------------------------
#
# How many checks does one exec of a program cost? tpe counts every check it
# judges and fails in tpe/stats' would_deny (permissive policy); one that
# passes leaves no trace. So: a chroot whose every directory is
# world-writable, holding copies of the programs, their interpreter and
# libraries and python3's library, where nothing is in a trusted path; the
# untrusted user runs each program there (tpe-bench count) and the
# would_deny delta per run is the number of checks. Cross-checks, each
# asserted: strace counts the PROT_EXEC mmap/mprotect calls the run makes
# itself, the same in the chroot as in the real system (the copy is
# faithful); what is left, checks - 1 (execve) - those, is the kernel's own
# mapping of the program and of its interpreter: 1 for the static program,
# 2 for a dynamic one; with MMAP off only the execve is judged: 1.
CHROOT=$WORK/chroot
PROGS="static dyn py"
prog_argv() { # prog_argv NAME: PROG_ARGV, the program inside the chroot
	case $1 in
	static) PROG_ARGV=(/static-true) ;;
	dyn) PROG_ARGV=(/usr/bin/true) ;;
	py) PROG_ARGV=(/usr/bin/python3 -c pass) ;;
	esac
}

# chroot_copy PATH: PATH into the chroot, and what its symlinks lead to.
chroot_copy() {
	local p=$1 real
	real=$(readlink -f "$(dirname "$p")")/$(basename "$p")
	[ -e "$CHROOT$real" ] || [ -L "$CHROOT$real" ] && return 0
	mkdir -p "$CHROOT$(dirname "$real")" && cp -a "$real" "$CHROOT$real" ||
		return 1
	[ -L "$real" ] && { chroot_copy "$(readlink -f "$real")" || return 1; }
	return 0
}

chroot_setup() {
	local p
	rm -rf "$CHROOT"
	mkdir -p "$CHROOT/usr"
	for p in bin lib lib64; do
		mkdir -p "$CHROOT/usr/$p" && ln -s "usr/$p" "$CHROOT/$p" || return 1
	done
	cp "$BENCH/true" "$CHROOT/static-true" || return 1
	# python3 looks up the user (site.py: the home directory), through
	# nsswitch.conf's modules (libnss_systemd): they are mapped too.
	local -a bins=(/usr/bin/true /usr/bin/python3
		       /usr/lib/x86_64-linux-gnu/libnss_*.so.2)
	for p in "${bins[@]}" \
		 $(for p in "${bins[@]}"; do ldd "$p" | grep -o '/[^ ]*'; done) \
		 /etc/ld.so.cache /etc/nsswitch.conf /etc/passwd /etc/group \
		 /usr/lib/python3.11 /etc/python3.11 /usr/lib/locale/C.utf8; do
		chroot_copy "$p" || return 1
	done
	find "$CHROOT" -type d -exec chmod 0777 {} + && chmod 0777 "$CHROOT"
}

# execmaps ROOT PROG...: PROT_EXEC file mmaps and mprotects the program
# itself makes, run once in ROOT by the untrusted user (strace).
execmaps() {
	local root=$1
	shift
	strace -f -qq -e trace=mmap,mprotect -o "$WORK/strace" \
		"$TB" count -n 1 -u "$UNTRUSTED_UID" -r "$root" -- "$@" \
		>"$WORK/strace.count" 2>"$WORK/err" || return 1
	grep PROT_EXEC "$WORK/strace" | grep -vc MAP_ANONYMOUS
}

# count_checks: for each program, checks per exec with MMAP on and off.
# Leaves a permissive policy of 1 uid live.
count_checks() {
	local name m line checks want kern wkern
	local -A user real
	if ! chroot_setup 2>"$WORK/err"; then
		not_ok "checks per exec: chroot" "$(tail -n1 "$WORK/err")"
		return 1
	fi
	"$TB" policy -N 1 -f mmap -t "$TRUSTED_UID" >/dev/null || return 1
	for name in $PROGS; do
		prog_argv "$name"
		user[$name]=$(execmaps "$CHROOT" "${PROG_ARGV[@]}")
		real[$name]=$(execmaps / "${PROG_ARGV[@]/#\/static-true/$BENCH/true}")
		if [ -n "${user[$name]}" ] && [ "${user[$name]}" = "${real[$name]}" ] &&
		   grep -q 'would_deny=0 ' "$WORK/strace.count"; then
			ok "checks per exec: $name in the chroot maps what it maps outside (${user[$name]} PROT_EXEC), and outside nothing would be denied"
		else
			not_ok "checks per exec: $name: chroot faithful" \
				"PROT_EXEC maps ${user[$name]:-failed} in the chroot, ${real[$name]:-failed} outside; outside: $(cat "$WORK/strace.count")"
		fi
	done
	for m in on off; do
		"$TB" policy -N 1 -f "$([ $m = on ] && echo mmap || echo 0)" \
			-t "$TRUSTED_UID" >/dev/null || return 1
		for name in $PROGS; do
			prog_argv "$name"
			if ! line=$("$TB" count -n "$COUNT_RUNS" -u "$UNTRUSTED_UID" -r "$CHROOT" \
				-- "${PROG_ARGV[@]}" 2>"$WORK/err"); then
				not_ok "checks per exec: $name, mmap $m" "$(tail -n1 "$WORK/err")"
				continue
			fi
			checks=${line##*checks_per_exec=}
			# What the kernel mapped itself: judged with MMAP on only.
			case $checks:${user[$name]} in
			*[!0-9:]*|:*|*:) kern=unknown ;;
			*) kern=$((checks - 1 - user[$name])) ;;
			esac
			[ $m = off ] && kern=-
			bench "boot=tpe prog=$name mmap=$m $line" \
				"user_exec_maps=${user[$name]} kernel_maps=$kern"
			# The kernel maps the program, and ld.so if it has one.
			want=1 wkern=-
			if [ $m = on ]; then
				wkern=2
				[ $name = static ] && wkern=1
				want="1 + ${user[$name]} + $wkern"
			fi
			if [ -n "${user[$name]}" ] && [ "$checks" = $((want)) ] &&
			   [ "$kern" = "$wkern" ]; then
				ok "checks per exec: $name, mmap $m: $checks ($want)"
			else
				not_ok "checks per exec: $name, mmap $m" \
					"$checks, want $want (strace: ${user[$name]:-failed} PROT_EXEC maps)"
			fi
		done
	done
	flush
}
