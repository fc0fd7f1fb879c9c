#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ynl.sh [--fetch] [FAMILY CLI-ARGS...]
#
# The kernel's YNL command line (tools/net/ynl/cli.py) with its netlink
# specs, from linux-source-6.12, extracted once by tools/ksrc.sh into
# build/ksrc-6.12/ of this checkout (outside git,
# shared with the test VM, which cannot unpack it fast: run
# "tools/ynl.sh --fetch" on the host before a VM run; make vm-test does).
#
#   tools/ynl.sh --fetch                       extract, print the directory
#   tools/ynl.sh netdev --dump queue-get       cli.py --spec .../netdev.yaml
#   tools/ynl.sh netdev --output-json --dump qstats-get --json '{"scope": 1}'
#
# FAMILY names a spec of Documentation/netlink/specs (netdev, ethtool,
# ...).  The schema check is skipped (--no-schema): the spec is the
# kernel's own, and jsonschema takes seconds under TCG.
#
# Exit status: cli.py's; 4 (kselftest's skip) when the sources or python3's
# yaml module are missing, with the reason on stderr.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TAR=/usr/src/linux-source-6.12.tar.xz
DIR=$TOP/build/ksrc-6.12
CLI=$DIR/tools/net/ynl/cli.py

skip() { echo "ynl.sh: $*" >&2; exit 4; }

fetch() {
	[ -r "$CLI" ] && return 0
	[ -r "$TAR" ] || skip "no $TAR (apt-get install linux-source-6.12)"
	# the one extraction of the 6.12 sources (a superset of ynl's)
	"$TOP/tools/ksrc.sh" 6.12 >/dev/null ||
		{ echo "ynl.sh: cannot extract ynl from $TAR" >&2; exit 1; }
}

if [ "${1:-}" = --fetch ]; then
	fetch
	echo "$DIR"
	exit 0
fi
[ $# -ge 1 ] || { sed -n '3,22s/^# \{0,1\}//p' "$0" >&2; exit 2; }
fetch
FAMILY=$1
shift
SPEC=$DIR/Documentation/netlink/specs/$FAMILY.yaml
[ -r "$SPEC" ] || { echo "ynl.sh: no spec $SPEC" >&2; exit 2; }
python3 -c 'import yaml' 2>/dev/null || skip "python3 has no yaml module (python3-yaml)"
exec python3 "$CLI" --spec "$SPEC" --no-schema "$@"
