"""The whole bad-input catalogue, gathered from its areas'
test_bad_inputs_*.py files (each imports the rows' helpers from
bad_input_helpers.py): test_bad_inputs.py checks the catalogue as a whole,
and the atheris fuzzer (fuzz/python/fuzz_entry_points.py) seeds one input
per row."""

import test_bad_inputs_array_methods
import test_bad_inputs_creation
import test_bad_inputs_data_types
import test_bad_inputs_devices_memory
import test_bad_inputs_elementwise
import test_bad_inputs_hostile
import test_bad_inputs_indexing
import test_bad_inputs_linalg_fft
import test_bad_inputs_manipulation
import test_bad_inputs_protocols
import test_bad_inputs_reductions

AREAS = (
    test_bad_inputs_devices_memory,
    test_bad_inputs_creation,
    test_bad_inputs_array_methods,
    test_bad_inputs_elementwise,
    test_bad_inputs_indexing,
    test_bad_inputs_protocols,
    test_bad_inputs_hostile,
    test_bad_inputs_manipulation,
    test_bad_inputs_data_types,
    test_bad_inputs_reductions,
    test_bad_inputs_linalg_fft,
)

CASES = [case for area in AREAS for case in area.CASES]
