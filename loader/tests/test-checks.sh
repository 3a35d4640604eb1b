#!/bin/sh
# --explain names the kernel's checks as the module logs them (check=NAME).
# The kernel's names are the strings of tpe_check_names[] in module/fs.c
# ("none" means allowed, never logged). Asserts:
#  1. judge.c's explain_checks[] is that table, same names, same order;
#  2. the names explain can return (judge_path()'s `return "NAME"`) are
#     all of them except file-open-write, which user space cannot see (who
#     has a file open for writing): it is in the list, never a verdict.
set -u
cd "$(dirname "$0")" || exit 1
list() { grep -o '"[a-z-]*"' | tr -d '"'; }
kernels=$(sed -n '/tpe_check_names\[[^]]*\] = {/,/^};/p' ../../module/fs.c |
	list | grep -vx none)
ours=$(sed -n '/explain_checks\[\] = {/,/NULL/p' ../lib/judge.c | list)
returns=$(sed -n '/^const char \*judge_path(/,/^}/p' ../lib/judge.c |
	grep -Eo 'return "[a-z-]+"' | list)
failed=0
if [ -n "$kernels" ] && [ "$(echo $ours)" = "$(echo $kernels)" ]; then
	echo "ok - judge.c's check names are module/fs.c's tpe_check_names[]: $(echo $ours)"
else
	echo "not ok - check names differ: judge.c: $(echo $ours); module/fs.c tpe_check_names[]: $(echo $kernels)"
	failed=1
fi
want=$(echo "$kernels" | grep -vx file-open-write)
if [ -n "$returns" ] && [ "$(echo $returns)" = "$(echo $want)" ]; then
	echo "ok - explain returns every kernel check but file-open-write (not visible from user space): $(echo $returns)"
else
	echo "not ok - explain's verdicts: $(echo $returns); want the kernel's but file-open-write: $(echo $want)"
	failed=1
fi
exit $failed
