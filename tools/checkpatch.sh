#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict over the tree's C sources (or the FILEs given),
# less the findings tools/checkpatch.allow names.  Used by `make
# checkpatch` and by the static stage of `make test` (tools/run-tests.sh).
# Not the shims (compiler-level definitions) nor the TRACE_EVENT header
# (its macro layout draws the same CHECKs as in-tree ones).
#
# Usage: tools/checkpatch.sh [FILE]...
# Prints the findings left; exit 0: none, 1: some, 2: bad usage, 4: no
# checkpatch.pl (from linux-source-6.1: /usr/src, or unpacked into build/).
# RXB_JOBS: checkpatch processes at a time (default nproc).

set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
# The FILEs, as paths from the top of the tree where they are in it (the
# allow list names them so).
files=()
for f in "$@"; do
	case $f in
	-h|--help) sed -n '4,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) echo "checkpatch.sh: unknown option '$f' (--help)" >&2; exit 2 ;;
	esac
	[ -f "$f" ] && [ -r "$f" ] ||
		{ echo "checkpatch.sh: no such file: $f" >&2; exit 2; }
	f=$(realpath "$f")
	files+=("${f#"$top"/}")
done
cd "$top" || exit 1
jobs=${RXB_JOBS:-$(nproc 2>/dev/null || echo 1)}

find_checkpatch() {
	local cp

	cp=$(ls /usr/src/linux-source-6.1/scripts/checkpatch.pl \
		build/linux-source-6.1/scripts/checkpatch.pl 2>/dev/null | head -n1)
	if [ -z "$cp" ] && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
		mkdir -p build
		tar -C build -xf /usr/src/linux-source-6.1.tar.xz \
			linux-source-6.1/scripts 2>/dev/null
		cp=build/linux-source-6.1/scripts/checkpatch.pl
	fi
	[ -x "$cp" ] && echo "$cp"
}

# Drop the findings tools/checkpatch.allow names (FILE TYPE MACRO: a
# finding of TYPE in FILE on the line "#define MACRO"); print the rest.
allowed() {
	local line f n type src a_f a_type a_macro keep re

	while IFS= read -r line; do
		f=${line%%:*}
		n=${line#*:}
		n=${n%%:*}
		type=${line#*: }
		type=${type#*:}
		type=${type%%:*}
		src=$(sed -n "${n}p" "$f" 2>/dev/null)
		keep=1
		while read -r a_f a_type a_macro; do
			case $a_f in '#'*|'') continue ;; esac
			re="^#define[[:space:]]+$a_macro[[:space:](]"
			if [ "$a_f" = "$f" ] && [ "$a_type" = "$type" ] &&
			   [[ $src =~ $re ]]; then
				keep=
				break
			fi
		done < tools/checkpatch.allow
		[ -n "$keep" ] && printf '%s\n' "$line"
	done
	return 0
}

cp=$(find_checkpatch)
[ -n "$cp" ] || { echo "checkpatch.pl not found (make deps: linux-source-6.1)" >&2; exit 4; }
out=$(
	if [ ${#files[@]} -gt 0 ]; then
		printf '%s\0' "${files[@]}"
	else
		git ls-files -z '*.c' '*.h' ':!tools/testing/rxbisect/shim' ':!include/trace'
	fi |
	xargs -0 -n 16 -P "$jobs" "$cp" --no-tree --strict --terse --show-types -f 2>&1 |
	grep -E 'ERROR|WARNING|CHECK' | allowed
)
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
