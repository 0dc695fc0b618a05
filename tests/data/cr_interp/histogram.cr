// histogram: how often the current token has occurred so far
ca = #"a"
cb = #"b"
h = ca if "a" else cb
