#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ynl.sh [--fetch [SERIES]] [FAMILY CLI-ARGS...]
#
# The kernel's YNL command line (tools/net/ynl/cli.py, pyynl/cli.py from
# 6.13) with its netlink specs, from the running kernel's linux-source
# when it is extracted (tools/ksrc.sh running: 7.2 sends attributes an
# older YNL cannot decode), else linux-source-6.12's, extracted once by
# tools/ksrc.sh into build/ksrc-SERIES/ of this checkout (outside git,
# shared with the test VM, which cannot unpack it fast: run
# "tools/ynl.sh --fetch" on the host before a VM run; make vm-test does,
# with SERIES newest for make vm-test KERNEL=newest).
#
#   tools/ynl.sh --fetch [SERIES]              extract (6.12 by default),
#                                              print the directory
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

skip() { echo "ynl.sh: $*" >&2; exit 4; }

if [ "${1:-}" = --fetch ]; then
	"$TOP/tools/ksrc.sh" "${2:-6.12}" ||
		skip "cannot extract ynl of linux-source-${2:-6.12} (tools/ksrc.sh)"
	exit 0
fi
[ $# -ge 1 ] || { sed -n '3,24s/^# \{0,1\}//p' "$0" >&2; exit 2; }
cli() {
	DIR=$("$TOP/tools/ksrc.sh" --print-dir running)
	CLI=$DIR/tools/net/ynl/pyynl/cli.py
	[ -r "$CLI" ] || CLI=$DIR/tools/net/ynl/cli.py
	[ -r "$CLI" ]
}
# not extracted yet: 6.12's, here (slow in the VM: fetch on the host)
cli || { "$TOP/tools/ksrc.sh" 6.12 >/dev/null 2>&1 && cli; } ||
	skip "no YNL in $DIR: tools/ynl.sh --fetch (apt-get install linux-source-6.12)"
FAMILY=$1
shift
SPEC=$DIR/Documentation/netlink/specs/$FAMILY.yaml
[ -r "$SPEC" ] || { echo "ynl.sh: no spec $SPEC" >&2; exit 2; }
python3 -c 'import yaml' 2>/dev/null || skip "python3 has no yaml module (python3-yaml)"
exec python3 "$CLI" --spec "$SPEC" --no-schema "$@"
