#!/bin/sh
# End-to-end tests of the tpe-load command line against a fake securityfs:
# TPE_SECURITYFS names a plain directory whose regular file "policy" stands
# in for the kernel's. Prints "ok - NAME" or "not ok - NAME: REASON" per
# check and exits 1 if any failed. TPE_LOAD and TPE_EXPLAIN name the
# binaries to test; TPE_LOAD_FAST, if set, an unsanitized build for the one
# test of a
# million-entry config (libconfig grows lists 16 at a time, which ASan's
# copying realloc makes take minutes).
set -u
cd "$(dirname "$0")/.." || exit 1	# paths below are loader/'s
umask 022	# tpe-load refuses a group- or other-writable config
TPE_LOAD=${TPE_LOAD:-../build/loader/tpe-load}
TPE_EXPLAIN=${TPE_EXPLAIN:-../build/loader/tpe-explain}
T=$(mktemp -d "${TMPDIR:-/tmp}/tpe-cli-XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
mkdir "$T/fs" "$T/nofs"
export TPE_SECURITYFS="$T/fs"
failed=0

# t NAME WANT_EXIT [TEST...] -- COMMAND...: run COMMAND (stdout in $T/out,
# stderr in $T/err), then pass if it exits WANT_EXIT and each TEST holds.
t() {
	name=$1 want=$2 tests=
	shift 2
	while [ "$1" != -- ]; do
		tests="$tests$1
"
		shift
	done
	shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$name" "exit $rc, want $want: $(head -c 300 "$T/err" | tr '\n' ' ')"
		return
	fi
	echo "$tests" | while IFS= read -r test; do
		[ -z "$test" ] || eval "$test" || { echo "$test"; break; }
	done >"$T/why"
	if [ -s "$T/why" ]; then
		fail "$name" "failed: $(cat "$T/why")"
	else
		echo "ok - $name"
	fi
}
fail() { echo "not ok - $1: $2"; failed=1; }
conf() { printf '%b' "$2" >"$T/$1"; }
sentinel() { printf 'previous policy' >"$T/fs/policy"; }
unchanged='[ "$(cat "$T/fs/policy")" = "previous policy" ]'

conf good.conf 'enforce = true;\nmmap = false;\n# root resolves on any machine\ntrusted_users = ( "root", 1002 );\ntrusted_groups = [ 0 ];\n'
# Hand-computed: magic "TPE1", version 1, hdr_len 24, flags ENFORCE,
# 2 uids, 1 gid, reserved 0; uids 0, 1002 (0x3ea); gid 0.
# flags 3: enforce, and check_file by default
printf 'TPE1\001\000\030\000\003\000\000\000\002\000\000\000\001\000\000\000\000\000\000\000\000\000\000\000\352\003\000\000\000\000\000\000' >"$T/want.bin"
conf bad.conf 'enforce = true;\n\ntrusted_users = [ "no-such-user-tpe" ];\n'

t "--help exits 0" 0 'grep -q "usage: tpe-load" "$T/out"' -- "$TPE_LOAD" --help
t "--version exits 0" 0 'grep -q "^tpe-load " "$T/out"' -- "$TPE_LOAD" --version
# usage_error NAME REASON ARGS...: exit 2, REASON then the synopsis.
usage_error() {
	name=$1 reason=$2
	shift 2
	t "$name" 2 \
		'[ "$(head -n1 "$T/err")" = "tpe-load: $reason" ]' \
		'sed -n 2p "$T/err" | grep -q "^usage: tpe-load"' \
		'[ ! -s "$T/out" ]' -- "$TPE_LOAD" "$@"
}
usage_error "unknown option says which" "unknown option --bogus" --bogus
usage_error "unknown short option says which" "unknown option -x" -x
usage_error "an operand says it is unexpected" \
	"unexpected argument \"extra\": the config is given with -c" extra
usage_error "-n -n says it is twice" "--check given twice" -n -n
usage_error "two actions say which" "--check and --dump are two actions: give one (numbers only in a dump: -N)" --check --dump
usage_error "-o and -n say which" "--output and --check are two actions: give one" -o x -n
usage_error "--dump with -c says why" \
	"--dump reads the kernel's live policy: --config does not go with it" --dump -c "$T/good.conf"
usage_error "-c without its file says so" "-c needs an argument" -c
usage_error "-c twice says so" "--config given twice" -c a -c b
usage_error "-q with -v says so" "--quiet and --verbose contradict each other" -q -v
usage_error "-N without -d says so" "--numeric goes only with --dump" -N -n

sentinel
t "--check prints a summary" 0 \
	'[ "$(cat "$T/out")" = "$T/good.conf: ok: enforce check_file, 2 users, 1 group" ]' \
	"$unchanged" -- "$TPE_LOAD" -c "$T/good.conf" --check
t "--check -q is silent" 0 '[ ! -s "$T/out" ] && [ ! -s "$T/err" ]' \
	"$unchanged" -- "$TPE_LOAD" -q -n -c "$T/good.conf"
t "--check of a bad config exits 1 naming file and line" 1 \
	'[ "$(cat "$T/err")" = "$T/bad.conf:3: unknown user \"no-such-user-tpe\"" ]' \
	"$unchanged" -- "$TPE_LOAD" -c "$T/bad.conf" --check
t "shipped etc/tpe.conf is valid" 0 \
	'grep -q ": ok: enforce check_file mmap, 0 users, 0 groups$" "$T/out"' \
	-- "$TPE_LOAD" -n -c ../etc/tpe.conf

t "load writes exactly the blob and says what it loaded" 0 \
	'cmp -s "$T/fs/policy" "$T/want.bin"' \
	'[ "$(cat "$T/out")" = "$T/good.conf: loaded: enforce check_file, 2 users, 1 group" ]' \
	-- "$TPE_LOAD" -c "$T/good.conf"
t "--quiet load says nothing" 0 'cmp -s "$T/fs/policy" "$T/want.bin"' \
	'[ ! -s "$T/out" ] && [ ! -s "$T/err" ]' -- "$TPE_LOAD" -q -c "$T/good.conf"
t "--output writes the same blob" 0 'cmp -s "$T/out.bin" "$T/want.bin"' \
	'[ "$(cat "$T/out")" = "$T/good.conf: written to $T/out.bin: enforce check_file, 2 users, 1 group" ]' \
	-- "$TPE_LOAD" -c "$T/good.conf" --output "$T/out.bin"
t "--verbose also names the file it read" 0 \
	'[ "$(sed -n 1p "$T/out")" = "$T/good.conf: read" ]' \
	'[ "$(sed -n 2p "$T/out")" = "$T/good.conf: loaded: enforce check_file, 2 users, 1 group" ]' \
	'[ "$(wc -l <"$T/out")" = 2 ]' \
	-- "$TPE_LOAD" -v -c "$T/good.conf"
: >"$T/fs/policy"
t "-c - reads standard input" 0 'cmp -s "$T/fs/policy" "$T/want.bin"' \
	'[ "$(cat "$T/out")" = "<stdin>: loaded: enforce check_file, 2 users, 1 group" ]' \
	-- sh -c '"$1" -c - <"$2"' sh "$TPE_LOAD" "$T/good.conf"
t "-c - names <stdin> in errors" 1 \
	'[ "$(cat "$T/err")" = "<stdin>:3: unknown user \"no-such-user-tpe\"" ]' \
	-- sh -c '"$1" -n -c - <"$2"' sh "$TPE_LOAD" "$T/bad.conf"
t "a directory as config keeps its reason" 1 \
	'[ "$(cat "$T/err")" = "$T/fs: Is a directory" ]' -- "$TPE_LOAD" -n -c "$T/fs"

sentinel
t "a bad config leaves the policy byte-identical" 1 "$unchanged" \
	-- "$TPE_LOAD" -c "$T/bad.conf"
conf syntax.conf 'enforce = true;\nmmap = ;\n'
t "a syntax error names its line" 1 \
	'[ "$(cat "$T/err")" = "$T/syntax.conf:2: syntax error (names are quoted, \"alice\"; each setting ends in \";\"; no \",\" after a list'"'"'s last element)" ]' \
	"$unchanged" -- "$TPE_LOAD" -c "$T/syntax.conf"
t "a missing config exits 1" 1 'grep -q "No such file" "$T/err"' \
	"$unchanged" -- "$TPE_LOAD" -c "$T/absent.conf"
conf dup.conf 'trusted_users = [ 7,\n 7 ];\n'
t "a duplicate gets a note on its own line, and loads" 0 \
	'[ "$(cat "$T/err")" = "$T/dup.conf:2: note: user 7 listed again (first on line 1)" ]' \
	-- "$TPE_LOAD" -c "$T/dup.conf"
t "--quiet drops the warning" 0 '[ ! -s "$T/err" ]' \
	-- "$TPE_LOAD" -q -c "$T/dup.conf"

conf wrap.conf 'enforce = true;\ntrusted_users = [ 4294968296 ];\n'
sentinel
t "a literal libconfig would wrap is refused as written" 1 \
	'[ "$(cat "$T/err")" = "$T/wrap.conf:2: 4294968296 does not fit in 32 bits and libconfig would read it as 1000: write a 64-bit integer with an L suffix" ]' \
	"$unchanged" -- "$TPE_LOAD" -c "$T/wrap.conf"
t "--check refuses it too" 1 'grep -q "wrap.conf:2: 4294968296 does not fit" "$T/err"' \
	-- "$TPE_LOAD" -n -c "$T/wrap.conf"

# Only a file root alone can change may decide who is trusted.
cp "$T/good.conf" "$T/open.conf"
chmod 0666 "$T/open.conf"
t "a world-writable config is refused" 1 \
	'[ "$(cat "$T/err")" = "$T/open.conf: writable by group or others (mode 0666): refusing it (chmod go-w $T/open.conf)" ]' \
	"$unchanged" -- "$TPE_LOAD" -c "$T/open.conf"
chmod 0620 "$T/open.conf"
t "--check refuses a group-writable config" 1 \
	'grep -q "writable by group or others (mode 0620)" "$T/err"' \
	-- "$TPE_LOAD" -n -c "$T/open.conf"
if [ "$(id -u)" = 0 ]; then
	cp "$T/good.conf" "$T/nobody.conf"
	chown 65534 "$T/nobody.conf"
	t "a config not owned by root is refused" 1 \
		'[ "$(cat "$T/err")" = "$T/nobody.conf: owned by uid 65534, not root: refusing it (chown root $T/nobody.conf)" ]' \
		"$unchanged" -- "$TPE_LOAD" -c "$T/nobody.conf"
	t "--check refuses it too" 1 'grep -q "owned by uid 65534, not root" "$T/err"' \
		-- "$TPE_LOAD" -n -c "$T/nobody.conf"
	if command -v setpriv >/dev/null; then
		chmod 0755 "$T"
		t "--check by its non-root owner: ok, with a note" 0 \
			'grep -q ": ok: enforce check_file, 2 users, 1 group$" "$T/out"' \
			'grep -qxF "$T/nobody.conf: note: owned by uid 65534, not root: loaded by root, tpe-load would refuse it" "$T/err"' \
			-- setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$TPE_LOAD" -n -c "$T/nobody.conf"
	fi
else
	echo "ok - a config not owned by root is refused # SKIP not root"
fi

# Drop-ins: m.conf.d/*.conf after m.conf, lexical order; lists add up,
# the last flag wins. The blob is the one good.conf makes.
conf m.conf 'enforce = false;\nmmap = false;\ntrusted_users = [ 1002 ];\n'
mkdir "$T/m.conf.d"
conf m.conf.d/20-z.conf 'enforce = true;\ntrusted_groups = [ 0 ];\n'
conf m.conf.d/10-a.conf 'enforce = false;\ntrusted_users = [ "root" ];\n'
conf m.conf.d/30-off.conf.disabled 'bogus = 1;\n'
t "drop-ins: --check sees the merged policy" 0 \
	'[ "$(cat "$T/out")" = "$T/m.conf: ok: enforce check_file, 2 users, 1 group (3 files)" ]' \
	-- "$TPE_LOAD" -n -c "$T/m.conf"
t "drop-ins: -v names them in the order read" 0 \
	'[ "$(sed -n 1p "$T/out")" = "$T/m.conf: read" ]' \
	'[ "$(sed -n 2p "$T/out")" = "$T/m.conf.d/10-a.conf: read" ]' \
	'[ "$(sed -n 3p "$T/out")" = "$T/m.conf.d/20-z.conf: read" ]' \
	-- "$TPE_LOAD" -v -n -c "$T/m.conf"
t "drop-ins: the merged blob is loaded" 0 'cmp -s "$T/fs/policy" "$T/want.bin"' \
	-- "$TPE_LOAD" -q -c "$T/m.conf"
conf m.conf.d/15-bad.conf '\n\ntrusted_groups = [ "no-such-group-tpe" ];\n'
sentinel
t "drop-ins: an error names the drop-in and line, nothing loads" 1 \
	'[ "$(cat "$T/err")" = "$T/m.conf.d/15-bad.conf:3: unknown group \"no-such-group-tpe\"" ]' \
	"$unchanged" -- "$TPE_LOAD" -c "$T/m.conf"

# Exit codes as systemd names them: 5 NOTINSTALLED, 4 NOPERMISSION.
t "no securityfs: exit 5, says securityfs is not mounted" 5 \
	'[ "$(tail -n1 "$T/err")" = "tpe-load: securityfs is not mounted at $T: cannot tell whether tpe is active" ]' \
	'[ ! -e "$T/nofs/policy" ]' \
	-- env TPE_SECURITYFS="$T/nofs" "$TPE_LOAD" -c "$T/good.conf"
mkdir "$T/dirfs" "$T/dirfs/policy"
t "an unwritable policy exits 1" 1 'grep -q "Is a directory" "$T/err"' \
	-- env TPE_SECURITYFS="$T/dirfs" "$TPE_LOAD" -c "$T/good.conf"
t "an unwritable --output exits 1" 1 \
	-- "$TPE_LOAD" -c "$T/good.conf" -o "$T/nofs/sub/x"

cp "$T/want.bin" "$T/fs/policy"
t "--dump prints the live policy" 0 'grep -q "\"root\"" "$T/out"' \
	'grep -q "^enforce *= true;" "$T/out"' -- "$TPE_LOAD" --dump
cp "$T/out" "$T/dumped.conf"
t "--dump -N prints numbers only" 0 'grep -qx "	0," "$T/out"' \
	'! grep -q "\"" "$T/out"' -- "$TPE_LOAD" --dump -N
t "--dump round trip gives the identical blob" 0 \
	'cmp -s "$T/again.bin" "$T/want.bin"' \
	-- "$TPE_LOAD" -q -c "$T/dumped.conf" -o "$T/again.bin"
printf 'TPE2' >"$T/fs/policy"
t "--dump of a malformed policy exits 1" 1 'grep -q "shorter than" "$T/err"' \
	-- "$TPE_LOAD" --dump
t "--dump without securityfs exits 5" 5 'grep -q "securityfs is not mounted at $T:" "$T/err"' \
	-- env TPE_SECURITYFS="$T/nofs" "$TPE_LOAD" --dump

# numeric_users N: a config trusting users 1..N
numeric_users() {
	awk -v n="$1" 'BEGIN { printf "trusted_users = [\n"
		for (i = 1; i <= n; i++) printf "%d%s\n", i, i < n ? "," : ""
		printf "];\n" }'
}
if [ -n "${TPE_LOAD_FAST:-}" ]; then
	# One NSS lookup per ID took 18 s here for 100,000 unnamed IDs
	# (3.1 million openat() calls); the databases are read once now.
	# Counted, not timed: /etc/passwd and /etc/group opened at most twice.
	numeric_users 100000 >"$T/100k.conf"
	"$TPE_LOAD_FAST" -q -c "$T/100k.conf" -o "$T/fs/policy"
	t "--dump of 100,000 users is one read of the user database" 0 \
		'[ "$(grep -c "^	" "$T/out")" = 100000 ]' \
		'[ "$(grep -c "/etc/passwd" "$T/trace")" -le 2 ]' \
		'[ "$(grep -c "/etc/group" "$T/trace")" -le 2 ]' \
		-- strace -f -qq -e trace=openat -o "$T/trace" "$TPE_LOAD_FAST" --dump
	numeric_users 1048577 >"$T/big.conf"
	sentinel
	t "1048577 entries are refused before the kernel sees them" 1 \
		'grep -q "too many entries: 1048577 users and groups, the kernel takes at most 1048576" "$T/err"' \
		"$unchanged" -- "$TPE_LOAD_FAST" -c "$T/big.conf"
	numeric_users 1048576 >"$T/big.conf"
	t "1048576 entries load" 0 \
		'[ "$(wc -c <"$T/fs/policy")" -eq $((24 + 4 * 1048576)) ]' \
		-- "$TPE_LOAD_FAST" -c "$T/big.conf"
