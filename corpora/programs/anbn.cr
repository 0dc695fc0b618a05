// a^n b^n, n >= 1: no a after a b, as many a's as b's, at least one a.
// Written for tally from the prelude's formula anbn.  Depth 2.
seen_b = #"b" >= 1
a_after_b = #("a" && seen_b) == 0
same = #"a" == #"b"
anbn = a_after_b && same && (#"a" >= 1)
