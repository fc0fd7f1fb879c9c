#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the hardware/software boundary of drivers/net/rxbisect.

The emulated NIC is hardware, the driver is software, the ring-model cores
are built both in the kernel and in userspace (tools/testing/rxbisect).
Each rule below names a file and line when it is broken:

  driver  every drivers/net/rxbisect/*.c that is not nic*.c, rss.c, wss.c
          or model*.c, and rxbisect.h: must not include nic_hw.h (the
          NIC's own state), directly or through a local header.
  NIC     nic*.c, nic*.h, rss.c, wss.c: must not include rxbisect.h (the
          driver's header) nor name a driver structure (struct rxb_port,
          rxb_rx, rxb_rxq, rxb_cfg).
  core    model*.c, shring*.h, corec.h, rxb_ring.h and include/rxbisect/*.h:
          must not include nic.h, nic_hw.h or rxbisect.h, nor use netdev,
          skb or page_pool APIs (nor include their headers).  wss.c, built
          in userspace too, must not use those APIs either.
  halves  model*.c: code in a "/* ---- driver ... ---- */" section (the
          driver half, up to the next "/* ---- ... ---- */" line) must
          not call the NIC's services, rxb_hw_*() (struct rxb_hw_ops:
          DMA engine, interconnect counters, timer, ...) nor the on-NIC
          memory tier, rxb_nicmem_*(): it reaches the NIC through ring
          memory and registers only.  Functions named *_hw_* or *_nic_*
          are the hardware half's wherever they stand (hw_debug ops).

Includes are followed through local headers ("x.h" beside the file,
<rxbisect/x.h> in include/), so a header cannot smuggle a crossing in.
Comments and string literals are ignored.

Usage: tools/check-boundary.py [--root DIR]   check a tree (default: this one)
       tools/check-boundary.py --self-test    prove that each rule fires, on
                                              small trees in a temp directory
