# SPDX-License-Identifier: GPL-2.0
"""The kernel's python selftests (kdrv_tests.sh) load their netlink specs
with yaml.safe_load, PyYAML's pure-Python parser: seconds per spec under
TCG, most of a test's time.  Where PyYAML has libyaml, parse with its C
loader instead: the same safe subset, the same documents (PyYAML's
CSafeLoader; rxb_libyaml.py, which netdev_nl.py uses too).  Then the
system's own sitecustomize, which this one shadows on sys.path.
"""
import importlib.util
import os
import sys

from rxb_libyaml import use_libyaml

use_libyaml()

_here = os.path.dirname(os.path.abspath(__file__))
for _d in sys.path:
    _f = os.path.join(_d or ".", "sitecustomize.py")
    if os.path.abspath(_d or ".") != _here and os.path.isfile(_f):
        _spec = importlib.util.spec_from_file_location("_system_sitecustomize", _f)
        _spec.loader.exec_module(importlib.util.module_from_spec(_spec))
        break
