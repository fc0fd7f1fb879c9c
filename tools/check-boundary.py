#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the hardware/software boundary of drivers/net/rxbisect.

The emulated NIC is hardware (drivers/net/rxbisect/hw/), the driver is
software (drivers/net/rxbisect/drv/); each ring model is a hardware half
(hw/models/) and a driver half (drv/models/); lib/ holds code both sides
build; include/rxbisect/ the interfaces.  The compiler is the first line:
rxb_hw_model.h refuses a file built with RXB_DRIVER_SIDE, rxb_drv_model.h
one built with RXB_NIC_SIDE (Kbuild and the userspace Makefiles set them
per folder).  This is the second line.  Each rule names a file and line
when it is broken; no file is exempt by its name:

  driver  drv/**: must not include a NIC header (hw/*.h, rxb_hw_model.h,
          rxb_nicmem.h, rxb_wss.h), directly or through local headers,
          nor name a NIC structure (struct rxb_hw_model, rxb_hw_ops,
          rxb_hw_model_ops, rxb_frame, rxb_nicmem, rxb_nic_ctx's
          members), nor call a function the NIC's files define that
          include/rxbisect/rxb_nic.h does not declare (the NIC's register
          and command interface).
  NIC     hw/**: must not include a driver header (drv/*.h, rxbisect.h,
          rxb_drv_model.h), nor name a driver structure (struct rxb_port,
          rxb_rx, rxb_rxq, rxb_cfg, rxb_model, rxb_model_ops, rxb_drv_ops,
          rxb_pkt), nor call a function the driver's files define.
  shared  lib/** and include/rxbisect/* but rxb_nic.h: must not include
          either side's model interface (rxb_hw_model.h, rxb_drv_model.h)
          nor a side's folder, but rxb_hw_model.h and rxb_drv_model.h
          themselves.
  core    hw/models/**, drv/models/**, lib/**, hw/wss.c, hw/nic_mem.c,
          hw/tls_rec.c and
          include/rxbisect/* but rxb_nic.h: built in userspace too, so no
          netdev, skb or page_pool API, nor their headers.

Includes are followed through local headers ("x.h" beside the file,
<rxbisect/x.h> in include/), so a header cannot smuggle a crossing in.
Comments and string literals are ignored.

Usage: tools/check-boundary.py [--root DIR]   check a tree (default: this one)
       tools/check-boundary.py --self-test    prove that each rule fires, on
                                              small trees in a temp directory
Exit status 0 when clean (or when every self-test passes), 1 otherwise.
"""
import os
import re
import sys
import tempfile

TOP = "drivers/net/rxbisect"
HW = TOP + "/hw"
DRV = TOP + "/drv"
LIB = TOP + "/lib"
INC = "include/rxbisect"

DRIVER_STRUCTS = re.compile(
    r"\bstruct\s+(rxb_port|rxb_rx|rxb_rxq|rxb_cfg|rxb_model|rxb_model_ops|"
    r"rxb_drv_ops|rxb_pkt)\b")
NIC_STRUCTS = re.compile(
    r"\bstruct\s+(rxb_hw_model|rxb_hw_ops|rxb_hw_model_ops|rxb_frame|"
    r"rxb_nicmem|rxb_nic_ctx\s*\{|rxb_engine\s*\{|rxb_vector)\b")
NET_API = re.compile(
    r"\b(sk_buff\w*|skb\w*|\w*_skb(?:_\w*)?|netdev\w*|net_device\w*|napi\w*|"
    r"netif_\w+|page_pool\w*|xdp_\w+|eth_type_trans|dev_kfree_skb\w*)\b")
NET_HEADERS = re.compile(
    r"^(linux/(netdevice|skbuff|etherdevice|if_ether)\.h|net/.*)$")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
FUNC_DEF = re.compile(
    r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \t*]*?\b(\w+)\s*"
    r"\([^;{})]*(?:\([^;{}]*\)[^;{})]*)*\)\s*(?:__\w+\([^)]*\)\s*)*\{",
    re.M)
CALL = re.compile(r"\b(rxb_\w+)\s*\(")
PROTO = re.compile(r"\b(rxb_\w+)\s*\(")

# Headers of one side only, in include/rxbisect (besides the side's folder).
NIC_HEADERS = {"rxb_hw_model.h", "rxb_nicmem.h", "rxb_wss.h", "rxb_tls.h"}
DRIVER_HEADERS = {"rxb_drv_model.h"}


def strip_comments(text):
    """Blank out comments and string/char literals, keeping every newline
    (so that line numbers stay right) and #include lines intact."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            line_start = text.rfind("\n", 0, i) + 1
            j = i + 1
            if c == '"' and re.match(r"[ \t]*#[ \t]*include[ \t]*$",
                                     text[line_start:i]):
                # #include "x.h": a header name, kept as it is
                while j < n and text[j] not in '"\n':
                    j += 1
                j += j < n and text[j] == '"'
                out.append(text[i:j])
                i = j
                continue
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]))
            if j < n and text[j] == c:
                out.append(c)
                j += 1
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Tree:
    def __init__(self, root):
        self.root = root
        self.cache = {}

    def code(self, rel):
        if rel not in self.cache:
            with open(os.path.join(self.root, rel), encoding="utf-8",
                      errors="replace") as f:
                self.cache[rel] = strip_comments(f.read())
        return self.cache[rel]

    def includes(self, rel):
        """(line, name, local path or None) of each #include of @rel."""
        code = self.code(rel)
        for m in INCLUDE.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            kind, name = m.group(1), m.group(2)
            local = None
            if kind == '"':
                for base in (os.path.dirname(rel), TOP):
                    cand = os.path.normpath(os.path.join(base, name))
                    if os.path.isfile(os.path.join(self.root, cand)):
                        local = cand
                        break
            elif name.startswith("rxbisect/"):
                cand = os.path.join("include", name)
                if os.path.isfile(os.path.join(self.root, cand)):
                    local = cand
            yield line, name, local

    def reaches(self, rel, bad):
        """Each (line, chain) by which @rel includes a header @bad(path)
        accepts, following local headers; @line is the line of @rel's own
        #include, @chain the headers on the way."""
        found = []
        for line, name, local in self.includes(rel):
            seen = {rel}
            stack = [(name, local, [name])]
            while stack:
                nm, loc, chain = stack.pop()
                if bad(nm, loc):
                    found.append((line, chain))
                    continue
                if loc is None or loc in seen:
                    continue
                seen.add(loc)
                for _, n2, l2 in self.includes(loc):
                    stack.append((n2, l2, chain + [n2]))
        return found

    def files(self, top):
        out = []
        for d, _, fs in os.walk(os.path.join(self.root, top)):
            for f in sorted(fs):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f),
                                               self.root))
        return sorted(out)

    def defined(self, files):
        """Functions with external linkage defined in @files."""
        names = set()
        for rel in files:
            if not rel.endswith(".c"):
                continue
            for m in FUNC_DEF.finditer(self.code(rel)):
                start = self.code(rel).rfind("\n", 0, m.start()) + 1
                if self.code(rel)[start:m.start() + 7].lstrip().startswith(
                        "static"):
                    continue
                names.add(m.group(1))
        return names


def side_of(loc, name):
    """'nic', 'driver' or None (shared): the side a header belongs to."""
    base = os.path.basename(loc or name)
    if loc:
        if loc.startswith(HW + "/"):
            return "nic"
        if loc.startswith(DRV + "/"):
            return "driver"
    if base in NIC_HEADERS:
        return "nic"
    if base in DRIVER_HEADERS or name == "rxbisect.h":
        return "driver"
    return None


def via(chain):
    return "" if len(chain) == 1 else " (via " + " -> ".join(chain) + ")"


def lines_matching(code, regex):
    for m in regex.finditer(code):
        yield code.count("\n", 0, m.start()) + 1, m


def check(root):
    """All violations in the tree at @root, as "path:line: message"."""
    t = Tree(root)
    errs = []
    hw = t.files(HW)
    drv = t.files(DRV)
    lib = t.files(LIB)
    inc = t.files(INC)
    nic_api = set()
    if os.path.isfile(os.path.join(root, INC, "rxb_nic.h")):
        nic_api = {m.group(1) for m in
                   PROTO.finditer(t.code(os.path.join(INC, "rxb_nic.h")))}
    hw_defs = t.defined(hw)
    drv_defs = t.defined(drv)

    for rel in drv:
        for line, chain in t.reaches(
                rel, lambda nm, loc: side_of(loc, nm) == "nic"):
            errs.append(f"{rel}:{line}: driver file includes the NIC's "
                        f"{chain[-1]}{via(chain)}")
        code = t.code(rel)
        for line, m in lines_matching(code, NIC_STRUCTS):
            errs.append(f"{rel}:{line}: driver file names NIC structure "
                        f"{' '.join(m.group(0).split())}")
        for line, m in lines_matching(code, CALL):
            f = m.group(1)
            if f in hw_defs and f not in nic_api and f not in drv_defs:
                errs.append(f"{rel}:{line}: driver calls the NIC's {f}(), "
                            "not in its register interface (rxb_nic.h)")
    for rel in hw:
        for line, chain in t.reaches(
                rel, lambda nm, loc: side_of(loc, nm) == "driver"):
            errs.append(f"{rel}:{line}: NIC file includes the driver's "
                        f"{chain[-1]}{via(chain)}")
        code = t.code(rel)
        for line, m in lines_matching(code, DRIVER_STRUCTS):
            errs.append(f"{rel}:{line}: NIC file names driver structure "
                        f"struct {m.group(1)}")
        for line, m in lines_matching(code, CALL):
            f = m.group(1)
            if f in drv_defs and f not in hw_defs:
                errs.append(f"{rel}:{line}: NIC calls the driver's {f}()")
    for rel in lib + inc:
        mine = side_of(rel, rel)
        for line, chain in t.reaches(
                rel, lambda nm, loc: side_of(loc, nm) not in (None, mine)):
            what = "shared file" if mine is None else \
                f"{'NIC' if mine == 'nic' else 'driver'} header"
            errs.append(f"{rel}:{line}: {what} includes a side's "
                        f"{chain[-1]}{via(chain)}")
    core = [f for f in hw + drv if "/models/" in f] + lib
    core += [f for f in inc if os.path.basename(f) != "rxb_nic.h"]
    core += [f for f in (HW + "/wss.c", HW + "/nic_mem.c", HW + "/tls_rec.c")
             if f in hw]
    for rel in core:
        for line, name, _ in t.includes(rel):
            if NET_HEADERS.match(name):
                errs.append(f"{rel}:{line}: userspace-built core includes "
                            f"<{name}>")
        code = t.code(rel)
        for lno, text in enumerate(code.split("\n"), 1):
            if INCLUDE.match(text):
                continue
            for m in NET_API.finditer(text):
                errs.append(f"{rel}:{lno}: userspace-built core uses "
                            f"netdev/skb/page_pool API: {m.group(1)}")
    return len(hw) + len(drv) + len(lib) + len(inc), errs


# ---- self-test: a small tree that passes, then one crossing at a time ----

GOOD = {
    f"{INC}/rxb_model.h": "#include <linux/types.h>\nstruct rxb_model_cfg;\n",
    f"{INC}/rxb_desc.h": "#include <linux/types.h>\nstruct rxb_bar;\n",
    f"{INC}/rxb_hw_model.h": "#include <rxbisect/rxb_model.h>\n"
                             "struct rxb_hw_model { int q; };\n",
    f"{INC}/rxb_drv_model.h": "#include <rxbisect/rxb_model.h>\n"
                              "struct rxb_model { int q; };\n",
    f"{INC}/rxb_nicmem.h": "#include <linux/types.h>\nstruct rxb_nicmem;\n",
    f"{INC}/rxb_nic.h": "#include <rxbisect/rxb_desc.h>\nstruct rxb_nic;\n"
                        "struct sk_buff;\n"
                        "void rxb_nic_ingress(struct rxb_nic *n, "
                        "struct sk_buff *s);\n",
    f"{HW}/nic_hw.h": "#include <rxbisect/rxb_nic.h>\n"
                      "#include <rxbisect/rxb_hw_model.h>\n"
                      "struct rxb_nic { int q; };\n",
    f"{HW}/nic.c": '#include "nic_hw.h"\n'
                   "/* unlike struct rxb_port, a skb here is fine */\n"
                   'static const char *s = "struct rxb_rxq";\n'
                   "void rxb_nic_ingress(struct rxb_nic *n, "
                   "struct sk_buff *s)\n{\n}\n"
                   "void rxb_nic_private(void)\n{\n}\n",
    f"{HW}/nic_mem.c": "#include <rxbisect/rxb_nicmem.h>\nint w;\n",
    f"{HW}/models/a.c": "#include <rxbisect/rxb_hw_model.h>\n"
                        "/* the driver builds an skb from it */\n"
                        "static int rx_skbless;\n"
                        "void h(struct rxb_hw_model *m) { }\n",
    f"{DRV}/rxbisect.h": "#include <rxbisect/rxb_nic.h>\n"
                         "#include <rxbisect/rxb_drv_model.h>\n"
                         "struct rxb_port { int n; };\n",
    f"{DRV}/netdev.c": '#include <linux/netdevice.h>\n#include "rxbisect.h"\n'
                       "struct sk_buff *skb;\n"
                       "void f(struct rxb_nic *n) { rxb_nic_ingress(n, 0); }\n",
    f"{DRV}/models/a.c": "#include <rxbisect/rxb_drv_model.h>\n"
                         "void d(struct rxb_model *m) { }\n",
    f"{LIB}/layout.c": "#include <rxbisect/rxb_model.h>\nint l;\n",
}

