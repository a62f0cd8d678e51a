"""The layouts every interop test round-trips: each a function of a fresh
host-accessible USMArray of shape (4, 6)."""

LAYOUTS = {
    "c-ordered": lambda x: x,
    "strided": lambda x: x[::2, 1::2],
    "negative-stride": lambda x: x[::-1, ::-2],
    "transposed": lambda x: x.T,
    "0-d": lambda x: x[1, 2],
    "zero-size": lambda x: x[3:3],
}
