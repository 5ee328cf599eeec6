a = [1, 1_000, 0x7F, 0o17, 0b101, 1.5, .5, 1., 1e-5, 2.5E+3]
b = ("x" 'y' """z
w""", r"\n", b"bytes", f"{a[0]!r:>10} and {{braces}}")
c = -float("inf"), float('nan'), None, True, False, ...
d = {"k": 1, **e}, {1, 2}, {}, ()