# name, files to (over)write in the good tree, expected "path:line" and a
# part of the message
BAD = [
    ("driver includes nic_hw.h",
     {f"{DRV}/ethtool.c": '#include <linux/types.h>\n#include "../hw/nic_hw.h"\n'},
     f"{DRV}/ethtool.c:2", "driver file includes the NIC's"),
    ("driver reaches rxb_hw_model.h through a header",
     {f"{DRV}/helper.h": "#include <rxbisect/rxb_hw_model.h>\n",
      f"{DRV}/rxbisect.h": '#include "helper.h"\n'},
     f"{DRV}/netdev.c:2", "via rxbisect.h -> helper.h -> rxbisect/rxb_hw_model.h"),
    ("driver half includes the hardware half's interface",
     {f"{DRV}/models/b.c": "#include <rxbisect/rxb_hw_model.h>\n"},
     f"{DRV}/models/b.c:1", "driver file includes the NIC's"),
    ("driver names struct rxb_hw_model",
     {f"{DRV}/models/c.c": "void g(struct rxb_hw_model *m);\n"},
     f"{DRV}/models/c.c:1", "struct rxb_hw_model"),
    ("driver names the NIC's frame",
     {f"{DRV}/xdp.c": "int h(const struct  rxb_frame *f);\n"},
     f"{DRV}/xdp.c:1", "struct rxb_frame"),
    ("driver calls a NIC function outside rxb_nic.h",
     {f"{DRV}/ctl.c": "void k(void)\n{\n\trxb_nic_private();\n}\n"},
     f"{DRV}/ctl.c:3", "driver calls the NIC's rxb_nic_private()"),
    ("NIC includes rxbisect.h",
     {f"{HW}/nic_irq.c": '#include "nic_hw.h"\n#include "../drv/rxbisect.h"\n'},
     f"{HW}/nic_irq.c:2", "NIC file includes the driver's"),
    ("NIC half includes the driver half's interface",
     {f"{HW}/models/b.c": "#include <rxbisect/rxb_drv_model.h>\n"},
     f"{HW}/models/b.c:1", "NIC file includes the driver's"),
    ("NIC names struct rxb_port",
     {f"{HW}/nic.c": '#include "nic_hw.h"\n\nvoid f(struct rxb_port *p);\n'},
     f"{HW}/nic.c:3", "struct rxb_port"),
    ("NIC names struct rxb_model",
     {f"{HW}/models/d.c": "void g(struct rxb_model *m);\n"},
     f"{HW}/models/d.c:1", "struct rxb_model"),
    ("NIC header names struct rxb_pkt",
     {f"{HW}/nic_hw.h": "struct rxb_nic;\nstruct rxb_pkt;\n"},
     f"{HW}/nic_hw.h:2", "struct rxb_pkt"),
    ("NIC calls a driver function",
     {f"{DRV}/rx.c": "void rxb_rx_thing(void)\n{\n}\n",
      f"{HW}/nic_dma.c": "void q(void)\n{\n\trxb_rx_thing();\n}\n"},
     f"{HW}/nic_dma.c:3", "NIC calls the driver's rxb_rx_thing()"),
    ("shared file includes a side's interface",
     {f"{LIB}/layout.c": "#include <rxbisect/rxb_drv_model.h>\n"},
     f"{LIB}/layout.c:1", "shared file includes a side's"),
    ("shared header includes a NIC file",
     {f"{INC}/rxb_layout.h": '#include "../../drivers/net/rxbisect/hw/nic_hw.h"\n'},
     f"{INC}/rxb_layout.h:1", "shared file includes a side's"),
    ("the NIC's register interface includes a NIC header",
     {f"{INC}/rxb_nic.h": "#include <rxbisect/rxb_nicmem.h>\n"},
     f"{INC}/rxb_nic.h:1", "shared file includes a side's"),
    ("the driver half's interface includes the hardware half's",
     {f"{INC}/rxb_drv_model.h": "#include <rxbisect/rxb_hw_model.h>\n"},
     f"{INC}/rxb_drv_model.h:1", "driver header includes a side's"),
    ("model core calls an skb API",
     {f"{HW}/models/e.c": "int f(void *p)\n{\n\treturn skb_headlen(p);\n}\n"},
     f"{HW}/models/e.c:3", "skb_headlen"),
    ("driver half uses page_pool",
     {f"{DRV}/models/f.c":
      "static void f(void *p) { page_pool_put_full_page(p, 0, 0); }\n"},
     f"{DRV}/models/f.c:1", "page_pool_put_full_page"),
    ("model core includes <linux/netdevice.h>",
     {f"{DRV}/models/g.c": "#include <linux/netdevice.h>\n"},
     f"{DRV}/models/g.c:1", "<linux/netdevice.h>"),
    ("lib calls a netdev API",
     {f"{LIB}/h.c": 'void f(void *d) { netdev_warn(d, "x"); }\n'},
     f"{LIB}/h.c:1", "netdev_warn"),
    ("nic_mem.c calls a napi API",
     {f"{HW}/nic_mem.c": "int w;\nvoid f(void *n) { napi_schedule(n); }\n"},
     f"{HW}/nic_mem.c:2", "napi_schedule"),
    ("include/rxbisect header names sk_buff",
     {f"{INC}/rxb_model.h": "#include <linux/types.h>\nstruct sk_buff;\n"},
     f"{INC}/rxb_model.h:2", "sk_buff"),
]


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def self_test():
    print("TAP version 13")
    print(f"1..{len(BAD) + 1}")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="rxb-boundary.") as tmp:
        good = os.path.join(tmp, "good")
        write_tree(good, GOOD)
        _, errs = check(good)
        ok = not errs
        for e in errs:
            print("# unexpected: " + e)
        print(f"{'ok' if ok else 'not ok'} 1 a clean tree passes "
              "(comments, strings, driver skbs ignored)")
        failed += not ok
        for i, (name, files, where, what) in enumerate(BAD, 2):
            root = os.path.join(tmp, f"bad{i}")
            write_tree(root, dict(GOOD, **files))
            _, errs = check(root)
            ok = any(e.startswith(where + ":") and what in e for e in errs)
            if not ok:
                print(f"# expected {where}: ...{what}..., got:")
                for e in errs or ["(nothing)"]:
                    print("#   " + e)
            print(f"{'ok' if ok else 'not ok'} {i} {name}")
            failed += not ok
    print(f"# Totals: pass:{len(BAD) + 1 - failed} fail:{failed} "
          "xfail:0 xpass:0 skip:0 error:0")
    return 1 if failed else 0


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(
        os.path.abspath(__file__)), ".."))
    args = argv[1:]
    if args[:1] == ["--self-test"]:
        return self_test()
    if args[:1] == ["--root"] and len(args) == 2:
        root = args[1]
    elif args:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    n, errs = check(root)
    for e in errs:
        print(e)
    if errs:
        print(f"boundary: {len(errs)} crossing(s) in {n} files")
        return 1
    print(f"boundary: {n} files checked, no crossing")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
