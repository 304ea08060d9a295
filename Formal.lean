import Formal.MAE
