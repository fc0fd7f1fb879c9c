#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every counter is documented.  For every registered ring model (and, for
# the models that take it, with the header/data split on as well as off),
# each name "ethtool -S rxb1" prints must appear written out in full in
# Documentation/*.rst or README: as it is, or with the index of a numbered
# family (rx3_foo, tx0_bar, ring1_baz: letters, digits, "_") folded, which
# the documents may spell N, one capital letter, <letters> or a number:
# rxN_foo, rx<q>_foo, ringG_baz and rx0_foo all document rx3_foo.  One
# result per model, its undocumented names printed.  No traffic: the port
# is up on its own, with 2 queues, so that every per-queue and per-ring
# name exists.  Then: the counters every model has, which the README lists
# from the driver's source (tools/params-doc.py), are ethtool -S's.
#
# Environment: RXB_DOCS_ROOT, the tree whose README and Documentation/
# are read (default: the one this test is in).

source "$(dirname "$0")/lib.sh"

DOCS_ROOT=${RXB_DOCS_ROOT:-$(cd "$RXB_DIR/../../../.." && pwd)}
P=/sys/module/rxbisect/parameters
export LC_ALL=C

rxb_init
docs=("$DOCS_ROOT"/README "$DOCS_ROOT"/Documentation/*.rst)
[ -r "${docs[0]}" ] && [ -r "${docs[1]}" ] ||
	ktap_skip_all "no README and Documentation/*.rst under $DOCS_ROOT"

rxb_load queues=2 || rxb_bail "cannot load the module"
MODELS=$(rxb_models | xargs)
[ -n "$MODELS" ] || rxb_bail "no $RXB_DBG/models"
ktap_set_plan $(($(wc -w <<<"$MODELS") + 2))
ip link set rxb0 up && ip link set rxb1 up || rxb_bail "cannot bring the ports up"

# The words of the documents, each also with a numbered family's index
# spelt N: ``rx<q>_ceio_fast`` is rx<q>_ceio_fast and rxN_ceio_fast.
DOCW=$RXB_TMP/doc-words
grep -ohE '[A-Za-z0-9_<>]+' "${docs[@]}" |
	sed -E 'p; s/^([a-z]+)(<[A-Za-z]+>|[A-Z]|[0-9]+)_/\1N_/' | sort -u > "$DOCW"
ktap_print_msg "$(wc -l <"$DOCW") words in ${#docs[@]} documents under $DOCS_ROOT"

# names: the counter names ethtool -S rxb1 prints, one a line.
names() {
	ethtool -S rxb1 | sed -nE 's/^[[:space:]]+([^:[:space:]]+): -?[0-9]+$/\1/p'
}

# undocumented FILE: the names of FILE that no word of the documents is,
# as they are or folded (rx3_foo -> rxN_foo), each family once.
undocumented() {
	awk 'NR == FNR { doc[$0] = 1; next }
	     { f = $0; sub(/^[a-z]+[0-9]+_/, "", f)
	       if (f != $0) { match($0, /^[a-z]+/); f = substr($0, 1, RLENGTH) "N_" f }
	       if (!($0 in doc) && !(f in doc) && !seen[f]++) print f }' "$DOCW" "$1"
}

for m in $MODELS; do
	echo off > $P/nicmem_split 2>/dev/null
	if ! echo "$m" > $P/ring_model; then
		ktap_test_fail "$m: every ethtool -S counter documented (cannot switch to it)"
		continue
	fi
	names > "$RXB_TMP/names"
	split="split off only (refused)"
	if echo on > $P/nicmem_split 2>/dev/null; then
		split="split off and on"
		names >> "$RXB_TMP/names"
		echo off > $P/nicmem_split
	fi
	sort -u "$RXB_TMP/names" > "$RXB_TMP/names.$m"
	n=$(wc -l <"$RXB_TMP/names.$m")
	missing=$(undocumented "$RXB_TMP/names.$m" | xargs)
	ktap_print_msg "$m: $n names ($split); undocumented: ${missing:-none}"
	ktap_test_result "$m: every ethtool -S counter documented" \
		[ "$n" -gt 0 -a -z "$missing" ]
done
echo privring > $P/ring_model

# +1: the counters every model has, as the README lists them from the
# driver's tables (tools/params-doc.py --counters, which make test's static
# stage checks the README against), are the names ethtool -S prints under
# privring (no model counters), queue numbers spelt N; ethtool -S may add
# only the kernel's page_pool counters (rx_pp_alloc_*, rx_pp_recycle_*).
PD=$DOCS_ROOT/tools/params-doc.py
if [ -r "$PD" ] && command -v python3 >/dev/null; then
	names | sed -E 's/^(rx|tx)[0-9]+_/\1N_/' | sort -u > "$RXB_TMP/common.ethtool"
	python3 "$PD" --counters | sort -u > "$RXB_TMP/common.src"
	only_src=$(comm -13 "$RXB_TMP/common.ethtool" "$RXB_TMP/common.src" | xargs)
	only_eth=$(comm -23 "$RXB_TMP/common.ethtool" "$RXB_TMP/common.src" |
		grep -vE '^rx_pp_(alloc|recycle)_' | xargs)
	ktap_print_msg "params-doc.py --counters: $(wc -l <"$RXB_TMP/common.src") names; not in ethtool -S: ${only_src:-none}; in ethtool -S only: ${only_eth:-none}"
	ktap_test_result "the README's counter list (params-doc.py, from the source) is what ethtool -S prints" \
		[ -s "$RXB_TMP/common.src" -a -z "$only_src" -a -z "$only_eth" ]
else
	ktap_test_skip "the README's counter list (params-doc.py, from the source) is what ethtool -S prints" \
		"no $PD or no python3"
fi

# +1: rxb_snap's reader and ethtool -S agree
# ethtool_vals FILE: "name value" lines of ethtool -S rxb1, sorted.
ethtool_vals() {
	ethtool -S rxb1 | sed -nE 's/^[[:space:]]+([^:[:space:]]+): (-?[0-9]+)$/\1 \2/p' |
		sort > "$1"
}
for _ in {1..50}; do [ -s "$RXB_TMP/stats.port" ] && break; rxb_sleep 0.2; done
if [ -s "$RXB_TMP/stats.port" ]; then
	ethtool_vals "$RXB_TMP/e1"
	rxb_snap rxb1 && for k in "${!RXB_S[@]}"; do echo "$k ${RXB_S[$k]}"; done |
		sort > "$RXB_TMP/s"
	ethtool_vals "$RXB_TMP/e2"
	bad=$(join "$RXB_TMP/e1" "$RXB_TMP/e2" | join -a1 -a2 -e X -o 0,1.2,1.3,2.2 - "$RXB_TMP/s" |
		awk '$2 == "X" || $4 == "X" ||
		     !(($4 >= $2 && $4 <= $3) || ($4 <= $2 && $4 >= $3)) { print }' | head -n 5)
	ktap_print_msg "rxb_stats.py: $(wc -l <"$RXB_TMP/s") counters, ethtool -S $(wc -l <"$RXB_TMP/e1"); differing: ${bad:-none}"
	ktap_test_result "rxb_snap's reader (rxb_stats.py) gives ethtool -S's names and values" \
		[ -s "$RXB_TMP/s" -a -z "$bad" ]
else
	ktap_test_skip "rxb_snap's reader (rxb_stats.py) gives ethtool -S's names and values" \
		"rxb_stats.py did not start (python3: $(command -v python3 || echo none))"
fi

ktap_finished
