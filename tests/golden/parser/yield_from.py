def g():
    yield from range(3)
