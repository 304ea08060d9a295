import Formal.AletheanChecksum.Defs
import Formal.AletheanChecksum.Statements
import Formal.AletheanChecksum.Proofs

/-!
# Mission `alethean-checksum`

This is the root module of the mission formalizing the goal of seed 08, the Alethean corpus: the
random-checksum error-detection bound. Appending an independent, uniformly random checksum with
`K` values to an arbitrary (possibly lossy) inner code makes the probability of silent
corruption (decoded output differs from the source, yet the checksum test passes) at most `1/K`,
for every source string and every inner decoder. The corpus capstones that the seed lists are
`external` targets of the mission YAML (github.com/raver1975/lean, commit 53c2925a02); they are
not stated or proved here.

* `Formal.AletheanChecksum.Defs`: the finite model (uniform probability on a finite space).
* `Formal.AletheanChecksum.Statements`: the goal statement.
* `Formal.AletheanChecksum.Proofs`: its proof.
-/
