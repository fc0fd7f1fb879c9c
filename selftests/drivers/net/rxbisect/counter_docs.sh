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
# name exists.
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

ktap_finished
