#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every counter is documented.  For every registered ring model (and, for
# the models that take it, with the header/data split on as well as off),
# the names "ethtool -S rxb1" prints, a queue's or ring's index folded
# (rx3_foo -> rxN_foo, tx0_bar -> txN_bar, ring1_baz -> ringN_baz), must
# each appear written out in full in Documentation/*.rst or README, where
# the index may be spelt N or <letter(s)>: rxN_foo, rx<q>_foo, ring<r>_baz.
# One result per model, its undocumented names printed.  No traffic: the
# port is up on its own, with 2 queues, so that every per-queue and
# per-ring name exists.
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
ktap_set_plan "$(wc -w <<<"$MODELS")"
ip link set rxb0 up && ip link set rxb1 up || rxb_bail "cannot bring the ports up"

# The words of the documents, a numbered family's index spelt N:
# ``rx<q>_ceio_fast`` -> rxN_ceio_fast.
DOCW=$RXB_TMP/doc-words
grep -ohE '[A-Za-z0-9_<>]+' "${docs[@]}" |
	sed -E 's/^(rx|tx|ring)(<[A-Za-z]+>|[A-Z])_/\1N_/' | sort -u > "$DOCW"
ktap_print_msg "$(wc -l <"$DOCW") words in ${#docs[@]} documents under $DOCS_ROOT"

# names: the counter names ethtool -S rxb1 prints, index folded, one a line.
names() {
	ethtool -S rxb1 | sed -nE 's/^[[:space:]]+([^:[:space:]]+): -?[0-9]+$/\1/p' |
		sed -E 's/^(rx|tx|ring)[0-9]+_/\1N_/'
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
	missing=$(comm -23 "$RXB_TMP/names.$m" "$DOCW" | xargs)
	ktap_print_msg "$m: $n names ($split); undocumented: ${missing:-none}"
	ktap_test_result "$m: every ethtool -S counter documented" \
		[ "$n" -gt 0 -a -z "$missing" ]
done
echo privring > $P/ring_model

ktap_finished
