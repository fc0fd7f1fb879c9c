#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kTLS over the rxbisect pair with progs/rxb_ktls (a plain kTLS client and
# server: keys from a seed, no handshake; every byte checked), in software
# and, once the module offers it, with the NIC's TLS device offload
# (NETIF_F_HW_TLS_TX/RX, tlsdev_ops; Documentation/networking/tls-offload.rst):
#   args      rxb_ktls refuses bad arguments with its usage (exit 2), and
#             catches a flipped byte (its offset), a wrong key and a wrong
#             TLS version (a bad record MAC);
#   default   tls-hw-tx-offload and tls-hw-rx-offload are off on both ports;
#   software  TLS 1.2 and 1.3, AES-GCM-128 and -256, both directions at
#             once, record sizes drawn from 1 B to 16 KiB, then records of
#             1-31 B, records of 16 KiB, sendfile() of a file (also with
#             TLS_TX_ZEROCOPY_RO, which software kTLS ignores), three
#             connections at once and one after the other: byte-exact, and
#             in each namespace's /proc/net/tls_stat TlsTxSw and TlsRxSw
#             move by the sockets opened, TlsTxDevice, TlsRxDevice and
#             TlsDecryptError do not, TlsCurr* come back once they close;
#   veth      the same four TLS versions and ciphers over a veth pair, the
#             reference (skipped without veth);
#   netem     netem loss 2 %, then delay 1ms reorder 2 %, on both ports
#             (GSO off: the loss hits wire packets): byte-exact, the losses
#             and the reordering seen (netem drops, TCP retransmissions,
#             out-of-order queueing);
#   offload   (skipped while "ethtool -K rxb0 tls-hw-tx-offload on" does not
#             turn it on) ethtool -K turns both features on on both ports;
#             the same matrix offloaded: for TLS 1.2 TlsTxDevice and
#             TlsRxDevice move by the sockets, the software counters do
#             not, each sender's NIC encrypted at least the records the
#             application sent (tx<q>_tls_records), each receiver's NIC
#             decrypted them (rx<q>_tls_records, rx<q>_tls_decrypted > 0)
#             and passed none up encrypted (rx<q>_tls_encrypted 0 where
#             TCP did not retransmit: a spurious retransmission of a slow
#             VM reaches the NIC out of sequence), no
#             drops or authentication failures, tls_ctx_added = the
#             contexts (TX and RX per socket on each port), all deleted
#             again (tls_ctx_active back); TLS 1.3, which the kernel's
#             tls_device does not offload (6.1, 6.12), stays in software
#             with no context added; small and full records; sendfile(),
#             also with TLS_TX_ZEROCOPY_RO;
#             netem loss 2 %: resync requests (rx<q>_tls_resync_req),
#             confirmations (tls_resync_confirmed, TlsRxDeviceResync),
#             TX record dumps for the retransmissions, no TlsDecryptError;
#             reordering (netem delay 1ms reorder 2 % on a veth pair the
#             two NICs are stacked on: netem with a delay cannot sit on an
#             offloading port, see case 26): resync requests and
#             confirmations, no TX drop or authentication failure; the
#             offload toggled off and on under traffic (new sockets take
#             the new setting, open ones keep working); every ring model,
#             switched at run time, on the device path; Debian's openssl
#             s_server -sendfile and s_client (Options = KTLS) over the
#             offload: byte-exact, TlsTxDevice/TlsRxDevice, NIC records;
#             tls_contexts=2 with three sockets open on rxb0: the third
#             is refused (tls_ctx_refused) and stays in
#             software, all three byte-exact; with the NIC on its engine
#             thread (engine=cpuN) and a 64-frame Tx ring (mq), offloaded
#             frames go through the transmit doorbell like plain ones:
#             each sender's engine thread took them (tx<q>_engine), its
#             TLS engine encrypted them, byte-exact both ways;
#             tls_resync=async (mlx5's async resync) under netem loss 3 %:
#             requests started (tls_resync_async_start), the NIC answered
#             the driver's progress queries (rx<q>_tls_resync_progress),
#             requests ended (tls_resync_async_end), resyncs confirmed
#             (tls_resync_confirmed, TlsRxDeviceResync), byte-exact, no
#             TlsDecryptError.
#
# Byte counts are small (384 KiB to 1 MiB a run) for the TCG VM; sizes and
# payloads come from the seed (RXB_TLS_SEED), so a run repeats exactly, up
# to the losses netem draws.  RXB_TLS_FORCE_OFFLOAD=1 runs the offload
# cases even where ethtool does not turn the offload on (they fail: to see
# what an offload in progress still misses).

source "$(dirname "$0")/lib.sh"

PROGS=$RXB_DIR/progs
KTLS=$PROGS/rxb_ktls
SEED=${RXB_TLS_SEED:-20261129}
KPORT=4430
VA=
VB=
WA=
WB=
declare -A ANCHOR=()
VIP0=198.51.100.1
VIP1=198.51.100.2
COMBOS="1.2:128 1.2:256 1.3:128 1.3:256"

rxb_init tc
[ -x "$KTLS" ] || make -s -C "$PROGS" "$KTLS" >/dev/null 2>&1
[ -x "$KTLS" ] || ktap_skip_all "progs/rxb_ktls is not built (make module)"
modprobe tls 2>/dev/null || ktap_skip_all "no kTLS: modprobe tls failed"

# shellcheck disable=SC2317  # the EXIT trap
tls_cleanup() {
	local p
	for p in "${ANCHOR[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	ip link del rxbwA 2>/dev/null
	rxb_ns_del $VA $VB $WA $WB
	rxb_cleanup
}
trap tls_cleanup EXIT

ktap_set_plan 31

rxb_load || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# ---- counters ---------------------------------------------------------------

# A process in each namespace whose counters are read, so that
# /proc/PID/net/{tls_stat,snmp,netstat} of that namespace are read with
# bash builtins (an "ip netns exec" costs ~0.15 s under TCG).
ns_anchor() {	# NS
	local i
	ip netns exec "$1" sleep 3600 &
	ANCHOR[$1]=$!
	RXB_PIDS+=("$!")
	# ip execs sleep once it entered the namespace
	for i in {1..50}; do
		[ /proc/$!/ns/net -ef "/run/netns/$1" ] && return 0
		rxb_sleep 0.1
	done
	return 1
}

