#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the plots of Documentation/simulator.rst (and print the
# tables they come from).  Every run uses the calibrated NF of opts.c
# (--cycles, predict.py), the one of the prediction table, from an empty
# start (the table's runs start stalled: simulator.rst, "The stalled
# start").  About 15 minutes of one core.
#
# Usage: experiments.sh [OUTDIR]   (default: Documentation/images)

set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Documentation/images}
sim=$here/rxbisect-sim
mkdir -p "$out"
[ -x "$sim" ] || make -C "$here" >/dev/null

run() {
	echo "+ rxbisect-sim $*"
	"$sim" "$@"
	echo
}

# (1) Paper Fig. 2: privRing vs ring size, 16 cores, 2 x 100 Gbps, the
# figure's LB (predict.py: two reads in a 640 MiB flow table).
run --packets 300000 --app-mem 640M --sweep ring=64,128,256,512,1024,2048,4096 \
	--series touch-lines=1,0 \
	--columns gbps,drop_pct,lat_p99_us,occ_pct,ddio_hit,cpu_hit,mem_gbs,wss_mib,pcie_rd_us \
	--plot "$out/sim-fig2-privring-ring-size.png" \
	--plot-y gbps,lat_p99_us,occ_pct,mem_gbs,ddio_hit,cpu_hit \
	--plot-title 'privRing vs ring size (paper Fig. 2)'

# (1) Paper Fig. 13: privRing Rx size vs rxBisect Bx size, |Ax| = 128, LB.
run --packets 300000 --app-mem 640M --sweep ring=128,256,512,1024,2048,4096 \
	--case 'privRing:model=privring' \
	--case 'rxBisect Ax 128:model=rxbisect,ax=128' \
	--columns gbps,drop_pct,lat_p99_us,ddio_hit,mem_gbs,wss_mib \
	--plot "$out/sim-fig13-rx-bx-size.png" --plot-y gbps,wss_mib \
	--plot-title 'Rx (privRing) / Bx (rxBisect) size, |Ax| = 128 (paper Fig. 13)'

# (2) mu vs lambda: occupancy and latency against per-packet cycles, the
# LLC big enough that only queueing differs.
run --packets 300000 --warmup 0.5 --llc 256M --llc-ways 16 --ddio-ways 16 \
	--sweep cycles=1000,1400,1800,2200,2600,3000 \
	--case 'privRing 128:model=privring,ring=128' \
	--case 'privRing 1024:model=privring,ring=1024' \
	--case 'shRing 1024/8:model=shring,ring=1024,share=8' \
	--case 'rxBisect 128/1024:model=rxbisect,ring=1024' \
	--columns gbps,drop_pct,lat_p50_us,lat_p99_us,occ,util \
	--plot "$out/sim-mu-lambda.png" --plot-y occ,lat_p99_us \
	--plot-title 'mu vs lambda (thesis Fig. 5.7f/g)'

# (3) Burst absorption: bursts to one of 8 cores (paper Fig. 9).
run --packets 300000 --warmup 0.1 --cores 8 --ports 1 --arrival burst \
	--load 0.06 --target 0 --target-share 1 \
	--sweep burst=64,128,256,512,768,1024 \
	--case 'privRing 128:model=privring,ring=128' \
	--case 'privRing 1024:model=privring,ring=1024' \
	--case 'rxBisect 128/1024:model=rxbisect,ring=1024' \
	--case 'shRing 1024/8:model=shring,ring=1024,share=8' \
	--columns gbps,drop_pct,lat_p99_us,wss_mib \
	--plot "$out/sim-burst.png" --plot-y drop_pct \
	--plot-title 'Bursts to one of 8 cores'

# (4) Processing variability: 1 Gbps to one core per port, which makes
# more memory accesses per packet (paper Fig. 14).
run --packets 300000 --warmup 0.4 --target 0 --target-share 0.01 \
	--sweep target-accesses=0,50,100,200,400,800 \
	--case 'small privRing 128:model=privring,ring=128' \
	--case 'privRing 1024:model=privring,ring=1024' \
	--case 'rxBisect 128/1024:model=rxbisect,ring=1024' \
	--case 'shRing 1024/8:model=shring,ring=1024,share=8' \
	--columns gbps,drop_pct,lat_p99_us,mem_gbs \
	--plot "$out/sim-slow-core.png" --plot-y gbps \
	--plot-title 'One slow core per port (paper Fig. 14)'

# (4) Traffic variability: a growing share of packets to one core per port,
# 64 B ones as in the paper (Fig. 15).
run --packets 300000 --warmup 0.4 --target 0 --target-pkt-size 64 \
	--sweep target-share=0.05,0.1,0.15,0.2,0.25,0.3 \
	--case 'small privRing 128:model=privring,ring=128' \
	--case 'privRing 1024:model=privring,ring=1024' \
	--case 'rxBisect 128/1024:model=rxbisect,ring=1024' \
	--case 'shRing 1024/8:model=shring,ring=1024,share=8' \
	--columns gbps,drop_pct,lat_p99_us,mem_gbs \
	--plot "$out/sim-flooded-core.png" --plot-y gbps \
	--plot-title 'One flooded core per port (paper Fig. 15)'

