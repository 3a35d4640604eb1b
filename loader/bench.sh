#!/bin/sh
# make bench: time `tpe-load --output` on a config of 100,000 numeric users
# in shuffled order (so the sort has work to do), and `--dump` of the
# result. Prints the figures.
set -eu
O=${O:-../build/loader}
N=100000
awk -v n=$N 'BEGIN {
	printf "trusted_users = [\n"
	for (i = 0; i < n; i++)	# 7919 is prime to n: a permutation
		printf "  %d%s\n", 1000 + (i * 7919) % n, i < n - 1 ? "," : ""
	printf "];\n"
}' >"$O/bench.conf"
start=$(date +%s%N)
"$O/tpe-load" -q -c "$O/bench.conf" --output "$O/bench.bin"
end=$(date +%s%N)
bytes=$(wc -c <"$O/bench.bin")
[ "$bytes" -eq $((24 + 4 * N)) ] || { echo "bench: wrong size $bytes" >&2; exit 1; }
echo "bench: tpe-load --output, $N numeric users: $(( (end - start) / 1000000 )) ms ($bytes bytes)"
# --dump of the same policy: one read of the user database, not one per ID.
mkdir -p "$O/benchfs"
cp "$O/bench.bin" "$O/benchfs/policy"
start=$(date +%s%N)
TPE_SECURITYFS="$O/benchfs" "$O/tpe-load" --dump >"$O/bench.dump"
end=$(date +%s%N)
echo "bench: tpe-load --dump, $N users: $(( (end - start) / 1000000 )) ms"