fi

# --explain against the fake live policy: good.conf trusts root and 1002.
"$TPE_LOAD" -q -c "$T/good.conf"
mkdir -p "$T/ww" "$T/safe"
chmod 1777 "$T/ww"
cp /bin/true "$T/ww/true"
cp /bin/true "$T/safe/true"
printf '#!/bin/sh\ntrue\n' >"$T/safe/script"
chmod 0755 "$T/safe/script"
ln -sf "$T/ww/true" "$T/safe/link"
usage_error "--explain needs a path" "--explain needs a path" --explain
usage_error "--user only with --explain" \
	"--user and --group go only with --explain" --user root --dump
usage_error "--json only with --dump, --status or --explain" \
	"--json goes only with --dump, --status or --explain" --json --check
usage_error "--optional only with a load" \
	"--optional goes only with a load" --optional --status
t "--explain: an untrusted user in a world-writable dir is denied" 1 \
	'grep -q "^$T/ww/true: denied check=dir-writable$" "$T/out"' \
	'grep -q "^  check=dir-writable: $T/ww is writable by group and others (mode 1777)$" "$T/out"' \
	'grep -q "^  trust: untrusted: " "$T/out"' \
	-- "$TPE_LOAD" --explain --user nobody "$T/ww/true"
t "--explain: the same file in a root 0755 dir is allowed" 0 \
	'grep -q "^$T/safe/true: allowed$" "$T/out"' \
	-- "$TPE_LOAD" --explain --user nobody "$T/safe/true"
