// ab is a scattered subsequence: some b has an a before it (Knee-Deep
// §6.3, the subsequence test S(ab)).  Depth 2.
seen_a = #"a" >= 1
subseq_ab = #("b" && seen_a) >= 1
