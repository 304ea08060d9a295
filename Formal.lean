import Formal.MAE
import Formal.SharpMinima
import Formal.LPFT
import Formal.NTKInit
import Formal.ClockRoPE
import Formal.TennisBestOf
import Formal.AletheanChecksum