t "--explain: a symlink is judged by the resolved file's directory" 1 \
	'grep -q "^  resolved: $T/ww/true$" "$T/out"' \
	'grep -q "^  directory: $T/ww: owner uid 0, mode 1777$" "$T/out"' \
	-- "$TPE_LOAD" --explain --user nobody "$T/safe/link"
t "--explain: a script and its interpreter are both judged" 0 \
	'grep -q "^interpreter of the script above:$" "$T/out"' \
	'[ "$(grep -c "^[^ ].*: allowed$" "$T/out")" = 2 ]' \
	-- "$TPE_LOAD" --explain --user nobody "$T/safe/script"
conf listed.conf 'trusted_users = [ "nobody" ];\n'
t "--explain -c: a listed uid is trusted and not checked" 0 \
	'grep -q "^  trust: trusted: euid [0-9]* (nobody) is in trusted_users; trusted users are not checked$" "$T/out"' \
	-- "$TPE_LOAD" --explain -c "$T/listed.conf" --user nobody "$T/ww/true"
t "--explain: --group names the supplementary groups" 0 \
	'grep -q "supplementary group 0 (root) is in trusted_groups" "$T/out"' \
	-- "$TPE_LOAD" --explain --user nobody --group root "$T/ww/true"
t "--explain: root is never checked" 0 \
	'grep -q "uid 0 is root, always trusted and never checked" "$T/out"' \
	-- "$TPE_LOAD" --explain --user root "$T/ww/true"
