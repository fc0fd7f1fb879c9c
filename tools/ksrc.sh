#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksrc.sh [--print-dir | --check] [SERIES]
#
# The parts of a kernel's source the tests run from it, extracted from
# Debian's linux-source-SERIES tarball (/usr/src/linux-source-SERIES.tar.xz,
# make deps installs it for 6.12, the default SERIES; else
# linux-source-SERIES.tar.xz in the cache, where tools/vm/debian-kernel.sh
# --source puts unstable's) into
# build/ksrc-SERIES/ (not in git, cached: extracted again only when the
# tarball changes).  The directory is the top of a kernel tree holding:
#
#   tools/testing/selftests/drivers/net     the python driver tests (ping.py,
#                                           stats.py, queues.py, hw/...)
#   tools/testing/selftests/net/lib         their library (lib/py) and csum.c
#   tools/testing/selftests/net/lib.sh, net_helper.sh, kselftest/, kselftest.h
#   tools/testing/selftests/net/tls.c       the kTLS selftest and its harness
#                                           (kselftest_harness.h), built as
#                                           net/tls (tls_kselftest.sh)
#   tools/testing/selftests/net/forwarding  the forwarding tests (router.sh,
#                                           bridge_*.sh, ...: kfwd_tests.sh);
#                                           they source their own lib.sh,
#                                           tc_common.sh, ... and ../lib.sh
#   tools/net/ynl                           the ynl python library and cli.py
#   Documentation/netlink/specs             the netlink specs ynl reads
#
# and net/lib's helpers built (csum for hw/csum.py; 7.x: gro, xdp_helper
# and the XDP objects of its .bpf.c), and net/tls from tls.c.  Debian's 6.12.117 (and 6.1.158) tls.c carries backported
# rekey tests that call tls_crypto_info_init() with a key generation the
# file's own tls_crypto_info_init() does not take, so it does not compile
# as shipped; when the plain build fails it is built again with that
# argument dropped (-D, recorded in net/tls.fixed): the rekey tests then
# rekey to the same key (and need TLS 1.3 KeyUpdate, 6.14, anyway).  7.2's
# tls.c needs its own uapi linux/tls.h (-I include/uapi, recorded too:
# Debian 12's linux-libc-dev is 6.1's).  Run it
# on the host before the VM boots: the VM sees the host's root read-only,
# and the tar extraction costs ~10 CPU-seconds per run.  The VM sees this
# repository read-write at the same path, so the tests run from here.
#
# SERIES "newest" is the kernel of make KERNEL=newest (its tarball fetched
# by debian-kernel.sh --source newest when missing); "running" is the
# series of the kernel this runs on when its sources are extracted, else
# 6.12 (the tests in the VM take the kernel under test's own YNL, specs
# and tests: 7.2 sends attributes 6.12's YNL does not know).
#
#   (no option)   extract if needed, then print the directory
#   --print-dir   print the directory only (extracted or not)
#   --check       exit 0 when the directory is extracted and current
#
# Exit status: 0; 1 with a message when the tarball is missing (make deps)
# or the extraction failed.

set -euo pipefail

SELF_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
REPO=$(cd "$SELF_DIR/.." && pwd -P)

MODE=extract
case ${1:-} in
--print-dir) MODE=print; shift ;;
--check) MODE=check; shift ;;
-h|--help) sed -n '4,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
-*) echo "ksrc.sh: unknown option $1" >&2; exit 2 ;;
esac
SERIES=${1-6.12}
CACHE=${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}
case $SERIES in
newest)
	TARBALL=$("$SELF_DIR/vm/debian-kernel.sh" --source newest) || exit 1
	SERIES=${TARBALL##*/linux-source-}
	SERIES=${SERIES%.tar.xz}
	;;
running)
	SERIES=$(uname -r | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
	[ -d "$REPO/build/ksrc-$SERIES" ] || SERIES=6.12
	;;
*[!0-9.]*|'') echo "ksrc.sh: bad series '$SERIES' (6.12, 7.2, newest, running)" >&2; exit 2 ;;
esac
TARBALL=${TARBALL:-/usr/src/linux-source-$SERIES.tar.xz}
[ -r "$TARBALL" ] || [ ! -r "$CACHE/linux-source-$SERIES.tar.xz" ] ||
	TARBALL=$CACHE/linux-source-$SERIES.tar.xz
