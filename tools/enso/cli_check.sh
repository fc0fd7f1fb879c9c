#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cli_check.sh ENSO_TOOL ENSO_ECHO: every bad command line exits 2 with a
# usage message, before touching any device.  KTAP.
tool=$1 echo=$2
cases=(
	"$tool"
	"$tool bogus"
	"$tool send"
	"$tool send 192.0.2.2 9000 1 10 64"
	"$tool send not-an-ip 9000 1 10 64 0"
	"$tool send 192.0.2.2 0 1 10 64 0"
	"$tool send 192.0.2.2 9000 17 10 64 0"
	"$tool send 192.0.2.2 9000 1 10 8 0"
	"$tool send 192.0.2.2 9000 1 10 2000 0"
	"$tool send 192.0.2.2 9000 1 -5 64 0"
	"$tool recv rxb1 9000 4096"
	"$tool recv rxb1 9000 4096,x 10"
	"$tool recv rxb1 9000 1024 10"
	"$tool recv rxb1 9000 4096 10 --slow"
	"$tool recv rxb1 9000 4096 10 --bogus"
	"$tool recv rxb1 9000 4096 10 --timeout 0"
	"$tool hold rxb1 9000 17 4096"
	"$tool hold rxb1 9000 1 3"
	"$tool badwrite rxb1"
	"$tool errors"
	"$tool fill rxb1 extra"
	"$echo"
	"$echo -i rxb1"
	"$echo -p 9000"
	"$echo -i rxb1 -p 9000 -n 0"
	"$echo -i rxb1 -p 9000 -n 17"
	"$echo -i rxb1 -p 9000 -s 3"
	"$echo -i rxb1 -p 9000 -s 100"
	"$echo -i rxb1 -p 9000 -c 0"
	"$echo -i rxb1 -p 9000 -t x"
	"$echo -i rxb1 -p 9000 extra"
	"$echo -i rxb1 -p 65535 -n 2"
	"$echo -x"
)
echo "TAP version 13"
echo "1..${#cases[@]}"
n=0 fail=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	out=$($c 2>&1 </dev/null)
	rc=$?
	if [ $rc = 2 ] && [[ $out == *usage:* ]]; then
		echo "ok $n $c"
	else
		echo "not ok $n $c (exit $rc: $out)"
		fail=$((fail + 1))
	fi
done
echo "# Totals: pass:$((n - fail)) fail:$fail"
[ $fail = 0 ]
