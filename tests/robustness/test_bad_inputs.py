"""The bad-input catalogue: malformed inputs to every public entry point,
each with the exception a user can catch and a fragment of its message.

Every case runs in a fresh call; none may crash, leak or corrupt memory.
The ASan build of CI runs these files with the extension instrumented.
The rows live by area in test_bad_inputs_*.py beside this file (devices
and memory, creation, the array's methods, elementwise functions,
indexing, the exchange protocols, hostile hooks, manipulation, data types,
reductions, products with linalg and fft), which bad_inputs.py gathers;
this file checks the catalogue as a whole."""

import sys

import usmarray as ua
from bad_inputs import CASES


def test_the_catalogue_is_large_enough():
    assert len(CASES) >= 200
    assert len({c.id for c in CASES}) == len(CASES)


def test_the_library_is_usable_after_the_catalogue():
    for case in CASES:
        try:
            case.values[0]()
        except BaseException:
            pass
    x = ua.arange(10.0, usm_type="host")
    assert ua.asnumpy(x[::-3]).tolist() == [9.0, 6.0, 3.0, 0.0]
    assert sys.getrefcount(x) == 2
