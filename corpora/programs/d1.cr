// D_1 = (ab)*, bounded Dyck of depth 1 (Yang, Veseli, Barloy et al.,
// arXiv 2608.13433, Def. 7): at every position #b <= #a <= #b + 1, and
// the counts are equal at the end.  Depth 2.
ca = #"a"
cb = #"b"
in_bounds = (cb <= ca) && (ca <= cb + 1)
d1 = (#(!in_bounds) == 0) && (ca == cb)
