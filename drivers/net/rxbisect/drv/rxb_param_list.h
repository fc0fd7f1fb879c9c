/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-model parameters, each declared once: an entry
 *
 *	RXB_PARAM(name, type, limits, default, check)
 *
 * and its description, RXB_PARAM_DESC_<name> (rxb_params.h says what they
 * make and what the columns mean).  Included wherever RXB_PARAM() is
 * defined to make one of those things; RXB_PARAM() is undefined at the
 * end.  The order is that of rxb_params[], of devlink's parameter ids and
 * of modinfo.
 */

#define RXB_PARAM_DESC_ring_model "Receive ring model (Documentation/rxbisect.rst)"
#define RXB_PARAM_DESC_share_factor "shRing models: queues sharing one Rx ring; a port with fewer queues uses its queue count"
#define RXB_PARAM_DESC_ax_ring_size "rxBisect: entries per allocation (Ax) ring, at most the Rx ring size"
#define RXB_PARAM_DESC_ax_policy "rxBisect: Ax ring to borrow from when the queue's own is empty: round-robin, the most filled or at random"
#define RXB_PARAM_DESC_ax_assoc "rxBisect: Bx rings are associated with the Ax rings of their group of ax_assoc consecutive queues; 0: with all"
#define RXB_PARAM_DESC_notif_compress "rxBisect: hold buffer-consumed notifications until the next packet entry or notif_timeout_us (1) or write them at once (0)"
#define RXB_PARAM_DESC_notif_timeout_us "rxBisect: longest hold of a notification, us"
#define RXB_PARAM_DESC_ws_window "NIC writes over which the I/O working set (ethtool -S io_ws_*) is measured"
#define RXB_PARAM_DESC_cache_kb "Cache capacity (KiB) the I/O working set should fit, e.g. the LLC's DDIO ways; used for configuration advice and by dynamic shRing"
#define RXB_PARAM_DESC_corec_consumers "COREC: queues consuming each shared queue (groups of consecutive queues), at most the queue count; 0: all queues share one"
#define RXB_PARAM_DESC_corec_irq_policy "COREC: consumers interrupted per completion: the next one, round-robin (rr), or all, any idle one taking it"
#define RXB_PARAM_DESC_engine "Where the emulated NIC runs, its receive pipeline and its transmit work (TSO, TLS, the wire): inline, in the sender's context, or cpuN, a dedicated kernel thread bound to CPU N (online), fed by a lock-free ingress queue and the transmit doorbell"
#define RXB_PARAM_DESC_engines "Pipelines of a dedicated engine (engine=cpuN): threads on CPUs N to N+engines-1, all online; the NIC's RSS and ntuple steering send each frame to the pipeline that owns its receive queue (queue q: pipeline q mod engines), so that a queue's frames keep their order; a port with fewer queues runs one per queue; every ring model; the transmit work stays on the first"
#define RXB_PARAM_DESC_dsh_period_us "dshring: controller sampling period, us"
#define RXB_PARAM_DESC_dsh_window "dshring: samples in the sliding window, a multiple of 8"
#define RXB_PARAM_DESC_dsh_tput_mbps "dshring: a sample's throughput is high above this, Mbit/s"
#define RXB_PARAM_DESC_dsh_overload_ratio "dshring: overloaded when the standard deviation of the queues' receive-call intervals exceeds this many times their median"
#define RXB_PARAM_DESC_ax_assoc_map "rxBisect: Ax rings each Bx ring may borrow from, ';'-separated sets used cyclically, each '*' or a ','-list of N, N-M (Ax rings) and +N, +N-M (N after the queue's own): e.g. 0-3;2-5 or +0-1; default (empty): ax_assoc"
#define RXB_PARAM_DESC_ax_link "rxBisect: queue each Ax ring is linked to (whose NAPI refills it), a ','-list of N and N-M, one queue per Ax ring: e.g. 7 (one Ax ring, refilled by queue 7); default (empty): Ax ring i per queue i"
#define RXB_PARAM_DESC_flow_table_size "NIC flow table entries (5-tuple, learned on a flow's first frame; a full table learns no new flow)"
#define RXB_PARAM_DESC_flow_idle_ms "NIC flow table: an entry without a frame for this long is freed, ms"
#define RXB_PARAM_DESC_nicmem_kb "Capacity of the on-NIC memory tier, KiB"
#define RXB_PARAM_DESC_nicmem_fetch_ns "Latency of a host fetch from the on-NIC memory tier, ns"
#define RXB_PARAM_DESC_enso_pipes "enso: pipes per queue, at most 1024 over all queues and at most the rx ring size (the notification ring)"
#define RXB_PARAM_DESC_enso_pipe_kb "enso: KiB per pipe (the default is the Enso library's 2 MiB)"
#define RXB_PARAM_DESC_enso_prefetch "enso: low-latency mode, the driver prefetches the next pipe's notification (on) or is reactive only (off)"
#define RXB_PARAM_DESC_llc_budget "ceio: host cache budget in bytes, at least one receive buffer; credits = budget / buffer size (the default is the paper's 6 MiB)"
#define RXB_PARAM_DESC_ceio_release "ceio: lazy credit release: at the end of the NAPI batch (batch) or when the page returns to the page_pool (page)"
#define RXB_PARAM_DESC_ceio_fetch "ceio: slow-path fetch from the on-NIC tier: async, the paper's async_recv() (fetches posted for every slow entry known, delivered as they complete), or sync, recv() (one fetch at a time)"
#define RXB_PARAM_DESC_ceio_force_slow "ceio: no credits, every packet takes the slow path (on; needs nicmem_kb > 0)"
#define RXB_PARAM_DESC_tls_contexts "kTLS offload: entries of the NIC's crypto context table (one per offloaded socket and direction); a full table refuses a socket, which stays in software"
#define RXB_PARAM_DESC_tls_resync "kTLS offload, RX: how the NIC's resync requests reach the stack: sync, tls_offload_rx_resync_request() naming the candidate header; async, as mlx5, tls_offload_rx_resync_async_request_start() naming the frame the header is in, then _end() with the header the NIC reports when the driver asks (a socket takes the mode in force when its offload starts)"
#define RXB_PARAM_DESC_nicmem_split "NIC header/data split: TCP/UDP headers to host buffers, payloads into the on-NIC memory tier (on; needs nicmem_kb > 0; not with shring-batched or enso)"

