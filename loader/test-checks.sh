#!/bin/sh
# --explain names the kernel's checks as the module logs them (check=NAME):
# every name in explain.c's explain_checks[] must be a name module/fs.c
# returns, and every name fs.c returns must be in explain_checks[].
set -u
ours=$(sed -n '/explain_checks\[\] = {/,/NULL/p' explain.c |
	grep -o '"[a-z-]*"' | tr -d '"' | sort)
kernels=$(grep -Eo '(return|check =) "[a-z-]+"' ../module/fs.c |
	grep -o '"[a-z-]*"' | tr -d '"' | sort -u)
if [ -n "$ours" ] && [ "$ours" = "$kernels" ]; then
	echo "ok - explain.c's check names are module/fs.c's: $(echo $ours)"
else
	echo "not ok - check names differ: explain.c: $(echo $ours); module/fs.c: $(echo $kernels)"
	exit 1
fi
