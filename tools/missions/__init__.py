"""Track, gate and report Lean 4 formalization missions.

The package is usable without Lean: statuses come from a source scan of the workspace
(evidence ``source``). Everything a command does lives in the library modules so it can be
tested and reused; :mod:`missions.cli` only parses arguments and prints.
"""

__version__ = "0.1.0"

#: Bump whenever scan results change shape or meaning; it keys every cache.
SCANNER_VERSION = "10"