# (7) Dynamic shRing: high balanced load, then one slow core.
run --model dshring --ring 1024 --dsh-period-us 2000 --dsh-window 8 \
	--packets 1800000 --warmup 0.8 --target 0 --target-share 0.125 \
	--change 0.45:target-share=0.01 --change 0.45:target-accesses=300 \
	--columns gbps,drop_pct,lat_p99_us,mem_gbs,wss_mib --xstats |
	grep -v '^  rx[0-9]\|^  ring[0-9]'

# (8) Buffer pool 2|Rx| vs 4|Rx|, buffers held ~400 us (Tx completion).
run --ring 256 --load 0.9 --packets 500000 --hold-us 400 \
	--sweep pool-x=2,4 --columns gbps,drop_pct,alloc_fails,wss_mib
run --model rxbisect --ring 1024 --ax 128 --pool-x 2 --packets 800000 \
	--warmup 0.5 --target 0 --target-accesses 60 \
	--columns gbps,drop_pct,alloc_fails,wss_mib --per-queue --xstats |
	grep -v '^  rx[0-9]*_\(notif\|ax_\)'

# (9) CEIO beside privRing and rxBisect: credits = the DDIO ways' 4 MiB,
# Poisson and bursty arrivals (a table, no plot).
run --packets 500000 --sweep arrival=poisson,burst \
	--columns gbps,drop_pct,ddio_hit,cpu_hit,mem_gbs,mem_wr_gbs,wss_mib,res_peak,tier_pct,lat_p99_us \
	--case 'privRing 1Ki:model=privring,ring=1024' \
	--case 'privRing 128:model=privring,ring=128' \
	--case 'rxBisect 128/1Ki:model=rxbisect,ring=1024' \
	--case 'CEIO 1Ki async:model=ceio,ring=1024,ceio-fetch=async' \
	--case 'CEIO 128 async:model=ceio,ring=128,ceio-fetch=async' \
	--case 'CEIO 128 sync:model=ceio,ring=128,ceio-fetch=sync' \
	--case 'CEIO no credit:model=ceio,ring=128,ceio-fetch=async,ceio-force-slow=1'

# (10) Batched RxList (shring-batched, thesis 5.1.4): 64 B packets at a
# load the cores keep up with, then exp. (4)'s slow and flooded core in
# 4 KiB buffers (tables, no plot).
cols=gbps,drop_pct,ddio_hit,mem_gbs,wss_mib,wss_bufs,lat_p99_us,locks,allocs
cols=$cols,model_cyc,pcie_down_gbs,buf_errs,desc_wait_pct
run --packets 1000000 --pkt-size 64 --load 0.05 --columns "$cols" \
	--case 'privRing 1Ki:model=privring' --case 'shRing 1Ki/8:model=shring' \
	--case 'RxList 1Ki/8:model=shring-list' \
	--case 'batched 1Ki/8:model=shring-batched' \
	--case 'batched 64/8:model=shring-batched,ring=64'
# Head-of-line blocking alone (--desc-prefetch=0, the table), then with
# the NIC's descriptor cache.
for pf in 0 1; do
for v in "--target-share 0.01 --extra 0:0:300 --extra 8:0:300" \
	 "--target-share 0.3 --target-pkt-size 64"; do
	# shellcheck disable=SC2086 # $v: several options
	run --packets 500000 --warmup 0.4 --ddio-ways 11 --buf-stride 4096 \
		--desc-prefetch=$pf --target 0 $v \
		--columns gbps,drop_pct,nobuf,ring_full,wss_mib,lat_p99_us,locks,buf_errs \
		--case 'privRing 128:model=privring,ring=128' \
		--case 'shRing 1Ki/8:model=shring' \
		--case 'RxList 1Ki/8:model=shring-list' \
		--case 'batched 1Ki/8:model=shring-batched' \
		--case 'rxBisect:model=rxbisect'
done
done

# Thesis Fig. 5.3: RxList / RxArr as the share factor grows, with the
# NIC's descriptor cache (Documentation/simulator.rst, "Descriptor
# prefetch").
run --packets 300000 --sweep share=1,2,4,8 \
	--series model=shring,shring-list \
	--columns gbps,drop_pct,desc_wait_pct,desc_wait_us,desc_miss_pct,desc_rd_pkt \
	--plot "$out/sim-fig5.3-rxlist-rxarr.png" --plot-y gbps,desc_wait_pct \
	--plot-title 'RxList vs RxArr throughput by share factor (thesis Fig. 5.3)'

# (12) COREC (Tables 2 and 3): 1 to 4 consumers of one XL710 queue, 64 B,
# the NIC's 37.7 Mpps, l3fwd (128 cycles) and ipsec-secgw (417); each with
# and without the buffers' metadata transfers (--buf-xfer).
for cyc in 128 417; do
	run --packets 300000 --ports 1 --link-gbps 40 --pkt-size 64 --cycles $cyc \
		--app-accesses 0 --nic-mpps 37.7 --model corec --sweep cores=1,2,3,4 \
		--series buf-xfer=1,0 \
		--columns mpps,drop_pct,util,cyc_pkt,model_cyc,xfers,buf_xfers,xfer_wait_ns,desc_wait_pct
done
