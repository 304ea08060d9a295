"""Reading Lean 4 source without Lean: lexer, per-file scanner, and the workspace index."""
