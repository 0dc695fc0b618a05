// L_3 = a+b+a+ (Knee-Deep §6.3): subsequence aba and not bab.  Depth 3.
sub_a = #"a" >= 1
sub_b = #"b" >= 1
sub_ab = #("b" && sub_a) >= 1
sub_ba = #("a" && sub_b) >= 1
sub_aba = #("a" && sub_ab) >= 1
sub_bab = #("b" && sub_ba) >= 1
L3 = sub_aba && !sub_bab
