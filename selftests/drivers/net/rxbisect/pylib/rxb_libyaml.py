# SPDX-License-Identifier: GPL-2.0
"""PyYAML's C parser for the netlink specs.

The kernel's YNL library loads its specs with yaml.safe_load, PyYAML's
pure-Python parser: seconds per spec under TCG.  use_libyaml() makes
yaml.safe_load parse with libyaml (PyYAML's CSafeLoader: the same safe
subset, the same documents) where PyYAML has it.  Used by
sitecustomize.py (kdrv_tests.sh's python tests) and netdev_nl.py.
"""


def use_libyaml():
    """Point yaml.safe_load at CSafeLoader; False when it cannot."""
    try:
        import yaml
    except ImportError:
        return False
    if not getattr(yaml, "__with_libyaml__", False):
        return False

    def _c_safe_load(stream):
        return yaml.load(stream, Loader=yaml.CSafeLoader)

    yaml.safe_load = _c_safe_load
    return True
