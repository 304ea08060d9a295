import Formal.MAE
import Formal.SharpMinima
import Formal.LPFT
