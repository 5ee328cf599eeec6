from . import sibling
from ..pkg.mod import (a as b,
                       c,)
from triton import *
x: int = 3
y += 1; z //= 2
del y
global g
if a: pass
elif b:
    pass
else:
    pass
while x > 0:
    x -= 1
    if x == 3:
        break
    continue
else:
    x = 0
for i in range(10):
    pass
try:
    raise ValueError("no") from None
except (ValueError, TypeError) as err:
    pass
finally:
    pass