Exit status 0 when clean (or when every self-test passes), 1 otherwise.
"""
import fnmatch
import os
import re
import sys
import tempfile

DRV = "drivers/net/rxbisect"
INC = "include/rxbisect"

DRIVER_STRUCTS = re.compile(r"\bstruct\s+(rxb_port|rxb_rx|rxb_rxq|rxb_cfg)\b")
NET_API = re.compile(
    r"\b(sk_buff\w*|skb\w*|\w*_skb(?:_\w*)?|netdev\w*|net_device\w*|napi\w*|"
    r"netif_\w+|page_pool\w*|xdp_\w+|eth_type_trans|dev_kfree_skb\w*)\b")
NET_HEADERS = re.compile(
    r"^(linux/(netdevice|skbuff|etherdevice|if_ether)\.h|net/.*)$")
SECTION = re.compile(r"^/\*\s*-{4}\s*(.*?)\s*-{4,}\s*\*/\s*$")
FUNC_DEF = re.compile(r"^(?!return\b)[A-Za-z_][\w \t*]*?\b(\w+)\s*\(")
NIC_FUNC = re.compile(r"_(hw|nic)_")
NIC_CALL = re.compile(r"\b(rxb_hw_\w+|rxb_nicmem_\w+)\s*\(")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)


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
                cand = os.path.normpath(os.path.join(os.path.dirname(rel),
                                                     name))
                if os.path.isfile(os.path.join(self.root, cand)):
                    local = cand
            elif name.startswith("rxbisect/"):
                cand = os.path.join("include", name)
                if os.path.isfile(os.path.join(self.root, cand)):
                    local = cand
            yield line, name, local

    def reaches(self, rel, banned):
        """Each (line, chain) by which @rel includes one of the headers
        @banned (base names of files in drivers/net/rxbisect), following
        local headers; @line is the line of @rel's own #include, @chain
        the headers on the way."""
        found = []
        paths = {os.path.join(DRV, b) for b in banned}
        for line, name, local in self.includes(rel):
            seen = {rel}
            stack = [(name, local, [name])]
            while stack:
                nm, loc, chain = stack.pop()
                if loc in paths or (loc is None and '/' not in nm and
                                    nm in banned):
                    found.append((line, chain))
                    continue
                if loc is None or loc in seen:
                    continue
                seen.add(loc)
                for _, n2, l2 in self.includes(loc):
                    stack.append((n2, l2, chain + [n2]))
        return found


def classify(rel):
    """The rule sets that apply to @rel (a path relative to the root)."""
    d, b = os.path.split(rel)
    kinds = set()
    if d == INC and b.endswith(".h"):
        kinds |= {"core", "userspace"}
    if d != DRV:
        return kinds
    if fnmatch.fnmatch(b, "model*.c") or b in ("corec.h", "rxb_ring.h") or \
            fnmatch.fnmatch(b, "shring*.h"):
        kinds |= {"core", "userspace"}
    elif fnmatch.fnmatch(b, "nic*.[ch]") or b in ("rss.c", "wss.c"):
        kinds.add("nic")
        if b == "wss.c":
            kinds.add("userspace")
    elif b.endswith(".c") or b == "rxbisect.h":
        kinds.add("driver")
    return kinds


def driver_half_calls(root, rel, code):
    """Calls of rxb_hw_*() or rxb_nicmem_*() in @rel's driver sections.
    The section markers are comments, so they are read from the file
    itself; the calls from @code (comments and strings blanked)."""
    with open(os.path.join(root, rel), encoding="utf-8",
              errors="replace") as f:
        raw = f.read().split("\n")
    errs = []
    driver = False
    func = ""
    for lno, (line, text) in enumerate(zip(raw, code.split("\n")), 1):
        m = SECTION.match(line)
        if m:
            driver = m.group(1).lower().startswith("driver")
            continue
        f = FUNC_DEF.match(text)
        if f:
            func = f.group(1)
        if not driver or NIC_FUNC.search(func):
            continue
        for c in NIC_CALL.finditer(text):
            errs.append(f"{rel}:{lno}: driver half calls {c.group(1)}(): "
                        "the NIC's side; use ring memory, registers "
                        "and doorbells")
    return errs


def via(chain):
    return "" if len(chain) == 1 else " (via " + " -> ".join(chain) + ")"


def check(root):
    """All violations in the tree at @root, as "path:line: message"."""
    t = Tree(root)
    errs = []
    files = []
    for d in (DRV, INC):
        if os.path.isdir(os.path.join(root, d)):
            files += [os.path.join(d, f)
                      for f in sorted(os.listdir(os.path.join(root, d)))
                      if f.endswith((".c", ".h"))]
    for rel in files:
        kinds = classify(rel)
        if "driver" in kinds:
            for line, chain in t.reaches(rel, {"nic_hw.h"}):
                errs.append(f"{rel}:{line}: driver file includes nic_hw.h"
                            f"{via(chain)}: the NIC's own state; use nic.h")
        if "nic" in kinds:
            for line, chain in t.reaches(rel, {"rxbisect.h"}):
                errs.append(f"{rel}:{line}: NIC file includes the driver's "
                            f"rxbisect.h{via(chain)}")
            code = t.code(rel)
            for m in DRIVER_STRUCTS.finditer(code):
                line = code.count("\n", 0, m.start()) + 1
                errs.append(f"{rel}:{line}: NIC file names driver structure "
                            f"struct {m.group(1)}")
        if "core" in kinds:
            for line, chain in t.reaches(rel, {"nic.h", "nic_hw.h",
                                               "rxbisect.h"}):
                errs.append(f"{rel}:{line}: model core includes "
                            f"{os.path.basename(chain[-1])}{via(chain)}: "
                            "use struct rxb_drv_ops / struct rxb_hw_ops")
        if "core" in kinds and fnmatch.fnmatch(os.path.basename(rel),
                                               "model*.c"):
            errs += driver_half_calls(root, rel, t.code(rel))
        if "userspace" in kinds:
            for line, name, _ in t.includes(rel):
                if NET_HEADERS.match(name):
                    errs.append(f"{rel}:{line}: userspace-built core "
                                f"includes <{name}>")
            code = t.code(rel)
            for lno, text in enumerate(code.split("\n"), 1):
                if INCLUDE.match(text):
                    continue
                for m in NET_API.finditer(text):
                    errs.append(f"{rel}:{lno}: userspace-built core uses "
                                f"netdev/skb/page_pool API: {m.group(1)}")
    return len(files), errs


# ---- self-test: a small tree that passes, then one crossing at a time ----

GOOD = {
    f"{INC}/rxb_model.h": "#include <linux/types.h>\nstruct rxb_model;\n",
    f"{DRV}/nic.h": "#include <rxbisect/rxb_model.h>\nstruct rxb_nic;\n",
    f"{DRV}/nic_hw.h": '#include "nic.h"\nstruct rxb_nic { int q; };\n',
    f"{DRV}/rxbisect.h": '#include "nic.h"\nstruct rxb_port { int n; };\n',
    f"{DRV}/rxb_ring.h": "#include <rxbisect/rxb_model.h>\n",
    f"{DRV}/nic.c": '#include "nic_hw.h"\n'
                    "/* unlike struct rxb_port, a skb here is fine */\n"
                    'static const char *s = "struct rxb_rxq";\n',
    f"{DRV}/rss.c": '#include <net/ip.h>\n#include "nic_hw.h"\n',
    f"{DRV}/wss.c": "#include <rxbisect/rxb_model.h>\nint w;\n",
    f"{DRV}/netdev.c": '#include <linux/netdevice.h>\n#include "rxbisect.h"\n'
                       "struct sk_buff *skb;\n",
    f"{DRV}/model_a.c": '#include "rxb_ring.h"\n'
                        "/* the driver builds an skb from it */\n"
                        "static int rx_skbless;\n"
                        "/* ---- NIC side ---- */\n"
                        "void h(void *m) { rxb_hw_pcie(m, 0, 0, 4); }\n"
                        "/* ---- driver side ---- */\n"
                        "/* not rxb_nicmem_fetch() */\n"
                        'static const char *s = "rxb_hw_pcie(";\n'
                        "void d(void *m) { rxb_db_ring(m, 0, 0, 1); }\n"
                        "static void a_hw_debug(void *m, void *dbg)\n{\n"
                        "\trxb_hw_debug_fill(dbg, 0, 0, 0);\n}\n"
                        "/* ---- setup ---- */\n"
                        "void c(void *m) { rxb_hw_nicmem(m); }\n",
}

# name, file to (over)write, its text, expected "path:line" and message part
# name, files to (over)write in the good tree, expected "path:line" and a
# part of the message
BAD = [
    ("driver includes nic_hw.h",
     {f"{DRV}/ethtool.c": '#include <linux/types.h>\n#include "nic_hw.h"\n'},
     f"{DRV}/ethtool.c:2", "driver file includes nic_hw.h"),
    ("driver reaches nic_hw.h through a header",
     {f"{DRV}/helper.h": '#include "nic_hw.h"\n',
      f"{DRV}/rxbisect.h": '#include "nic.h"\n#include "helper.h"\n'},
     f"{DRV}/netdev.c:2", "via rxbisect.h -> helper.h -> nic_hw.h"),
    ("driver header includes nic_hw.h",
     {f"{DRV}/rxbisect.h": '#include "nic.h"\n#include "nic_hw.h"\n'},
     f"{DRV}/rxbisect.h:2", "driver file includes nic_hw.h"),
    ("NIC includes rxbisect.h",
     {f"{DRV}/nic_irq.c": '#include "nic_hw.h"\n#include "rxbisect.h"\n'},
     f"{DRV}/nic_irq.c:2", "NIC file includes the driver's rxbisect.h"),
    ("NIC names struct rxb_port",
     {f"{DRV}/nic.c": '#include "nic_hw.h"\n\nvoid f(struct rxb_port *p);\n'},
     f"{DRV}/nic.c:3", "struct rxb_port"),
    ("NIC names struct rxb_rx",
     {f"{DRV}/rss.c": '#include "nic_hw.h"\nint g(struct  rxb_rx *rx);\n'},
     f"{DRV}/rss.c:2", "struct rxb_rx"),
    ("NIC names struct rxb_rxq",
     {f"{DRV}/nic_dma.c": "void h(const struct rxb_rxq *q);\n"},
     f"{DRV}/nic_dma.c:1", "struct rxb_rxq"),
    ("NIC header names struct rxb_cfg",
     {f"{DRV}/nic.h": "struct rxb_nic;\nstruct rxb_cfg;\n"},
     f"{DRV}/nic.h:2", "struct rxb_cfg"),
    ("NIC header includes rxbisect.h",
     {f"{DRV}/nic_hw.h": '#include "rxbisect.h"\n'},
     f"{DRV}/nic_hw.h:1", "NIC file includes the driver's rxbisect.h"),
    ("model core includes nic.h",
     {f"{DRV}/model_b.c": '#include "rxb_ring.h"\n#include "nic.h"\n'},
     f"{DRV}/model_b.c:2", "model core includes nic.h"),
    ("model core includes nic_hw.h",
     {f"{DRV}/model_b.c": '#include "nic_hw.h"\n'},
     f"{DRV}/model_b.c:1", "model core includes nic_hw.h"),
    ("model core header includes rxbisect.h",
     {f"{DRV}/corec.h": '#include "rxbisect.h"\n'},
     f"{DRV}/corec.h:1", "model core includes rxbisect.h"),
    ("model core reaches nic_hw.h through rxb_ring.h",
     {f"{DRV}/rxb_ring.h": '#include "nic_hw.h"\n'},
     f"{DRV}/model_a.c:1", "via rxb_ring.h -> nic_hw.h"),
    ("model core calls an skb API",
     {f"{DRV}/model_c.c": "int f(void *p)\n{\n\treturn skb_headlen(p);\n}\n"},
     f"{DRV}/model_c.c:3", "skb_headlen"),
    ("model core header uses page_pool",
     {f"{DRV}/shring_x.h":
      "static void f(void *p) { page_pool_put_full_page(p, 0, 0); }\n"},
     f"{DRV}/shring_x.h:1", "page_pool_put_full_page"),
    ("model core includes <linux/netdevice.h>",
     {f"{DRV}/model_d.c": "#include <linux/netdevice.h>\n"},
     f"{DRV}/model_d.c:1", "<linux/netdevice.h>"),
    ("model core calls a netdev API",
     {f"{DRV}/model_e.c": 'void f(void *d) { netdev_warn(d, "x"); }\n'},
     f"{DRV}/model_e.c:1", "netdev_warn"),
    ("wss.c calls a napi API",
     {f"{DRV}/wss.c": "int w;\nvoid f(void *n) { napi_schedule(n); }\n"},
     f"{DRV}/wss.c:2", "napi_schedule"),
    ("model driver half calls the on-NIC memory tier",
     {f"{DRV}/model_f.c": "/* ---- driver side (Listing 1) ---- */\n"
                          "void d(void *nm)\n{\n"
                          "\trxb_nicmem_fetch (nm, 0, 0, 0, 0);\n}\n"},
     f"{DRV}/model_f.c:4", "driver half calls rxb_nicmem_fetch()"),
    ("model driver half calls an rxb_hw_ops service",
     {f"{DRV}/model_g.c": "/* ---- NIC side ---- */\n"
                          "void h(void *m) { rxb_hw_pcie(m, 0, 0, 4); }\n"
                          "/* ---- driver half ------------ */\n"
                          "static void g_hw_debug(void *m)\n{\n}\n"
                          "void d(void *m)\n{\n"
                          "\tint x = rxb_hw_dma_ptr(m, 0);\n}\n"},
     f"{DRV}/model_g.c:9", "driver half calls rxb_hw_dma_ptr()"),
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
