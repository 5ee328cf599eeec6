f = lambda meta, *a, k=1, **kw: (meta["BLOCK"], a)
g = x if y else z
h = not a and b or c
i = a < b <= c != d is not e not in f in g
j = -x ** 2 + ~y * z // w % v @ u
k = [x * 2 for x in range(4) if x for y in z]
l = {k: v for k, v in items}
m = {s for s in t}
n = sum(x for x in y)
o = call(*args, key=1, **kwargs)
p = t[1:2, ::3, None, ..., -1]
q = a | b ^ c & d << 1 >> 2
r, *s = t