t "--explain: any denied path makes exit 1" 1 \
	'[ "$(grep -c "^$T" "$T/out")" = 2 ]' \
	-- "$TPE_LOAD" --explain --user nobody "$T/safe/true" "$T/ww/true"
conf perm.conf 'enforce = false;\n'
t "--explain -c: permissive says would deny and exits 1" 1 \
	'grep -q "^$T/ww/true: would deny (permissive: logged, allowed) check=dir-writable$" "$T/out"' \
	'grep -q "^policy: $T/perm.conf: permissive check_file mmap, 0 users, 0 groups$" "$T/out"' \
	-- "$TPE_LOAD" --explain -c "$T/perm.conf" --user nobody "$T/ww/true"
t "--explain: an unknown user is an error" 2 \
	'grep -q "unknown user \"no-such-user-tpe\"" "$T/err"' \
	-- "$TPE_LOAD" --explain --user no-such-user-tpe "$T/safe/true"
t "--explain: a missing file is an error" 2 \
	'grep -q "$T/nope: No such file or directory" "$T/err"' \
	-- "$TPE_LOAD" --explain --user nobody "$T/nope"

# --status: the fake kernel's LSM list and counters next to the policy.
printf 'capability,landlock,tpe' >"$T/lsm"
printf 'exec_denials 4\nmmap_denials 1\nwould_deny 0\npolicy_loads 2\npolicy_rejects 0\n' >"$T/fs/stats"
printf 'mode: enforcing\nflags: enforce check_file\ntrusted_users: 2\ntrusted_groups: 1\nexec_denials: 4\nmmap_denials: 1\nwould_deny: 0\npolicy_loads: 2\npolicy_rejects: 0\nconfig: in sync with %s\n' "$T/good.conf" >"$T/status.want"
t "--status: enforcing, sizes, counters, in sync" 0 \
	'cmp -s "$T/out" "$T/status.want"' \
	-- "$TPE_LOAD" --status -c "$T/good.conf"
