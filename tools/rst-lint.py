#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Lint every reStructuredText file of the tree with docutils.

Each *.rst file of the tree (git ls-files, untracked ones too; without
git, Documentation/*.rst) is parsed by docutils as rst2html would, with
every message of level WARNING or above reported as FILE:LINE:
(LEVEL/N) text, and each image it shows must exist.  Sphinx's toctree
directive, which docutils does not know, is accepted where its entries
name existing documents, and Documentation/index.rst must reach every
document of Documentation/ through its toctrees, as Sphinx would require.
Exit 0: clean; 1: messages (printed); 4: no docutils (python3-docutils).

usage: tools/rst-lint.py [FILE.rst...]
"""

import io
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INDEX = "Documentation/index.rst"

try:
    import docutils.core
    import docutils.utils
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives
except ImportError:
    print("rst-lint: no docutils for " + sys.executable
          + " (Debian: apt-get install python3-docutils; make deps)")
    sys.exit(4)


class toctree_node(nodes.General, nodes.Element):
    """A toctree's entries, for the reachability check; not rendered."""


class TocTree(Directive):
    """Sphinx's toctree as far as a lint needs it: its options, and one
    document name (relative, without .rst) per content line."""
    has_content = True
    option_spec = {
        "maxdepth": int, "caption": directives.unchanged, "numbered":
        directives.flag, "hidden": directives.flag, "glob": directives.flag,
        "titlesonly": directives.flag, "name": directives.unchanged,
    }

    def run(self):
        src = self.state.document.current_source
        base = os.path.dirname(src)
        node = toctree_node()
        node["entries"] = []
        out = [node]
        for i, line in enumerate(self.content):
            entry = line.strip()
            if not entry:
                continue
            # "Title <name>" names the document in the brackets
            if entry.endswith(">") and "<" in entry:
                entry = entry[entry.rindex("<") + 1:-1]
            path = os.path.abspath(os.path.join(base, entry + ".rst"))
            if not os.path.isfile(path):
                out.append(self.state.document.reporter.error(
                    f"toctree: no document {entry!r} ({path})",
                    line=self.content_offset + i + 1))
                continue
            node["entries"].append(path)
        return out


directives.register_directive("toctree", TocTree)


def rst_files():
    try:
        out = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "--cached",
                              "--others", "--exclude-standard", "*.rst"],
                             check=True, capture_output=True).stdout
        files = [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
    if not files:
        d = os.path.join(TOP, "Documentation")
        files = ["Documentation/" + f for f in os.listdir(d) if f.endswith(".rst")]
    return sorted(files)


def lint(path):
    """(messages, toctree entries) of one file."""
    err = io.StringIO()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = docutils.core.publish_doctree(
        text, source_path=path,
        settings_overrides={"report_level": 2, "halt_level": 5,
                            "warning_stream": err, "input_encoding": "utf-8",
                            "file_insertion_enabled": True,
                            "raw_enabled": False})
    find = doc.findall if hasattr(doc, "findall") else doc.traverse
    entries = []
    for node in find(toctree_node):
        entries += node["entries"]
    msgs = err.getvalue()
    # images: docutils leaves their files to the writer
    for node in find(nodes.image):
        uri = node["uri"]
        if "://" not in uri and not os.path.isfile(
                os.path.join(os.path.dirname(path), uri)):
            msgs += f"{path}:{node.line}: (ERROR/3) image file not found: {uri}\n"
    return msgs, entries


def main(argv):
    if any(a.startswith("-") for a in argv):
        sys.exit(__doc__.split("\n\n")[-1])
    os.chdir(TOP)
    files = argv or rst_files()
    bad = 0
    toc = {}
    for f in files:
        msgs, entries = lint(f)
        toc[os.path.normpath(os.path.abspath(f))] = entries
        if msgs:
            bad += 1
            sys.stdout.write(msgs)
    # Every document of Documentation/ reachable from its index.
    index = os.path.abspath(INDEX)
    if not argv and index in toc:
        seen, todo = {index}, [index]
        while todo:
            for e in toc.get(todo.pop(), []):
                if e not in seen:
                    seen.add(e)
                    todo.append(e)
        lost = [os.path.relpath(f) for f in toc
                if os.path.relpath(f).startswith("Documentation/") and f not in seen]
        for f in sorted(lost):
            print(f"{f}: not in any toctree of {INDEX}")
        bad += len(lost)
    elif not argv:
        print(f"{INDEX}: missing")
        bad += 1
    print(f"rst-lint: {len(files)} files, "
          + (f"{bad} with problems" if bad else "clean")
          + f" (docutils {docutils.__version__})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
