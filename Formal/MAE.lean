import Formal.MAE.Defs
import Formal.MAE.Statements
import Formal.MAE.Proofs

/-!
# Mission `mae-normalized-pixel`

This is the root module of the mission formalizing seed 10, "A normalized-pixel objective with a
constant representation". A masked autoencoder with the patchwise normalized-pixel target
(He et al. 2022, §3.3) reaches zero expected masked reconstruction loss on a two-image example.
Its encoder is constant, so the representation cannot separate the two labels.

* `Formal.MAE.Defs`: the finite model (patches, target, mask law, encoder, decoder, losses).
* `Formal.MAE.Statements`: one Prop-valued definition per target.
* `Formal.MAE.Proofs`: one theorem per target.
-/