t "--status: another config is stale" 1 \
	'grep -qxF "config: stale: the config and its drop-ins build another policy than the live one (read: $T/perm.conf)" "$T/out"' \
	-- "$TPE_LOAD" --status -c "$T/perm.conf"
t "--status: a broken config is invalid, with file:line" 1 \
	'grep -q "^config: invalid: $T/bad.conf:3: unknown user" "$T/out"' \
	-- "$TPE_LOAD" --status -c "$T/bad.conf"
t "--status --json parses and has the same numbers" 0 \
	'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"mode\"]==\"enforcing\" and d[\"trusted_users\"]==2 and d[\"trusted_groups\"]==1 and d[\"stats\"][\"exec_denials\"]==4 and d[\"config\"][\"state\"]==\"in sync\" and d[\"flags\"][\"enforce\"] and not d[\"flags\"][\"mmap\"]" "$T/out"' \
	-- "$TPE_LOAD" --status --json -c "$T/good.conf"
t "--dump --json parses: flags, IDs, names" 0 \
	'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [u[\"id\"] for u in d[\"trusted_users\"]]==[0,1002] and d[\"trusted_users\"][0][\"name\"]==\"root\" and d[\"trusted_groups\"]==[{\"id\":0,\"name\":\"root\"}] and d[\"flags\"][\"enforce\"]" "$T/out"' \
	-- "$TPE_LOAD" --dump --json
t "--dump --json -N has no names" 0 \
	'! grep -q name "$T/out"' -- "$TPE_LOAD" --dump --json -N
printf 'capability,landlock' >"$T/lsm"
t "--status: tpe not an active LSM is mode off, exit 5" 5 \
	'[ "$(cat "$T/out")" = "mode: off" ]' \
	'grep -q "^tpe-load: tpe is not active in this kernel (uname -r $(uname -r)): boot a kernel with CONFIG_SECURITY_TPE=y and tpe in lsm=, e.g. linux-image-\*-tpe$" "$T/err"' \
	-- "$TPE_LOAD" --status -c "$T/good.conf"

