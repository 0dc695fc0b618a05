// COUNT(3) = a^n b^n c^n (n >= 0), Yang & Chiang 2024; the same program
// is examples/count3_yc24.cr of coli-saar/c-rasp.  Depth 2.
b_before_c  = #("b" && (#"c" == 0)) == #"b"
a_before_bc = #("a" && (#("b" || "c") == 0)) == #"a"
same_counts = (#"a" == #"b") && (#"b" == #"c")
count3      = b_before_c && a_before_bc && same_counts
