"""The lexer and scanner compiled with mypyc by ``setup.py`` at install time, if it could.

Nothing imports this package directly: :mod:`missions.lean.native` decides whether its
modules may be used (built from the sources on disk) and loads them.
"""