# A kernel without tpe: the unit fails (5, NOTINSTALLED) naming what to
# boot, unless --optional says that is expected.
sentinel
t "load on a kernel without tpe: exit 5 naming what to boot" 5 \
	'[ "$(tail -n1 "$T/err")" = "tpe-load: tpe is not active in this kernel (uname -r $(uname -r)): boot a kernel with CONFIG_SECURITY_TPE=y and tpe in lsm=, e.g. linux-image-*-tpe" ]' \
	-- env TPE_SECURITYFS="$T/nofs" "$TPE_LOAD" -q -c "$T/good.conf"
t "--optional: a kernel without tpe is a note, exit 0" 0 \
	'grep -q "^tpe-load: tpe is not active in this kernel .*; --optional: nothing loaded$" "$T/err"' \
	"$unchanged" -- env TPE_SECURITYFS="$T/nofs" "$TPE_LOAD" --optional -c "$T/good.conf"
t "--optional still refuses a bad config" 1 \
	-- env TPE_SECURITYFS="$T/nofs" "$TPE_LOAD" --optional -c "$T/bad.conf"
t "--optional on a kernel with tpe loads" 0 'cmp -s "$T/fs/policy" "$T/want.bin"' \
	-- "$TPE_LOAD" -q --optional -c "$T/good.conf"
t "--explain without a live policy hints -c" 2 \
	'grep -q "tpe is not active in this kernel.*; to judge by the config instead: tpe-explain -c /etc/tpe.conf PATH$" "$T/err"' \
	-- env TPE_SECURITYFS="$T/nofs" "$TPE_LOAD" --explain "$T/safe/true"

printf 'capability,landlock,tpe' >"$T/lsm"
# Keys: one style, the kernel's and --json's; standard input is <stdin>.
t "--status: one key style, trusted_users as the counters" 0 \
	'grep -qx "trusted_users: 2" "$T/out"' '! grep -q "^[a-z]* [a-z]*:" "$T/out"' \
	-- "$TPE_LOAD" --status -c "$T/good.conf"
t "--status -c -: in sync with <stdin>" 0 \
	'grep -qxF "config: in sync with <stdin>" "$T/out"' \
	-- sh -c '"$1" --status -c - <"$2"' sh "$TPE_LOAD" "$T/good.conf"
t "--status --json -c -: the path is <stdin> too" 0 \
	'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"config\"][\"path\"]==\"<stdin>\"" "$T/out"' \
	-- sh -c '"$1" --status --json -c - <"$2"' sh "$TPE_LOAD" "$T/good.conf"
rm "$T/m.conf.d/15-bad.conf"
conf m.conf.d/40-more.conf 'trusted_users = [ 4242 ];\n'
t "--status: stale names every file it read" 1 \
	'grep -qxF "config: stale: the config and its drop-ins build another policy than the live one (read: $T/m.conf, $T/m.conf.d/10-a.conf, $T/m.conf.d/20-z.conf, $T/m.conf.d/40-more.conf)" "$T/out"' \
	-- "$TPE_LOAD" --status -c "$T/m.conf"
t "--status --json: the files read" 1 \
	'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"config\"][\"state\"]==\"stale\" and len(d[\"config\"][\"files\"])==4" "$T/out"' \
	-- "$TPE_LOAD" --status --json -c "$T/m.conf"
mkdir "$T/unmounted"	# no lsm file: securityfs is not there
t "--status: securityfs not mounted says exactly that, exit 5" 5 \
	'[ ! -s "$T/out" ]' \
	'[ "$(cat "$T/err")" = "tpe-load: securityfs is not mounted at $T/unmounted: cannot tell whether tpe is active" ]' \
	-- env TPE_SECURITYFS="$T/unmounted/tpe" "$TPE_LOAD" --status

# --explain: what exec does with a script whose interpreter is refused.
printf '#!%s\n' "$T/ww/true" >"$T/safe/ww-script"
chmod 0755 "$T/safe/ww-script"
t "--explain: a script whose interpreter is refused is denied" 1 \
	'[ "$(sed -n 2p "$T/out")" = "$T/safe/ww-script: denied (its interpreter $T/ww/true) check=dir-writable" ]' \
	'grep -qxF "  exec: denied: the interpreter $T/ww/true is refused (below)" "$T/out"' \
	'grep -qx "$T/ww/true: denied check=dir-writable" "$T/out"' \
	-- "$TPE_LOAD" --explain --user nobody "$T/safe/ww-script"
t "--explain -c: permissive says would deny for the script too" 1 \
	'grep -qxF "$T/safe/ww-script: would deny (permissive: logged, allowed) (its interpreter $T/ww/true) check=dir-writable" "$T/out"' \
	-- "$TPE_LOAD" --explain -c "$T/perm.conf" --user nobody "$T/safe/ww-script"
