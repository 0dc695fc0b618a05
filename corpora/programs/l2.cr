// L_2 = a+b+ (Knee-Deep §6.3): subsequence ab and not ba.  Depth 2.
sub_a = #"a" >= 1
sub_b = #"b" >= 1
sub_ab = #("b" && sub_a) >= 1
sub_ba = #("a" && sub_b) >= 1
L2 = sub_ab && !sub_ba
