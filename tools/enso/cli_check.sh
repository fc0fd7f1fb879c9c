#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cli_check.sh ENSO_TOOL ENSO_ECHO ENSO_LB: every bad command line exits 2
# with a usage message, before touching any device.  KTAP.
tool=$1 echo=$2 lb=$3
B=10.9.0.1@02:00:00:00:00:01
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
	"$tool xmit rxb1"
	"$tool xmit rxb1 02:00:00:00:00:01 192.0.2.1 9000 10"
	"$tool xmit rxb1 02:00:00:00:00 192.0.2.1 9000 10 64"
	"$tool xmit rxb1 02:00:00:00:00:01 192.0.2 9000 10 64"
	"$tool xmit rxb1 02:00:00:00:00:01 192.0.2.1 0 10 64"
	"$tool xmit rxb1 02:00:00:00:00:01 192.0.2.1 9000 0 64"
	"$tool xmit rxb1 02:00:00:00:00:01 192.0.2.1 9000 10 8"
	"$tool xmit rxb1 02:00:00:00:00:01 192.0.2.1 9000 10 1473"
	"$tool txbad"
	"$tool txbad rxb1 extra"
	"$echo"
	"$echo -i rxb1"
	"$echo -p 9000"
	"$echo -i rxb1 -p 9000 -n 0"
	"$echo -i rxb1 -p 9000 -n 16"
	"$echo -i rxb1 -p 9000 -n 17"
	"$echo -i rxb1 -p 9000 -s 3"
	"$echo -i rxb1 -p 9000 -s 100"
	"$echo -i rxb1 -p 9000 -c 0"
	"$echo -i rxb1 -p 9000 -t x"
	"$echo -i rxb1 -p 9000 extra"
	"$echo -i rxb1 -p 65535 -n 2"
	"$echo -x"
	"$lb"
	"$lb -i rxb1 -p 9000"
	"$lb -i rxb1 -b $B"
	"$lb -p 9000 -b $B"
	"$lb -i rxb1 -p 9000 -b 10.9.0.1"
	"$lb -i rxb1 -p 9000 -b 10.9.0.1@02:00:00:00:00"
	"$lb -i rxb1 -p 9000 -b 10.9.0.1@02:00:00:00:00:01:02"
	"$lb -i rxb1 -p 9000 -b 10.9.0.1@02:00:00:00:00:1ff"
	"$lb -i rxb1 -p 9000 -b 10.9.0.999@02:00:00:00:00:01"
	"$lb -i rxb1 -p 9000 -b $B,$B"
	"$lb -i rxb1 -p 9000 -b $B,"
	"$lb -i rxb1 -p 9000 -b ,"
	"$lb -i rxb1 -p 9000 -b $B -m 65536"
	"$lb -i rxb1 -p 9000 -b $B -m 65539"
	"$lb -i rxb1 -p 9000 -b $B -m 1"
	"$lb -i rxb1 -p 9000 -b $B,10.9.0.2@02:00:00:00:00:02,10.9.0.3@02:00:00:00:00:03 -m 2"
	"$lb -i rxb1 -p 9000 -b $B,,10.9.0.2@02:00:00:00:00:02"
	"$lb -i rxb1 -p 9000 -b $B -n 0"
	"$lb -i rxb1 -p 9000 -b $B -n 16"
	"$lb -i rxb1 -p 9000 -b $B -s 3"
	"$lb -i rxb1 -p 9000 -b $B -c 0"
	"$lb -i rxb1 -p 9000 -b $B -t -1"
	"$lb -i rxb1 -p 65535 -b $B -n 2"
	"$lb -i rxb1 -p 9000 -b $B extra"
	"$lb -L"
	"$lb -L -b $B -i rxb1"
	"$lb -L -b $B -p 9000"
	"$lb -x"
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