# A UID from an audit line whose user is gone: judged as the number.
if ! getent passwd 4242 >/dev/null; then
	t "--explain --user UID without a passwd entry: no primary group" 1 \
		'grep -qx "  user: uid 4242, gid none (no passwd entry: no primary group), groups none" "$T/out"' \
		'grep -q "^  trust: untrusted: " "$T/out"' \
		-- "$TPE_LOAD" --explain --user 4242 "$T/ww/true"
	t "--explain -c: a UID without a passwd entry can be listed" 0 \
		'grep -qxF "  listed: $T/m.conf.d/40-more.conf:1 in trusted_users" "$T/out"' \
		-- "$TPE_LOAD" --explain -c "$T/m.conf" --user 4242 "$T/ww/true"
fi
t "--explain -c: names the file and line that listed the user" 0 \
	'grep -qxF "  listed: $T/listed.conf:1 in trusted_users" "$T/out"' \
	-- "$TPE_LOAD" --explain -c "$T/listed.conf" --user nobody "$T/ww/true"
t "--explain -c: ... or the drop-in that listed the group" 0 \
	'grep -qxF "  listed: $T/m.conf.d/20-z.conf:2 in trusted_groups" "$T/out"' \
	-- "$TPE_LOAD" --explain -c "$T/m.conf" --user nobody --group root "$T/ww/true"
t "--explain --json parses: verdicts, check, interpreter" 1 \
	'python3 -c "import json, sys; d = json.load(open(sys.argv[1])); a, b = d[\"paths\"]; assert a[\"path\"].endswith(\"/safe/true\") and a[\"verdict\"] == \"allowed\" and a[\"check\"] is None, a; assert b[\"verdict\"] == \"denied\" and b[\"check\"] == \"dir-writable\" and b[\"refused_interpreter\"].endswith(\"/ww/true\"), b; i = b[\"interpreters\"][0]; assert i[\"check\"] == \"dir-writable\" and i[\"directory\"][\"mode\"] == \"1777\" and not i[\"trusted\"], i; assert d[\"policy\"].endswith(\"/fs/policy\")" "$T/out"' \
	-- "$TPE_LOAD" --explain --json --user nobody "$T/safe/true" "$T/safe/ww-script"
t "--explain --json: a path that cannot be read is left out, the JSON whole" 2 \
	'python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert [p[\"path\"] for p in d[\"paths\"]] == [sys.argv[2]], d" "$T/out" "$T/safe/true"' \
	'grep -q "$T/nope: No such file or directory" "$T/err"' \
	-- "$TPE_LOAD" --explain --json --user nobody "$T/nope" "$T/safe/true"

# tpe-explain: --explain for users, whose PATH has no /usr/sbin; the
# same action, so the same output.
t "tpe-explain --help exits 0" 0 'grep -q "^usage: tpe-explain" "$T/out"' \
	-- "$TPE_EXPLAIN" --help
t "tpe-explain --version exits 0" 0 'grep -q "^tpe-explain " "$T/out"' \
	-- "$TPE_EXPLAIN" -V
# explain_usage NAME REASON ARGS...: exit 2, REASON then the synopsis.
explain_usage() {
	name=$1 reason=$2
	shift 2
	t "$name" 2 \
		'[ "$(head -n1 "$T/err")" = "tpe-explain: $reason" ]' \
		'sed -n 2p "$T/err" | grep -q "^usage: tpe-explain"' \
		'[ ! -s "$T/out" ]' -- "$TPE_EXPLAIN" "$@"
}
explain_usage "tpe-explain without a path asks for one" \
	"which program? give a path"
explain_usage "tpe-explain: an unknown option says which" \
	"unknown option --dump" --dump "$T/ww/true"
explain_usage "tpe-explain: --user twice says so" "--user given twice" \
	--user nobody --user root "$T/ww/true"
explain_usage "tpe-explain: --user without its user says so" \
	"--user needs an argument" --user
"$TPE_LOAD" --explain --user nobody "$T/safe/true" "$T/ww/true" \
	"$T/safe/ww-script" >"$T/load-explain.out" 2>&1
t "tpe-explain says what tpe-load --explain says, and exits 1 alike" 1 \
	'cmp -s "$T/out" "$T/load-explain.out"' \
	-- "$TPE_EXPLAIN" --user nobody "$T/safe/true" "$T/ww/true" \
	"$T/safe/ww-script"
t "tpe-explain -c --group: judged by the config, the group listed" 0 \
	'grep -qxF "  listed: $T/m.conf.d/20-z.conf:2 in trusted_groups" "$T/out"' \
	-- "$TPE_EXPLAIN" -c "$T/m.conf" --user nobody --group root "$T/ww/true"
t "tpe-explain --json parses" 1 \
	'python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert d[\"paths\"][0][\"check\"] == \"dir-writable\", d" "$T/out"' \
	-- "$TPE_EXPLAIN" --json --user nobody "$T/ww/true"
