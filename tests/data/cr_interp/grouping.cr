// a count whose value depends on the interpreter's grouping of '-' and
// '+' and of '*' (each to the right: 2 * (ca - (cb + 1)))
ca = #"a"
cb = #"b"
m = 2 * ca - cb + 1
