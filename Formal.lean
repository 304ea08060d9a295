import Formal.MAE
import Formal.SharpMinima