RXB_PARAM(ring_model, MODEL, (RXB_MODEL_NAMES), "privring", NULL)
RXB_PARAM(share_factor, U32, (1, RXB_MAX_QUEUES), "8", NULL)
RXB_PARAM(ax_ring_size, POW2, (RXB_RING_MIN, RXB_RING_MAX), "128", NULL)
RXB_PARAM(ax_policy, NAMES, ("rr|most|random"), "rr", NULL)
RXB_PARAM(ax_assoc, U32, (0, RXB_MAX_QUEUES), "0", NULL)
RXB_PARAM(notif_compress, U32, (0, 1), "1", NULL)
RXB_PARAM(notif_timeout_us, U32, (1, 1000000), "50", NULL)
RXB_PARAM(ws_window, POW2, (256, 1048576), "16384", NULL)
RXB_PARAM(cache_kb, U32, (1, 4194304), "4096", NULL)
RXB_PARAM(corec_consumers, U32, (0, RXB_MAX_QUEUES), "0", NULL)
RXB_PARAM(corec_irq_policy, NAMES, ("rr|all"), "all", NULL)
RXB_PARAM(engine, NAMES, (RXB_ENGINE_NAMES), "inline", rxb_check_engine)
RXB_PARAM(engines, U32, (1, 16), "1", rxb_check_engines)
RXB_PARAM(dsh_period_us, U32, (100, 10000000), "10000", NULL)
RXB_PARAM(dsh_window, U32, (8, 64), "16", rxb_check_dsh_window)
RXB_PARAM(dsh_tput_mbps, U32, (1, 1000000), "1000", NULL)
RXB_PARAM(dsh_overload_ratio, U32, (2, 1024), "32", NULL)
RXB_PARAM(ax_assoc_map, STR, (), "default", rxb_check_assoc_map)
RXB_PARAM(ax_link, STR, (), "default", rxb_check_ax_link)
RXB_PARAM(flow_table_size, U32, (RXB_FLOW_TABLE_MIN, RXB_FLOW_TABLE_MAX),
	  __stringify(RXB_FLOW_TABLE_DEF), NULL)
RXB_PARAM(flow_idle_ms, U32, (1, 600000), __stringify(RXB_FLOW_IDLE_DEF_MS), NULL)
RXB_PARAM(nicmem_kb, U32, (0, RXB_NICMEM_MAX_KB),
	  __stringify(RXB_NICMEM_DEF_KB), rxb_check_nicmem_kb)
RXB_PARAM(nicmem_fetch_ns, U32, (0, RXB_NICMEM_MAX_NS), __stringify(RXB_NICMEM_DEF_NS), NULL)
RXB_PARAM(enso_pipes, POW2, (1, RXB_ENSO_MAX_PIPES_Q), "1", NULL)
RXB_PARAM(enso_pipe_kb, POW2, (4, 2048), "2048", NULL)
RXB_PARAM(enso_prefetch, NAMES, ("off|on"), "off", NULL)
RXB_PARAM(llc_budget, U32, (1, 1073741824), "6291456", rxb_check_llc_budget)
RXB_PARAM(ceio_release, NAMES, ("batch|page"), "batch", NULL)
RXB_PARAM(ceio_fetch, NAMES, ("sync|async"), "async", NULL)
RXB_PARAM(ceio_force_slow, NAMES, ("off|on"), "off", rxb_check_force_slow)
RXB_PARAM(nicmem_split, NAMES, ("off|on"), "off", rxb_check_split)
RXB_PARAM(tls_contexts, U32, (RXB_TLS_CTX_MIN, RXB_TLS_CTX_MAX),
	  __stringify(RXB_TLS_CTX_DEF), NULL)
RXB_PARAM(tls_resync, NAMES, ("sync|async"), "sync", NULL)

#undef RXB_PARAM
