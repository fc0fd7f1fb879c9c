#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The network-function loaders' command lines (make check, the unit stage
# of make test): bad input exits 2 with a message naming the loader, before
# anything is loaded, so this runs without root and without a NIC; --help
# exits 0.  Prints KTAP; exits non-zero if a case fails.
#
# Usage: test_cli.sh DIR   (DIR holds nf-nat, nf-lb, nf-l3fwd)

set -u
dir=$1
n=0 fail=0
NAT="-i lo --inside 192.0.2.0/24 --external 203.0.113.1"
LB="-i lo --vip 198.51.100.1:9 -b 10.0.0.1"
L3="-i lo"
MAC=02:00:00:00:00:01
cases=(
	"nat|"
	"nat|-i"
	"nat|-i nosuchdev0 --inside 192.0.2.0/24 --external 203.0.113.1"
	"nat|-i lo --external 203.0.113.1"
	"nat|$NAT --flows -5"
	"nat|$NAT --flows nan"
	"nat|$NAT --flows 1e9"
	"nat|$NAT --flows 99999999999999999999999"
	"nat|$NAT --flows 0"
	"nat|$NAT --flows 16777217"
	"nat|$NAT --flows 12abc"
	"nat|$NAT --flows +5"
	"nat|-i lo --inside 192.0.2.1/24 --external 203.0.113.1"
	"nat|-i lo --inside 192.0.2.0/33 --external 203.0.113.1"
	"nat|-i lo --inside abc --external 203.0.113.1"
	"nat|-i lo --inside 192.0.2.0/24 --external 300.1.1.1"
	"nat|$NAT --ports 5-1"
	"nat|$NAT --ports 0-10"
	"nat|$NAT --ports 1-70000"
	"nat|$NAT --ports abc"
	"nat|$NAT --secs nan"
	"nat|$NAT --secs -1"
	"nat|$NAT --secs inf"
	"nat|$NAT --secs 1e9"
	"nat|$NAT --secs 0x10"
	"nat|$NAT --dmac zz:00:00:00:00:01"
	"nat|$NAT --dmac 02:00:00:00:00:01:02"
	"nat|$NAT --out lo"
	"nat|$NAT --out nosuchdev0 --dmac $MAC"
	"nat|$NAT stray"
	"nat|$NAT --bogus"
	"lb|$LB --table-size 100"
	"lb|$LB --table-size 1"
	"lb|$LB --table-size 16777259"
	"lb|$LB --conn-max 0"
	"lb|$LB --conn-max -1"
	"lb|$LB --conn-max NaN"
	"lb|$LB --conn-max 268435457"
	"lb|$LB --conn-max 18446744073709551616"
	"lb|-i lo --vip 198.51.100.1:70000 -b 10.0.0.1"
	"lb|-i lo --vip 198.51.100.1:x -b 10.0.0.1"
	"lb|-i lo --vip 198.51.100.1"
	"lb|$LB -b 10.0.0.1"
	"lb|$LB -b 10.0.0.256"
	"lb|-i lo --vip 198.51.100.1 -b 10.0.0.1 -b 10.0.0.2 -b 10.0.0.3 --table-size 2"
	"lb|$LB --secs -0.5"
	"lb|-i nosuchdev0 --vip 198.51.100.1 -b 10.0.0.1"
	"l3fwd|$L3"
	"l3fwd|$L3 -r 10.0.0.0/8"
	"l3fwd|$L3 -r 10.0.0.0/8,nosuchdev0,$MAC"
	"l3fwd|$L3 -r 10.0.0.0/8,lo,zz"
	"l3fwd|$L3 -r 10.0.0.0/40,lo,$MAC"
	"l3fwd|$L3 -r 10.0.0.1/8,lo,$MAC"
	"l3fwd|$L3 -r 10.0.0.0/8,lo,$MAC --secs x"
	"l3fwd|-i nosuchdev0 -r 10.0.0.0/8,lo,$MAC"
)

echo "TAP version 13"
echo "1..$((${#cases[@]} + 3))"
for c in "${cases[@]}"; do
	nf=${c%%|*} a=${c#*|}
	n=$((n + 1))
	# shellcheck disable=SC2086 # one string, several options
	err=$(timeout 20 "$dir/nf-$nf" $a 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $err == nf-$nf:* ]]; then
		echo "ok $n nf-$nf '$a': exit 2, ${err%%$'\n'*}"
	else
		echo "not ok $n nf-$nf '$a': exit $rc, '$err'"
		fail=$((fail + 1))
	fi
done
for nf in nat lb l3fwd; do
	n=$((n + 1))
	if out=$(timeout 20 "$dir/nf-$nf" --help) && [[ $out == usage:* ]]; then
		echo "ok $n nf-$nf --help"
	else
		echo "not ok $n nf-$nf --help"
		fail=$((fail + 1))
	fi
done
echo "# Totals: pass:$((n - fail)) fail:$fail"
[ "$fail" -eq 0 ]
