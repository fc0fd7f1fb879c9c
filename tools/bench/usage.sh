# SPDX-License-Identifier: GPL-2.0
#
# usage [MESSAGE]: the benchmark script's "# Options" header, through its
# "... bad usage." line, on stdout (exit 0); with MESSAGE, "NAME: MESSAGE"
# and the header on stderr (exit 2), NAME the script's without ".sh".
# Sourced by tls_bench.sh and enso_bench.sh before they parse options.

usage() {
	local out=1 rc=0

	if [ -n "${1:-}" ]; then
		echo "$(basename "$0" .sh): $1" >&2
		out=2 rc=2
	fi
	sed -n '/^# Options/,/bad usage\.$/p' "$0" | sed 's/^# \{0,1\}//' >&"$out"
	exit "$rc"
}