# TS["SNAP:NS:Name"]: /proc/net/tls_stat and two TCP counters
# (TcpRetransSegs, TcpExtTCPOFOQueue) of NS at snapshot SNAP (0 before a
# run, 1 after).
declare -A TS=()
tls_snap() {	# SNAP NS...
	local s=$1 ns k v d=() h=() i f file pfx
	shift
	for ns in "$@"; do
		while read -r k v; do
			TS[$s:$ns:$k]=$v
		done </proc/"${ANCHOR[$ns]}"/net/tls_stat
		for f in snmp:Tcp:RetransSegs netstat:TcpExt:TCPOFOQueue; do
			IFS=: read -r file pfx k <<<"$f"
			h=()
			while read -r -a d; do
				[ "${d[0]}" = "$pfx:" ] || continue
				if [ ${#h[@]} = 0 ]; then h=("${d[@]}"); continue; fi
				for i in "${!h[@]}"; do
					[ "${h[i]}" = "$k" ] && TS[$s:$ns:$pfx$k]=${d[i]}
				done
				break
			done </proc/"${ANCHOR[$ns]}"/net/$file
		done
	done
}
# tls_cur NS NAME: NAME of NS's tls_stat now, in CUR (no subshell).
tls_cur() {
	local k v
	CUR=
	while read -r k v; do
		[ "$k" = "$2" ] && { CUR=$v; return 0; }
	done </proc/"${ANCHOR[$1]}"/net/tls_stat
}

ns_anchor "$NS0" && ns_anchor "$NS1" || rxb_bail "cannot start a process in the namespaces"
[ -r /proc/"${ANCHOR[$NS0]}"/net/tls_stat ] ||
	rxb_bail "no /proc/net/tls_stat in the namespaces with the tls module loaded"

tls_d() { echo $((${TS[1:$1:$2]:-0} - ${TS[0:$1:$2]:-0})); }	# NS NAME

# NIC["SNAP:IF:name"]: ethtool -S of IF at snapshot SNAP.
declare -A NIC=()
nic_snap() {	# SNAP IF...
	local s=$1 p k
	shift
	for p in "$@"; do
		rxb_snap "$p"
		for k in "${!RXB_S[@]}"; do
			NIC[$s:$p:$k]=${RXB_S[$k]}
		done
	done
}
# nic_d IF NAME: the increase of NAME; nic_qd IF DIR FIELD: of DIR<q>_FIELD
# summed over the queues.
nic_d() { echo $((${NIC[1:$1:$2]:-0} - ${NIC[0:$1:$2]:-0})); }
nic_qd() {
	local q=0 s=0
	while [ -n "${NIC[1:$1:$2${q}_$3]:-}" ]; do
		s=$((s + ${NIC[1:$1:$2${q}_$3]} - ${NIC[0:$1:$2${q}_$3]:-0}))
		q=$((q + 1))
	done
	echo "$s"
}
nic_has() { [ -n "${NIC[1:$1:$2]:-}" ]; }	# IF NAME

# feat IF FEATURE: its state in ethtool -k ("on", "off [fixed]", ...).
feat() { rxb_in "$1" ethtool -k "$1" 2>/dev/null | sed -n "s/^$2: //p"; }	# IF FEATURE

# ---- runs -------------------------------------------------------------------

# kv_parse ARRAY FILE: the key=value pairs of rxb_ktls's "ok" line.
declare -A KC=() KS=()
kv_parse() {
	local -n a=$1
	local l w
	a=()
	while IFS= read -r l; do
		[[ $l == *": ok "* ]] || continue
		for w in ${l#*: ok }; do
			[[ $w == *=* ]] && a[${w%%=*}]=${w#*=}
		done
		break
	done <"$2"
}

# ktls_run NAME SNS SIP CNS "SERVER ARGS" CLIENT ARGS...: rxb_ktls server
# in SNS, client in CNS to SIP, both with the seed; their output in
# $RXB_TMP/NAME.{srv,cli}, their "ok" lines in KS and KC, exit codes in
# SRC and CRC.  0 when both succeeded.  No timeout(1) (an exec costs
# ~0.15 s in the VM): rxb_ktls bounds every wait itself (--timeout, 20 s
# without progress), the runner's timeout the test.
ktls_run() {
	local name=$1 sns=$2 sip=$3 cns=$4 sargs=$5 port=$KPORT spid
	shift 5
	KPORT=$((KPORT + 1))
	# shellcheck disable=SC2086
	ip netns exec "$sns" "$KTLS" server --port $port --seed "$SEED" \
		$sargs >"$RXB_TMP/$name.srv" 2>&1 &
	spid=$!
	RXB_PIDS+=("$spid")
	ip netns exec "$cns" "$KTLS" client --addr "$sip" --port $port \
		--seed "$SEED" "$@" >"$RXB_TMP/$name.cli" 2>&1
	CRC=$?
	wait $spid
	SRC=$?
	kv_parse KC "$RXB_TMP/$name.cli"
	kv_parse KS "$RXB_TMP/$name.srv"
	if [ $CRC = 0 ] && [ $SRC = 0 ]; then
		ktap_print_msg "$name: client sent ${KC[tx_bytes]} B in ${KC[tx_records]} records" \
			"(${KC[tx_sizes]}), got ${KC[rx_bytes]} B; server sent" \
			"${KS[tx_bytes]} B in ${KS[tx_records]} records; $((${KC[ns]:-0} / 1000000)) ms"
		return 0
	fi
	ktap_print_msg "$name: client exit $CRC, server exit $SRC:"
	sed 's/^/# /' "$RXB_TMP/$name.cli" "$RXB_TMP/$name.srv" | head -n 20
	return 1
}

# CLOSE_LOOKS: how many looks (rxb_poll_wait) the sockets' and the NIC's
# contexts get to go after a run: 15 s.  A TX context goes once its
# records are acknowledged, and under netem loss a lost tail segment waits
# for TCP's backed-off retransmission timer.
CLOSE_LOOKS=77

# tls_expect NS TXSW RXSW TXDEV RXDEV: NS's tls_stat moved by exactly these
# (snapshots 0 and 1), TlsDecryptError did not, and each TlsCurr* is back
# at its snapshot-0 value (waited for, CLOSE_LOOKS: the sockets are closing).
tls_expect() {
	local ns=$1 i k want got ok=1 cur
	local -A exp=([TlsTxSw]=$2 [TlsRxSw]=$3 [TlsTxDevice]=$4 [TlsRxDevice]=$5 [TlsDecryptError]=0)

	for k in "${!exp[@]}"; do
		got=$(tls_d "$ns" "$k")
		[ "$got" = "${exp[$k]}" ] && continue
		ktap_print_msg "$ns: $k +$got, expected +${exp[$k]}"
		ok=0
	done
	for ((i = 1; i <= CLOSE_LOOKS; i++)); do
		cur=
		for k in TlsCurrTxSw TlsCurrRxSw TlsCurrTxDevice TlsCurrRxDevice; do
			want=${TS[0:$ns:$k]}
			tls_cur "$ns" $k
			got=$CUR
			[ "$got" = "$want" ] || cur+=" $k $got (was $want)"
		done
		[ -z "$cur" ] && break
		rxb_poll_wait $i
	done
	[ -z "$cur" ] || { ktap_print_msg "$ns: not back after the close:$cur"; ok=0; }
	[ "$ok" = 1 ]
}

# ---- the matrix --------------------------------------------------------------

# OFFLOAD=1: the ports have both TLS offloads on; NIC counters are
# checked as well (nic_expect).
OFFLOAD=0
NETEM=0

# nic_expect CLIENT_IF SERVER_IF CONNS: after an offloaded TLS 1.2 run
# (NETEM=0: without loss): each sender's NIC encrypted at least the records its
# application sent, each receiver's NIC decrypted at least as many and
# passed no packet up encrypted, nothing dropped or failed, a context per
# socket and direction added on each port and deleted again.
nic_expect() {
	local c=$1 s=$2 k=$3 ok=1 p peer recs i retr gone

	retr=$(($(tls_d "$NS0" TcpRetransSegs) + $(tls_d "$NS1" TcpRetransSegs)))

	for p in "$c" "$s"; do
		if [ "$p" = "$c" ]; then recs=${KC[tx_records]} peer=${KS[tx_records]}
		else recs=${KS[tx_records]} peer=${KC[tx_records]}; fi
		ktap_print_msg "$p: NIC tx records $(nic_qd "$p" tx tls_records)" \
			"packets $(nic_qd "$p" tx tls_packets) dumps $(nic_qd "$p" tx tls_dumps)" \
			"drops $(nic_qd "$p" tx tls_drops); rx records $(nic_qd "$p" rx tls_records)" \
			"decrypted $(nic_qd "$p" rx tls_decrypted) encrypted $(nic_qd "$p" rx tls_encrypted)" \
			"resync_req $(nic_qd "$p" rx tls_resync_req) auth_fail $(nic_qd "$p" rx tls_auth_fail);" \
			"ctx added $(nic_d "$p" tls_ctx_added) refused $(nic_d "$p" tls_ctx_refused)" \
			"deleted $(nic_d "$p" tls_ctx_deleted); app sent $recs records, peer $peer"
		nic_has "$p" rx0_tls_records && nic_has "$p" tx0_tls_records &&
			nic_has "$p" tls_ctx_added ||
			{ ktap_print_msg "$p: ethtool -S lacks the TLS counters"; ok=0; continue; }
		# under netem, packets after a gap go up encrypted until the
		# NIC resynchronizes (netem_case checks that); without it,
		# none does unless TCP retransmitted (a slow VM's spurious
		# retransmission reaches the NIC out of sequence)
		if [ "$NETEM" = 0 ]; then
			[ "$(nic_qd "$p" rx tls_records)" -ge "${peer:-1}" ] || ok=0
			if [ "$retr" = 0 ]; then
				[ "$(nic_qd "$p" rx tls_encrypted)" = 0 ] || ok=0
			else
				ktap_print_msg "$p: TCP retransmitted $retr segments:" \
					"rx_tls_encrypted not checked"
			fi
		fi
		[ "$(nic_qd "$p" tx tls_records)" -ge "${recs:-1}" ] &&
			[ "$(nic_qd "$p" tx tls_packets)" -gt 0 ] &&
			[ "$(nic_qd "$p" rx tls_decrypted)" -gt 0 ] &&
			[ "$(nic_qd "$p" tx tls_drops)" = 0 ] &&
			[ "$(nic_qd "$p" rx tls_auth_fail)" = 0 ] &&
			[ "$(nic_d "$p" tls_ctx_added)" = $((2 * k)) ] &&
			[ "$(nic_d "$p" tls_ctx_refused)" = 0 ] || ok=0
	done
	# the contexts go once the sockets are gone (TX ones once their
	# records are acknowledged)
	gone=0
	for ((i = 1; i <= CLOSE_LOOKS; i++)); do
		nic_snap 1 "$c" "$s"
		[ "$(nic_d "$c" tls_ctx_deleted)" = $((2 * k)) ] &&
			[ "$(nic_d "$s" tls_ctx_deleted)" = $((2 * k)) ] &&
			[ "$(nic_d "$c" tls_ctx_active)" = 0 ] &&
			[ "$(nic_d "$s" tls_ctx_active)" = 0 ] && { gone=1; break; }
		rxb_poll_wait $i
	done
	[ "$gone" = 1 ] || {
		ktap_print_msg "contexts not all deleted: $c deleted +$(nic_d "$c" tls_ctx_deleted)" \
			"active +$(nic_d "$c" tls_ctx_active), $s deleted" \
			"+$(nic_d "$s" tls_ctx_deleted) active +$(nic_d "$s" tls_ctx_active)"
		ok=0
	}
	[ "$ok" = 1 ]
}

# pair_run NAME TLS CIPHER CONNS [CLIENT ARGS...]: rxb_ktls over the rxbisect
# pair (client in $NS0 on rxb0, server in $NS1 on rxb1) and the counters:
# software kTLS, or with OFFLOAD=1 the device for TLS 1.2 (and the NIC's
# counters), software for TLS 1.3.  SARGS: extra server arguments.
SARGS=
pair_run() {
	local name=$1 tls=$2 ci=$3 k=$4 ok=1 sw=$4 dev=0
	shift 4
	tls_snap 0 "$NS0" "$NS1"
	[ $OFFLOAD = 1 ] && nic_snap 0 rxb0 rxb1
	ktls_run "$name" "$NS1" "$RXB_IP1" "$NS0" "--tls $tls --cipher $ci $SARGS" \
		--tls "$tls" --cipher "$ci" "$@" || ok=0
	tls_snap 1 "$NS0" "$NS1"
	[ $OFFLOAD = 1 ] && nic_snap 1 rxb0 rxb1
	[ "$ok" = 1 ] || return 1
	if [ $OFFLOAD = 1 ] && [ "$tls" = 1.2 ]; then
		sw=0 dev=$k
	fi
	tls_expect "$NS0" "$sw" "$sw" "$dev" "$dev" || ok=0
	tls_expect "$NS1" "$sw" "$sw" "$dev" "$dev" || ok=0
	if [ $OFFLOAD = 1 ] && [ "$tls" = 1.2 ]; then
		nic_expect rxb0 rxb1 "$k" || ok=0
	elif [ $OFFLOAD = 1 ]; then
		# TLS 1.3: the kernel never asks the device (tls_device: 1.2 only)
		[ "$(nic_d rxb0 tls_ctx_added)" = 0 ] && [ "$(nic_d rxb1 tls_ctx_added)" = 0 ] ||
			{ ktap_print_msg "$name: TLS 1.3 contexts added to the NIC"; ok=0; }
	fi
	[ "$ok" = 1 ]
}

# matrix_case TLS:CIPHER WHAT: one KTAP case, both directions at once,
# record sizes 1 B..16 KiB, 384 KiB each way.
matrix_desc() {	# WHAT TLS CIPHER
	local desc="$1: TLS $2 AES-GCM-$3, both ways, records 1 B-16 KiB, byte-exact"
	case $1:$2 in
	offload:1.2) desc+=", tls_stat, NIC counters" ;;
	offload:*) desc+=", in software (tls_device offloads 1.2 only)" ;;
	*) desc+=", tls_stat" ;;
	esac
	echo "$desc"
}
matrix_case() {
	local tls=${1%:*} ci=${1#*:}
	ktap_test_result "$(matrix_desc "$2" "$tls" "$ci")" \
		pair_run "m$OFFLOAD-$tls-$ci" "$tls" "$ci" 1 --dir both --bytes 393216 \
			--rec-min 1 --rec-max 16384
}

# records_case WHAT: small records (1-31 B, TLS 1.2/128 and 1.3/256 or
# 1.2/256 offloaded, both ways) and full 16 KiB records (1 MiB, to the
# server).
records_case() {
	local t2=1.3
	[ $OFFLOAD = 1 ] && t2=1.2
	ktap_test_result "$1: records of 1-31 B both ways, and of 16 KiB, byte-exact" eval \
		'pair_run small$OFFLOAD-a 1.2 128 1 --dir both --bytes 16384 --rec-min 1 --rec-max 31 &&
		 pair_run small$OFFLOAD-b $t2 256 1 --dir both --bytes 16384 --rec-min 1 --rec-max 31 &&
		 pair_run full$OFFLOAD 1.2 128 1 --dir tx --bytes 1048576 --rec-min 16384 --rec-max 16384'
}

# sendfile_case WHAT: sendfile() of a 1 MiB file (plus 777 B: a partial
# last page) both ways, then again with TLS_TX_ZEROCOPY_RO on the sending
# sockets (a device offload may send the page-cache pages as they are;
# software kTLS ignores it).
sendfile_case() {
	local f=$RXB_TMP/sendfile.bin
	[ -s "$f" ] || head -c $((1048576 + 777)) /dev/urandom >"$f"
	SARGS="--sendfile $f"
	ktap_test_result "$1: sendfile() of a 1 MiB file both ways, also zero-copy, byte-exact, tls_stat" \
		eval 'pair_run "sendfile$OFFLOAD" 1.2 128 1 --dir both --sendfile "$f" &&
		      pair_run "sendfile-zc$OFFLOAD" 1.2 256 1 --dir both --sendfile "$f" --zerocopy'
	SARGS=
}

# netem_set ARGS...: netem ARGS as the root qdisc of both ports, with GSO
# and TSO off (so that the loss and the reordering hit wire packets);
# "netem_set" alone removes it and restores GSO and TSO.
declare -A SEGOFF=()
netem_set() {
	local p
	for p in rxb0 rxb1; do
		rxb_in $p tc qdisc del dev $p root 2>/dev/null
		if [ $# = 0 ]; then
			# shellcheck disable=SC2086
			[ -n "${SEGOFF[$p]:-}" ] && rxb_in $p ethtool -K $p ${SEGOFF[$p]} 2>/dev/null
			continue
		fi
		SEGOFF[$p]="gso $(feat $p generic-segmentation-offload | cut -d' ' -f1)"
		SEGOFF[$p]+=" tso $(feat $p tcp-segmentation-offload | cut -d' ' -f1)"
		rxb_in $p ethtool -K $p gso off tso off 2>/dev/null
		rxb_in $p tc qdisc add dev $p root netem "$@" || return 1
	done
}

# netem_drops: packets netem dropped on both ports.
netem_drops() {
	local p n=0 l
	for p in rxb0 rxb1; do
		l=$(rxb_in $p tc -s qdisc show dev $p root)
		[[ $l =~ dropped\ ([0-9]+) ]] && n=$((n + BASH_REMATCH[1]))
	done
	echo $n
}

# netem_case WHAT NETEM ARGS...: under netem, two runs (TLS 1.2/128 and
# 1.3/256, or 1.2/256 offloaded) both ways, 1 MiB each way; then the
# losses and reordering must show: loss, netem drops and TCP
# retransmissions; reordering, out-of-order queueing at the receivers.
# With OFFLOAD=1 the NIC's recovery as well (netem_offload_expect).
netem_case() {
	local what=$1 ok=1 t2=1.3 retr=0 ofo=0 drops k n
	local -A sum=()
	shift
	if [ -n "${KTAP_SKIP_WHY:-}" ]; then
		ktap_test_skip "$what: netem $* on both ports, both ways, byte-exact" "$KTAP_SKIP_WHY"
		return
	fi
	[ $OFFLOAD = 1 ] && t2=1.2
	NETEM=1
	if ! netem_set "$@"; then
		NETEM=0
		ktap_test_fail "$what: tc qdisc add ... netem $* failed"
		return
	fi
	for k in a b; do
		local tls=1.2 ci=128
		[ $k = b ] && tls=$t2 ci=256
		# the counters are summed even when a run fails
		pair_run "netem$OFFLOAD-$k" $tls $ci 1 --dir both --bytes 1048576 || ok=0
		retr=$((retr + $(tls_d "$NS0" TcpRetransSegs) + $(tls_d "$NS1" TcpRetransSegs)))
		ofo=$((ofo + $(tls_d "$NS0" TcpExtTCPOFOQueue) + $(tls_d "$NS1" TcpExtTCPOFOQueue)))
		sum[TlsRxDeviceResync]=$((${sum[TlsRxDeviceResync]:-0} +
			$(tls_d "$NS0" TlsRxDeviceResync) + $(tls_d "$NS1" TlsRxDeviceResync)))
		if [ $OFFLOAD = 1 ]; then
			for n in tx:tls_dumps rx:tls_resync_req rx:tls_encrypted; do
				sum[$n]=$((${sum[$n]:-0} + $(nic_qd rxb0 ${n%%:*} ${n#*:}) +
					$(nic_qd rxb1 ${n%%:*} ${n#*:})))
			done
			sum[confirmed]=$((${sum[confirmed]:-0} + $(nic_d rxb0 tls_resync_confirmed) +
				$(nic_d rxb1 tls_resync_confirmed)))
		fi
	done
	drops=$(netem_drops)
	netem_set
	NETEM=0
	ktap_print_msg "$what: netem dropped $drops packets; TCP retransmitted $retr segments," \
		"queued $ofo out of order; TlsRxDeviceResync +${sum[TlsRxDeviceResync]:-0}" \
		"$([ $OFFLOAD = 1 ] && echo "; NIC: TX dumps ${sum[tx:tls_dumps]:-0}," \
			"resync requests ${sum[rx:tls_resync_req]:-0}, confirmed ${sum[confirmed]:-0}," \
			"packets up encrypted ${sum[rx:tls_encrypted]:-0}")"
	case $* in
	*loss*) [ "$drops" -gt 0 ] && [ "$retr" -gt 0 ] ||
			{ ktap_print_msg "$what: no loss seen"; ok=0; } ;;
	*reorder*) [ "$ofo" -gt 0 ] || { ktap_print_msg "$what: no reordering seen"; ok=0; } ;;
	esac
	if [ $OFFLOAD = 1 ]; then
		case $* in
		*loss*)
			[ "${sum[rx:tls_resync_req]:-0}" -gt 0 ] && [ "${sum[confirmed]:-0}" -gt 0 ] &&
				[ "${sum[TlsRxDeviceResync]:-0}" -gt 0 ] ||
				{ ktap_print_msg "$what: no NIC resync requested and confirmed"; ok=0; }
			[ "${sum[tx:tls_dumps]:-0}" -gt 0 ] ||
				{ ktap_print_msg "$what: $retr retransmissions, no TX record dump"; ok=0; }
			;;
		esac
	fi
	ktap_test_result "$what: netem $* on both ports, both ways, byte-exact" [ "$ok" = 1 ]
}

# ---- 1, 2: rxb_ktls itself ---------------------------------------------------
# Cases 1, 2 and 4-17 exercise rxb_ktls and the kernel's software kTLS over
# the pair, not tls_device: on one kernel of make test's (rxb_kdep_only).
rxb_kdep_only && KTAP_SKIP_WHY=$RXB_KDEP_WHY

args_case() {
	local a out rc bad=0
	while IFS= read -r a; do
		# shellcheck disable=SC2086
		out=$("$KTLS" $a 2>&1 >/dev/null)
		rc=$?
		if [ $rc != 2 ] || [[ $out != *usage:* ]]; then
			ktap_print_msg "rxb_ktls $a: exit $rc, ${out%%$'\n'*}"
			bad=1
		fi
	done <<-EOF

		bogus
		server --seed 1
		server --port 0 --seed 1
		server --port 12x --seed 1
		server --port 4000 --seed -1
		server --port 4000 --seed 1 --bytes 100
		server --port 4000 --seed 1 --tls 1.1
		client --port 4000 --seed 1 --bytes 100
		client --addr 192.0.2 --port 4000 --seed 1 --bytes 100
		client --addr 192.0.2.2 --port 4000 --seed 1
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 0
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 99999999999999999999999
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --rec-max 16385
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --rec-min 9 --rec-max 8
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --dir sideways
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --conns 65
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --corrupt 100
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --sendfile /dev/null
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --zerocopy
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 surplus
		client --addr 192.0.2.2 --port 4000 --seed 1 --bytes 100 --port
	EOF
	[ $bad = 0 ]
}
ktap_test_result "rxb_ktls: missing arguments, bad numbers, sizes out of range refused with the usage (exit 2)" \
	args_case

# a byte flipped before encryption (the receiver names its offset), a
# different key, a different TLS version (a bad record MAC): both ends
# fail, TlsDecryptError moves for the two bad MACs
neg_case() {
	local ok=1
	tls_snap 0 "$NS1"
	ktls_run neg-corrupt "$NS1" "$RXB_IP1" "$NS0" "" --bytes 200000 --corrupt 123457 &&
		ok=0
	grep -q 'data differs at offset 123457: expected 0x' "$RXB_TMP/neg-corrupt.srv" || ok=0
	ktls_run neg-seed "$NS1" "$RXB_IP1" "$NS0" "" --bytes 1000 --seed $((SEED + 1)) && ok=0
	grep -q 'bad TLS record MAC' "$RXB_TMP/neg-seed.srv" || ok=0
	ktls_run neg-ver "$NS1" "$RXB_IP1" "$NS0" "--tls 1.2" --bytes 1000 --tls 1.3 && ok=0
	grep -q 'bad TLS record MAC' "$RXB_TMP/neg-ver.srv" || ok=0
	tls_snap 1 "$NS1"
	ktap_print_msg "TlsDecryptError +$(tls_d "$NS1" TlsDecryptError) in the server's namespace"
	[ "$ok" = 1 ] && [ "$(tls_d "$NS1" TlsDecryptError)" -ge 2 ]
}
ktap_test_result "rxb_ktls catches a flipped byte (its offset), a wrong key, a wrong TLS version" \
	neg_case

# ---- 3: the features, off by default ------------------------------------------
KTAP_SKIP_WHY=

ok=1
for p in rxb0 rxb1; do
	for f in tls-hw-tx-offload tls-hw-rx-offload; do
		v=$(feat $p $f)
		ktap_print_msg "$p $f: ${v:-(not listed)}"
		[[ $v == off* ]] || ok=0
	done
done
ktap_test_result "ethtool -k: tls-hw-tx-offload and tls-hw-rx-offload off by default on both ports" \
	[ "$ok" = 1 ]

# ---- 4-11: software kTLS over the pair -----------------------------------------
rxb_kdep_only && KTAP_SKIP_WHY=$RXB_KDEP_WHY

for c in $COMBOS; do
	matrix_case "$c" "software"
done
records_case "software"
sendfile_case "software"
ktap_test_result "software: 3 connections open at once, then 3 one after the other, byte-exact" eval \
	'pair_run conns 1.2 256 3 --dir both --bytes 131072 --conns 3 &&
	 pair_run serial 1.3 128 3 --dir both --bytes 131072 --conns 3 --serial'

# ---- 12-15: veth, the reference ------------------------------------------------

veth_run() {	# TLS CIPHER
	local ok=1
	tls_snap 0 "$VA" "$VB"
	ktls_run "veth-$1-$2" "$VB" $VIP1 "$VA" "--tls $1 --cipher $2" --tls "$1" --cipher "$2" \
		--dir both --bytes 393216 --rec-min 1 --rec-max 16384 || return 1
	tls_snap 1 "$VA" "$VB"
	tls_expect "$VA" 1 1 0 0 || ok=0
	tls_expect "$VB" 1 1 0 0 || ok=0
	[ "$ok" = 1 ]
}
# veth_setup: the pair vtls0 ($VA, $VIP0) - vtls1 ($VB, $VIP1); prints why
# not on failure.
veth_setup() {
	ip netns add $VA && ip netns add $VB || { echo "cannot add namespaces"; return 1; }
	ip -n $VA link add vtls0 type veth peer name vtls1 netns $VB 2>/dev/null ||
		{ echo "no veth (modprobe veth)"; return 1; }
	ip -n $VA link set lo up && ip -n $VB link set lo up &&
		ip -n $VA addr add $VIP0/24 dev vtls0 && ip -n $VB addr add $VIP1/24 dev vtls1 &&
		ip -n $VA link set vtls0 up && ip -n $VB link set vtls1 up ||
		{ echo "cannot configure the veth pair"; return 1; }
}
VA=rxb-va-$$-$RANDOM
VB=rxb-vb-$$-$RANDOM
if [ -n "${KTAP_SKIP_WHY:-}" ]; then
	vwhy=$KTAP_SKIP_WHY
else
	vwhy=$(veth_setup) && ns_anchor "$VA" && ns_anchor "$VB"
fi
for c in $COMBOS; do
	if [ -n "$vwhy" ]; then
		ktap_test_skip "veth: TLS ${c%:*} AES-GCM-${c#*:}, both ways, byte-exact, tls_stat" "$vwhy"
	else
		ktap_test_result "veth: TLS ${c%:*} AES-GCM-${c#*:}, both ways, byte-exact, tls_stat" \
			veth_run "${c%:*}" "${c#*:}"
	fi
done

# ---- 16, 17: loss and reordering -----------------------------------------------

netem_case "software" loss 2%
netem_case "software" delay 1ms reorder 2%
KTAP_SKIP_WHY=

# ---- 18-28: the device offload ----------------------------------------------------

# offload_set STATE [IF...]: both features to STATE (on|off) on the ports
# (default both); 0 when ethtool -k then shows them so.
offload_set() {
	local s=$1 p ok=0
	shift
	[ $# = 0 ] && set -- rxb0 rxb1
	for p in "$@"; do
		rxb_in "$p" ethtool -K "$p" tls-hw-tx-offload "$s" tls-hw-rx-offload "$s" 2>&1 |
			sed 's/^/# /'
		[ "$(feat "$p" tls-hw-tx-offload)" = "$s" ] &&
			[ "$(feat "$p" tls-hw-rx-offload)" = "$s" ] || ok=1
	done
	return $ok
}

OFFLOAD_CASES=(
	"ethtool -K tls-hw-tx-offload on tls-hw-rx-offload on, on rxb0 and rxb1"
	"$(matrix_desc offload 1.2 128)"
	"$(matrix_desc offload 1.2 256)"
	"$(matrix_desc offload 1.3 128)"
	"$(matrix_desc offload 1.3 256)"
	"offload: records of 1-31 B both ways, and of 16 KiB, byte-exact"
	"offload: sendfile() of a 1 MiB file both ways, also zero-copy, byte-exact, tls_stat"
	"offload: netem loss 2% on both ports, both ways, byte-exact"
	"offload: netem delay 1ms reorder 2% on the wire below the NICs, both ways, byte-exact, NIC resyncs"
	"offload toggled off and on under traffic: byte-exact, new sockets take the setting"
	"offload on every ring model (switched at run time): byte-exact, on the device path"
	"openssl s_server -sendfile and s_client (Options = KTLS) over the offload: byte-exact, on the device path"
	"tls_contexts=2: the third socket stays in software, all byte-exact"
	"engine=cpuN, 64-frame Tx ring: offloaded frames sent by the NIC's engine thread (tx<q>_engine), byte-exact"
	"tls_resync=async, netem loss 3%: async resync requests started, answered, ended and confirmed, byte-exact"
)
owhy=
out=$(rxb_in rxb0 ethtool -K rxb0 tls-hw-tx-offload on 2>&1)
if [ "$(feat rxb0 tls-hw-tx-offload)" != on ] && [ "${RXB_TLS_FORCE_OFFLOAD:-0}" != 1 ]; then
	owhy="offload not implemented in this module (tls-hw-tx-offload $(feat rxb0 tls-hw-tx-offload))"
	ktap_print_msg "ethtool -K rxb0 tls-hw-tx-offload on: ${out:-no message}"
	for d in "${OFFLOAD_CASES[@]}"; do
		ktap_test_skip "$d" "$owhy"
	done
	ktap_finished
fi

# 18
if offload_set on rxb0 rxb1; then
	ktap_test_pass "${OFFLOAD_CASES[0]}"
else
	ktap_test_fail "${OFFLOAD_CASES[0]}"
	[ "${RXB_TLS_FORCE_OFFLOAD:-0}" = 1 ] || rxb_bail "the offload does not turn on on both ports"
fi
OFFLOAD=1

# 19-24
for c in $COMBOS; do
	matrix_case "$c" "offload"
done
records_case "offload"
sendfile_case "offload"

# 25
netem_case "offload" loss 2%

# 26: reordering.  netem with a delay cannot sit on a port that offloads
# TLS: netem orphans the skb and the stack then drops an offloaded skb
# ("unencrypted skb with no associated socket"; mlx5 alike).  So on the
# wire below the NICs: two ports stacked on a veth pair (lower.sh), netem on
# the veths, which carry the NICs' ciphertext.
WA=rxb-wa-$$-$RANDOM
WB=rxb-wb-$$-$RANDOM
WIP0=203.0.113.1
WIP1=203.0.113.2
wire_setup() {
	ip link add rxbwA type veth peer name rxbwB && ip link set rxbwA up &&
		ip link set rxbwB up &&
		ip link add link rxbwA name rxbtA type rxbisect &&
		ip link add link rxbwB name rxbtB type rxbisect &&
		ip netns add $WA && ip netns add $WB &&
		ip link set rxbtA netns $WA && ip link set rxbtB netns $WB &&
		ip -n $WA addr add $WIP0/24 dev rxbtA && ip -n $WA link set lo up &&
		ip -n $WA link set rxbtA up &&
		ip -n $WB addr add $WIP1/24 dev rxbtB && ip -n $WB link set lo up &&
		ip -n $WB link set rxbtB up || return 1
	# lib.sh's map of ports to namespaces (rxb_in, rxb_snap)
	# shellcheck disable=SC2034
	RXB_NS["rxbtA"]=$WA RXB_NS["rxbtB"]=$WB
	offload_set on rxbtA rxbtB && ns_anchor $WA && ns_anchor $WB &&
		tc qdisc add dev rxbwA root netem delay 1ms reorder 2% &&
		tc qdisc add dev rxbwB root netem delay 1ms reorder 2%
}
wire_case() {
	local ok=1 ofo n
	local -A sum=()
	wire_setup || { ktap_print_msg "cannot set up the veth wire"; return 1; }
	tls_snap 0 "$WA" "$WB"
	nic_snap 0 rxbtA rxbtB
	ktls_run wire "$WB" $WIP1 "$WA" "--tls 1.2 --cipher 256" --tls 1.2 --cipher 256 \
		--dir both --bytes 1048576 || ok=0
	tls_snap 1 "$WA" "$WB"
	nic_snap 1 rxbtA rxbtB
	ofo=$(($(tls_d "$WA" TcpExtTCPOFOQueue) + $(tls_d "$WB" TcpExtTCPOFOQueue)))
	for n in tx:tls_dumps tx:tls_drops rx:tls_resync_req rx:tls_encrypted rx:tls_decrypted \
		 rx:tls_auth_fail; do
		sum[$n]=$(($(nic_qd rxbtA ${n%%:*} ${n#*:}) + $(nic_qd rxbtB ${n%%:*} ${n#*:})))
	done
	sum[confirmed]=$(($(nic_d rxbtA tls_resync_confirmed) + $(nic_d rxbtB tls_resync_confirmed)))
	sum[resync]=$(($(tls_d "$WA" TlsRxDeviceResync) + $(tls_d "$WB" TlsRxDeviceResync)))
	ktap_print_msg "wire: queued $ofo out of order; NIC: decrypted ${sum[rx:tls_decrypted]}," \
		"up encrypted ${sum[rx:tls_encrypted]}, resync requests ${sum[rx:tls_resync_req]}," \
		"confirmed ${sum[confirmed]} (TlsRxDeviceResync +${sum[resync]}), TX dumps" \
		"${sum[tx:tls_dumps]}, drops ${sum[tx:tls_drops]}, auth failures ${sum[rx:tls_auth_fail]}"
	tls_expect "$WA" 0 0 1 1 || ok=0
	tls_expect "$WB" 0 0 1 1 || ok=0
	[ "$ofo" -gt 0 ] || { ktap_print_msg "wire: no reordering seen"; ok=0; }
	[ "${sum[rx:tls_decrypted]}" -gt 0 ] && [ "${sum[rx:tls_resync_req]}" -gt 0 ] &&
		[ "${sum[confirmed]}" -gt 0 ] && [ "${sum[resync]}" -gt 0 ] &&
		[ "${sum[tx:tls_drops]}" = 0 ] && [ "${sum[rx:tls_auth_fail]}" = 0 ] || ok=0
	[ "$ok" = 1 ]
}
ktap_test_result "${OFFLOAD_CASES[8]}" wire_case
ip link del rxbwA 2>/dev/null

# 27: toggled under traffic: four connections one after the other, the
# offload turned off halfway through the first, on in the second, ...: the
# first and third offloaded, the second and fourth in software, each
# connection keeping its mode when the setting changes under it
TOGGLE=$RXB_TMP/toggle.sh
cat >"$TOGGLE" <<-EOF
	#!/bin/sh
	s=\$(cat $RXB_TMP/toggle.state)
	[ "\$s" = on ] && s=off || s=on
	ip netns exec $NS0 ethtool -K rxb0 tls-hw-tx-offload \$s tls-hw-rx-offload \$s &&
	ip netns exec $NS1 ethtool -K rxb1 tls-hw-tx-offload \$s tls-hw-rx-offload \$s &&
	echo \$s >$RXB_TMP/toggle.state
EOF
chmod +x "$TOGGLE"
echo on >"$RXB_TMP/toggle.state"
toggle_case() {
	local ok=1 ns
	tls_snap 0 "$NS0" "$NS1"
	ktls_run toggle "$NS1" "$RXB_IP1" "$NS0" "--tls 1.2" --tls 1.2 --dir both \
		--bytes 524288 --conns 4 --serial --toggle-cmd "$TOGGLE" || return 1
	tls_snap 1 "$NS0" "$NS1"
	[ "${KC[toggles]}" = 4 ] || { ktap_print_msg "toggled ${KC[toggles]} times"; ok=0; }
	for ns in "$NS0" "$NS1"; do
		tls_expect "$ns" 2 2 2 2 || ok=0
	done
	offload_set on || ok=0
	[ "$ok" = 1 ]
}
ktap_test_result "offload toggled off and on under traffic: byte-exact, new sockets take the setting" \
	toggle_case

# 28: every ring model: the NIC's TLS stage is the same for all, and its
# report travels in every model's completion
models_case() {
	local m ok=1 models
	models=$(rxb_models | xargs)
	[ -n "$models" ] || { ktap_print_msg "no models listed"; return 1; }
	for m in $models; do
		echo "$m" >/sys/module/rxbisect/parameters/ring_model ||
			{ ktap_print_msg "$m: cannot switch"; ok=0; continue; }
		rxb_static_neigh rxb0 rxb1
		pair_run "model-$m" 1.2 128 1 --dir both --bytes 262144 ||
			{ ktap_print_msg "$m: failed"; ok=0; }
	done
	echo privring >/sys/module/rxbisect/parameters/ring_model
	rxb_static_neigh rxb0 rxb1
	[ "$ok" = 1 ]
}
ktap_test_result "offload on every ring model (switched at run time): byte-exact, on the device path" \
	models_case

# 29: a client and server users already have, unmodified: Debian's openssl
# (built with KTLS) told by its configuration to use kTLS, the server's
# -sendfile sending the file's page-cache pages through the offload
ossl_case() {
	local ok=1 d=$RXB_TMP/ossl spid size=1048576
	mkdir -p "$d" && head -c $size /dev/urandom >"$d/f.bin" || return 1
	cat >"$d/ktls.cnf" <<-EOF
		openssl_conf = openssl_init
		[openssl_init]
		ssl_conf = ssl_sect
		[ssl_sect]
		system_default = system_default_sect
		[system_default_sect]
		Options = KTLS
	EOF
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$d/k.pem" -out "$d/c.pem" -days 2 -subj /CN=rxb >/dev/null 2>&1 ||
		{ ktap_print_msg "openssl req failed"; return 1; }
	tls_snap 0 "$NS0" "$NS1"
	nic_snap 0 rxb0 rxb1
	(cd "$d" && OPENSSL_CONF=$d/ktls.cnf exec ip netns exec "$NS1" openssl s_server \
		-accept 4499 -cert c.pem -key k.pem -tls1_2 \
		-cipher ECDHE-ECDSA-AES128-GCM-SHA256 -WWW -sendfile) >"$d/srv.log" 2>&1 &
	spid=$!
	RXB_PIDS+=("$spid")
	for _ in {1..50}; do
		grep -q ACCEPT "$d/srv.log" && break
		rxb_sleep 0.1
	done
	printf 'GET /f.bin HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$d/ktls.cnf ip netns exec "$NS0" \
		timeout 60 openssl s_client -connect "$RXB_IP1:4499" -tls1_2 \
		-cipher ECDHE-ECDSA-AES128-GCM-SHA256 -quiet -ign_eof >"$d/out.bin" 2>"$d/cli.log"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	tls_snap 1 "$NS0" "$NS1"
	nic_snap 1 rxb0 rxb1
	ktap_print_msg "openssl: $(grep -m1 -o 'KTLS SENDFILE.*' "$d/srv.log");" \
		"client got $(stat -c %s "$d/out.bin") B; server TlsTxDevice +$(tls_d "$NS1" TlsTxDevice)," \
		"client TlsRxDevice +$(tls_d "$NS0" TlsRxDevice); rxb1's NIC encrypted" \
		"$(nic_qd rxb1 tx tls_records) records, rxb0's decrypted $(nic_qd rxb0 rx tls_records)"
	tail -c $size "$d/out.bin" | cmp -s - "$d/f.bin" ||
		{ ktap_print_msg "openssl: the file differs"; ok=0; }
	grep -q "KTLS SENDFILE 'f.bin' OK" "$d/srv.log" || ok=0
	[ "$(tls_d "$NS1" TlsTxDevice)" = 1 ] && [ "$(tls_d "$NS0" TlsRxDevice)" = 1 ] &&
		[ "$(tls_d "$NS0" TlsDecryptError)" = 0 ] &&
		[ "$(nic_qd rxb1 tx tls_records)" -ge $((size / 16384)) ] &&
		[ "$(nic_qd rxb0 rx tls_records)" -gt 0 ] || ok=0
	[ "$ok" = 1 ]
}
if ! openssl s_server -help 2>&1 | grep -q -- -sendfile; then
	ktap_test_skip "${OFFLOAD_CASES[11]}" "this openssl has no s_server -sendfile (no KTLS)"
else
	ktap_test_result "${OFFLOAD_CASES[11]}" ossl_case
fi

# 30: the context table, 2 contexts: three sockets at once with TX
# offload on rxb0 only; the third stays in software
ctx_case() {
	local ok=1
	rxb_load tls_contexts=2 && rxb_setup_netns || { ktap_print_msg "cannot reload"; return 1; }
	rxb_in rxb0 ethtool -K rxb0 tls-hw-tx-offload on || return 1
	tls_snap 0 "$NS0" "$NS1"
	nic_snap 0 rxb0
	ktls_run ctx "$NS1" "$RXB_IP1" "$NS0" "--tls 1.2" --tls 1.2 --dir tx \
		--bytes 262144 --conns 3 || return 1
	tls_snap 1 "$NS0" "$NS1"
	nic_snap 1 rxb0
	ktap_print_msg "rxb0: tls_ctx_added +$(nic_d rxb0 tls_ctx_added)" \
		"refused +$(nic_d rxb0 tls_ctx_refused), NIC tx records $(nic_qd rxb0 tx tls_records)"
	tls_expect "$NS0" 1 3 2 0 || ok=0
	tls_expect "$NS1" 3 3 0 0 || ok=0
	[ "$(nic_d rxb0 tls_ctx_added)" = 2 ] && [ "$(nic_d rxb0 tls_ctx_refused)" = 1 ] || ok=0
	[ "$ok" = 1 ]
}
if ! modinfo -F parm "${RXB_KO:-rxbisect}" 2>/dev/null | grep -q '^tls_contexts:'; then
	ktap_test_skip "tls_contexts=2: the third socket stays in software, all byte-exact" \
		"the module has no tls_contexts parameter"
else
	ktap_test_result "tls_contexts=2: the third socket stays in software, all byte-exact" ctx_case
fi

# 31: the NIC on its engine thread: an offloaded socket's frames take the
# one transmit path (the doorbell, then the sending NIC's engine thread:
# the TLS engine, TSO, the wire), behind a 64-frame Tx ring
engine_case() {
	local ok=1 p last=$(($(nproc) - 1))
	rxb_load engine=cpu$last && rxb_setup_netns && offload_set on ||
		{ ktap_print_msg "cannot reload with engine=cpu$last"; return 1; }
	for p in rxb0 rxb1; do
		rxb_in $p ethtool -G $p tx 64 && rxb_in $p tc qdisc replace dev $p root mq ||
			return 1
	done
	pair_run engine 1.2 128 1 --dir both --bytes 524288 --rec-min 1 --rec-max 16384 || ok=0
	for p in rxb0 rxb1; do
		ktap_print_msg "$p: tx_engine +$(nic_qd $p tx engine), tx_packets" \
			"+$(nic_qd $p tx packets), tls_packets +$(nic_qd $p tx tls_packets)," \
			"tx_stops +$(nic_qd $p tx stops), tx_drops +$(nic_qd $p tx drops)"
		[ "$(nic_qd $p tx engine)" -gt 0 ] && [ "$(nic_qd $p tx tls_packets)" -gt 0 ] &&
			[ "$(nic_qd $p tx drops)" = 0 ] || ok=0
	done
	[ "$ok" = 1 ]
}
ktap_test_result "${OFFLOAD_CASES[13]}" engine_case

# 32: the async resync (tls_resync=async, as mlx5): under loss the NIC's
# requests name a frame (the stack logs the headers it parses there), the
# driver asks the NIC which header, and the NIC's answer ends the request;
# the stack then confirms, and the NIC decrypts again.  Runs of 1 MiB
# each way, TLS 1.2 (tls_device offloads no other).
async_case() {
	local ok=1 n runs
	local -A sum=()
	rxb_load tls_resync=async && rxb_setup_netns && offload_set on ||
		{ ktap_print_msg "cannot reload with tls_resync=async"; return 1; }
	netem_set loss 3% || { ktap_print_msg "tc qdisc add ... netem loss 3% failed"; return 1; }
	NETEM=1
	# The NIC applies a confirmation on the connection's next frame, so
	# one the stack gives near the end of a run is never applied; where
	# netem's losses fall is random.  Up to three runs, until one is.
	for runs in 1 2 3; do
		pair_run async 1.2 256 1 --dir both --bytes 1048576 || ok=0
		for n in tls_resync_async_start tls_resync_async_end tls_resync_async_skip \
			 tls_resync_confirmed; do
			sum[$n]=$((${sum[$n]:-0} + $(nic_d rxb0 $n) + $(nic_d rxb1 $n)))
		done
		for n in tls_resync_req tls_resync_progress tls_decrypted tls_encrypted; do
			sum[$n]=$((${sum[$n]:-0} + $(nic_qd rxb0 rx $n) + $(nic_qd rxb1 rx $n)))
		done
		sum[resync]=$((${sum[resync]:-0} + $(tls_d "$NS0" TlsRxDeviceResync) +
			$(tls_d "$NS1" TlsRxDeviceResync)))
		sum[derr]=$((${sum[derr]:-0} + $(tls_d "$NS0" TlsDecryptError) +
			$(tls_d "$NS1" TlsDecryptError)))
		[ "${sum[tls_resync_confirmed]}" -gt 0 ] && break
	done
	netem_set
	NETEM=0
	ktap_print_msg "async: $runs run(s) of 1 MiB each way"
	ktap_print_msg "async: NIC requests ${sum[tls_resync_req]}, progress answers" \
		"${sum[tls_resync_progress]}; driver: started ${sum[tls_resync_async_start]}," \
		"ended ${sum[tls_resync_async_end]}, cancelled ${sum[tls_resync_async_skip]};" \
		"confirmed ${sum[tls_resync_confirmed]} (TlsRxDeviceResync +${sum[resync]});" \
		"packets decrypted ${sum[tls_decrypted]}, up encrypted ${sum[tls_encrypted]}," \
		"TlsDecryptError +${sum[derr]}"
	[ "${sum[tls_resync_async_start]}" -gt 0 ] &&
		[ "${sum[tls_resync_progress]}" -gt 0 ] && [ "${sum[tls_resync_async_end]}" -gt 0 ] &&
		[ "${sum[tls_resync_confirmed]}" -gt 0 ] && [ "${sum[resync]}" -gt 0 ] &&
		[ "${sum[tls_encrypted]}" -gt 0 ] && [ "${sum[derr]}" = 0 ] || ok=0
	[ "$ok" = 1 ]
}
if ! modinfo -F parm "${RXB_KO:-rxbisect}" 2>/dev/null | grep -q '^tls_resync:'; then
	ktap_test_fail "${OFFLOAD_CASES[14]}"
	ktap_print_msg "the module has no tls_resync parameter"
else
	ktap_test_result "${OFFLOAD_CASES[14]}" async_case
fi

ktap_finished
