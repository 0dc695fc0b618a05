// a running count of the token a
c = #"a"
