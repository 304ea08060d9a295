"""One witness module per mission: numerical checks of every target's claim (see witness.py)."""
