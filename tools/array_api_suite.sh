#!/usr/bin/env bash
# Runs the official Array API test suite (data-apis/array-api-tests, pinned
# outside the project) against the usmarray that the running python
# imports, as ARRAY_API_TESTS.md says: from a temporary directory,
# derandomized, with the expected-failures file and strict xfails, so that a
# test that starts passing fails the run until its line leaves the file.
#   tools/array_api_suite.sh [more pytest arguments]
# The environment chooses:
#   USMARRAY_DEVICE       the default device the suite's arrays live on
#                         (host, cuda, a SYCL filter string such as opencl:cpu)
#   ARRAY_API_TESTS_DIR   the suite (default: ../shared/array-api-tests from
#                         the project's root)
#   ARRAY_API_XFAILS      the expected-failures file (default:
#                         tests/array_api/xfails.txt; empty: none)
#   ARRAY_API_MAX_EXAMPLES  Hypothesis examples per test (default 20)
#   ARRAY_API_TESTS_VERSION the standard's version tested (default 2025.12;
#                         2024.12 with tests/array_api/xfails_2024.txt)
#   PYTHON                the interpreter (default: python)
# Hypothesis's shrinking is off (tests/array_api/suite_settings.py): with
# most of the namespace still missing, shrinking every failing example took
# the run past 20 minutes; without it a run takes about 2.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=${ARRAY_API_TESTS_DIR:-$root/../shared/array-api-tests}
suite=$(cd "$suite" && pwd)
xfails=${ARRAY_API_XFAILS-$root/tests/array_api/xfails.txt}
args=()
if [ -n "$xfails" ]; then
    args+=(--xfails-file "$(cd "$(dirname "$xfails")" && pwd)/$(basename "$xfails")")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ARRAY_API_TESTS_MODULE=usmarray ARRAY_API_TESTS_VERSION=${ARRAY_API_TESTS_VERSION:-2025.12} \
    PYTHONPATH="$root/tests/array_api${PYTHONPATH:+:$PYTHONPATH}" \
    "${PYTHON:-python}" -m pytest -p suite_settings -p no:cacheprovider \
    --rootdir="$suite" -c "$suite/pytest.ini" "$suite/array_api_tests" \
    --max-examples="${ARRAY_API_MAX_EXAMPLES:-20}" --disable-deadline --derandomize \
    -o xfail_strict=true "${args[@]}" "$@"
