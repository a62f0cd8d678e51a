"""Objects whose hooks run user code inside the library's calls and change
what the library is reading: the containers they sit in, the dictionaries
that hold them, their own attributes.  Shared by the tests and the fuzzer."""


class Clearing:
    """An integer whose __index__ first empties the given containers (lists,
    dicts), dropping what they held, then returns value or raises."""

    def __init__(self, value, *containers, error=None):
        self.value = value
        self.containers = list(containers)
        self.error = error

    def __index__(self):
        for c in self.containers:
            c.clear()
        if self.error is not None:
            raise self.error
        return self.value


def emptied_list(values, error=None, also=()):
    """A list of values whose first item empties the list (and the
    containers in also) when it is read."""
    items = list(values)
    if not items:
        return items
    items[0] = Clearing(items[0], items, *also, error=error)
    return items


def null_name_capsule():
    """A capsule whose name is NULL, which the C API allows."""
    import ctypes

    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.c_void_p(8), None, None)


class DtypeAttr:
    """An object with a dtype attribute that may change between calls."""

    def __init__(self, dtype):
        self.dtype = dtype