t "tpe-explain without a live policy hints -c, in its own name" 2 \
	'grep -q "^tpe-explain: .*; to judge by the config instead: tpe-explain -c /etc/tpe.conf PATH$" "$T/err"' \
	-- env TPE_SECURITYFS="$T/nofs" "$TPE_EXPLAIN" "$T/safe/true"

# A user other than root reads the live policy (0644 since tpe made it so).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 0755 "$T"
	chmod 0644 "$T/fs/policy" "$T/fs/stats" "$T/lsm"
	"$TPE_LOAD" -q -c "$T/good.conf"
	chmod 0644 "$T/good.conf"
	t "--status as a user: the real mode, in sync" 0 \
		'grep -qx "mode: enforcing" "$T/out"' \
		'grep -qxF "config: in sync with $T/good.conf" "$T/out"' \
		-- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TPE_LOAD" --status -c "$T/good.conf"
	t "--explain as a user: the live policy, the caller judged" 1 \
		'grep -q "^  user: uid 65534" "$T/out"' \
		'grep -q "^$T/ww/true: denied check=dir-writable$" "$T/out"' \
		-- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TPE_LOAD" --explain "$T/ww/true"
	# A kernel before 0644: the policy is root's alone.
	chmod 0600 "$T/fs/policy"
	t "--status as a user, policy 0600: exit 4, says so, no mode off" 4 \
		'[ ! -s "$T/out" ]' \
		'grep -q "EACCES: only root may read the live policy on this kernel (mode 0600); judge by the config instead: tpe-explain -c /etc/tpe.conf PATH$" "$T/err"' \
		-- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TPE_LOAD" --status -c "$T/good.conf"
	t "--explain as a user, policy 0600: the hint to use -c" 2 \
		'grep -q "EACCES: only root may read the live policy.*tpe-explain -c /etc/tpe.conf PATH$" "$T/err"' \
		-- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TPE_LOAD" --explain "$T/ww/true"
	t "load as a user: EACCES is exit 4 (NOPERMISSION)" 4 \
		'grep -q "EACCES: only root may write the policy" "$T/err"' \
		-- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TPE_LOAD" -q -c "$T/good.conf"
	chmod 0644 "$T/fs/policy"
else
	echo "ok - --status and --explain as a user # SKIP not root or no setpriv"
fi
rm -f "$T/lsm" "$T/fs/stats"

# bash completion (completion/, installed by the package), through
# bash-completion's own helpers as an interactive shell loads them.
BC=/usr/share/bash-completion/bash_completion
if [ -r "$BC" ] && command -v bash >/dev/null; then
	cat >"$T/comp.sh" <<'EOF'
. /usr/share/bash-completion/bash_completion
. ./completion/tpe-load
. ./completion/tpe-explain
. ./completion/tpe-suggest
# comp LINE: what bash offers at the end of LINE, one per line
comp() {
	COMP_LINE=$1 COMP_POINT=${#1}
	read -ra COMP_WORDS <<<"$1"
	[[ $1 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	local f=_${COMP_WORDS[0]//-/_}
	$f "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD-1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}
comp "$1"
EOF
	comp() { bash "$T/comp.sh" "$1"; }
	t "completion: tpe-load --ex gives --explain" 0 \
		'[ "$(cat "$T/out")" = "--explain" ]' -- comp "tpe-load --ex"
	t "completion: every option of --help is offered" 0 \
		'! for o in $("$TPE_LOAD" --help | grep -o -- "--[a-z-]*" | sort -u); do grep -qx -- "$o" "$T/out" || echo "$o"; done | grep -q .' \
		-- comp "tpe-load --"
	t "completion: --user gives users, --group groups" 0 \
		'grep -qx root "$T/out"' -- comp "tpe-load --explain --user roo"
	t "completion: --explain completes paths" 0 \
		'grep -qx "$T/safe/true" "$T/out"' -- comp "tpe-load --explain $T/safe/tr"
	t "completion: no operand but --explain's" 0 '! grep -q . "$T/out"' \
		-- comp "tpe-load --status $T/safe/tr"
	t "completion: every option of tpe-explain --help is offered" 0 \
		'! for o in $("$TPE_EXPLAIN" --help | grep -o -- "--[a-z-]*" | sort -u); do grep -qx -- "$o" "$T/out" || echo "$o"; done | grep -q .' \
		-- comp "tpe-explain --"
	t "completion: tpe-explain completes paths and --user users" 0 \
		'grep -qx "$T/safe/true" "$T/out"' \
		-- comp "tpe-explain --user root $T/safe/tr"
	t "completion: tpe-suggest's options" 0 \
		'grep -qx -- --drop-in "$T/out"' 'grep -qx -- --config "$T/out"' \
		-- comp "tpe-suggest --"
else
	echo "ok - completion # SKIP no bash-completion"
fi

exit $failed