DIR=$REPO/build/ksrc-$SERIES
TOPNAME=linux-source-$SERIES
PARTS=(
	tools/testing/selftests/drivers/net
	tools/testing/selftests/net/lib
	tools/testing/selftests/net/lib.sh
	tools/testing/selftests/net/net_helper.sh
	tools/testing/selftests/net/forwarding
	tools/testing/selftests/kselftest
	tools/testing/selftests/kselftest.h
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/net/tls.c
	include/uapi/linux/tls.h
	tools/net/ynl
	Documentation/netlink/specs
)

stamp() {
	# the tarball's identity and the list of parts
	echo "$(stat -L -c '%s %Y' "$TARBALL" 2>/dev/null) ${PARTS[*]} bpf helpers"
}
# current: extracted from this tarball; or extracted, from a tarball not
# visible here (the VM may see the host's cache under another HOME)
current() {
	[ -r "$DIR/.stamp" ] &&
		{ [ ! -r "$TARBALL" ] || [ "$(cat "$DIR/.stamp")" = "$(stamp)" ]; }
}

case $MODE in
print) echo "$DIR"; exit 0 ;;
check) current; exit ;;
esac

if current; then
	echo "$DIR"
	exit 0
fi
[ -r "$TARBALL" ] || { echo "ksrc.sh: $TARBALL missing (make deps installs linux-source-6.12; make ksrc KERNEL=newest fetches unstable's)" >&2; exit 1; }
tmp=$DIR.tmp.$$
trap 'rm -rf "$tmp"' EXIT
rm -rf "$tmp"
mkdir -p "$tmp"
# the parts a release lacks (net_helper.sh is newer than 6.1) are not errors
tar -C "$tmp" -xJf "$TARBALL" --wildcards --no-wildcards-match-slash \
	"${PARTS[@]/#/$TOPNAME/}" 2>/dev/null ||
	[ -d "$tmp/$TOPNAME/tools/testing/selftests/drivers/net" ] ||
	{ echo "ksrc.sh: extracting $TARBALL failed" >&2; exit 1; }
st=$tmp/$TOPNAME/tools/testing/selftests
# net/lib's helper programs: csum (hw/csum.py); from 7.x also gro and
# xdp_helper (queues.py's AF_XDP check)
for h in csum gro xdp_helper; do
	[ -r "$st/net/lib/$h.c" ] || continue
	${CC:-cc} -O2 -Wall -I"$st" -o "$st/net/lib/$h" "$st/net/lib/$h.c" 2>/dev/null ||
		echo "ksrc.sh: warning: building net/lib/$h failed (the tests running it fail)" >&2
done
# 7.x's driver tests load XDP objects their Makefile builds from
# net/lib/*.bpf.c (ping.py's xdp_dummy.bpf.o); 6.12 has none
for b in "$st"/net/lib/*.bpf.c; do
	[ -r "$b" ] || continue
	clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
		-c "$b" -o "${b%.c}.o" 2>/dev/null ||
		echo "ksrc.sh: warning: building ${b##*/} failed (clang, libbpf-dev: the tests that load it fail)" >&2
done
if [ -r "$st/net/tls.c" ]; then
	fix='tls_crypto_info_init(v,c,k,...)=rxb_tls_crypto_info_init(v,c,k)'
	# the kernel's selftests build against its own uapi (headers_install);
	# tls.c of 7.x uses constants Debian 12's linux-libc-dev lacks
	khdr=$tmp/$TOPNAME/include/uapi
	tls_cc() { ${CC:-cc} -O2 -I"$st" "$@" -o "$st/net/tls" "$st/net/tls.c" 2>/dev/null; }
	if tls_cc; then
		:
	elif tls_cc -I"$khdr"; then
		echo "-I(uapi)" >"$st/net/tls.fixed"
	elif tls_cc -D"$fix" || tls_cc -I"$khdr" -D"$fix"; then
		echo "-D$fix" >"$st/net/tls.fixed"
	else
		echo "ksrc.sh: warning: building net/tls failed (tls_kselftest.sh will skip)" >&2
	fi
fi
rm -rf "$DIR"
mv "$tmp/$TOPNAME" "$DIR"
stamp > "$DIR/.stamp"
echo "$DIR"
