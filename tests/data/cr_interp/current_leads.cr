// per-position comparison: the current token has occurred more often
// than the other one so far
ca = #"a"
cb = #"b"
lead = ("a" && ca > cb) || ("b" && cb > ca)
