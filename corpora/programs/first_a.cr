// The first letter is a (an a before any b).  Depth 2; depth
// 1 cannot tell abb from bab (Knee-Deep, Yang, Cadilhac & Chiang 2025).
no_b_yet = #"b" == 0
first_a = #("a" && no_b_yet) >= 1
