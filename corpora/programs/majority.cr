// MAJORITY: more a's than b's (Yang & Chiang 2024).  Depth 1.
majority = #"b" < #"a"
