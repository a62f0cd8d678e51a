#                      Data Parallel Control (dpctl)
#
# Copyright 2020-2025 Intel Corporation
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# Translated from dpctl 0.21.1, dpctl/tests/test_usm_ndarray_manipulation.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import ExecutionPlacementError


import itertools

import numpy as np
import pytest
from numpy.testing import assert_, assert_array_equal, assert_raises_regex

import usmarray as ua
from numpy.exceptions import AxisError
from dpctl_helpers import get_queue_or_skip
from dpctl_helpers import ExecutionPlacementError


def test_permute_dims_incorrect_type():
    X_list = list([[1, 2, 3], [4, 5, 6]])
    X_tuple = tuple(X_list)
    Xnp = np.array(X_list)

    pytest.raises(TypeError, ua.permute_dims, X_list, (1, 0))
    pytest.raises(TypeError, ua.permute_dims, X_tuple, (1, 0))
    pytest.raises(TypeError, ua.permute_dims, Xnp, (1, 0))


def test_permute_dims_empty_array():
    q = get_queue_or_skip()

    Xnp = np.empty((10, 0))
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.permute_dims(X, (1, 0))
    Ynp = np.transpose(Xnp, (1, 0))
    assert_array_equal(Ynp, ua.asnumpy(Y))


def test_permute_dims_0d_1d():
    q = get_queue_or_skip()

    Xnp_0d = np.array(1, dtype="int64")
    X_0d = ua.asarray(Xnp_0d, sycl_queue=q)
    Y_0d = ua.permute_dims(X_0d, ())
    assert_array_equal(ua.asnumpy(Y_0d), ua.asnumpy(X_0d))

    Xnp_1d = np.random.randint(0, 2, size=6, dtype="int64")
    X_1d = ua.asarray(Xnp_1d, sycl_queue=q)
    Y_1d = ua.permute_dims(X_1d, (0))
    assert_array_equal(ua.asnumpy(Y_1d), ua.asnumpy(X_1d))

    pytest.raises(ValueError, ua.permute_dims, X_1d, ())
    pytest.raises(AxisError, ua.permute_dims, X_1d, (1))
    pytest.raises(ValueError, ua.permute_dims, X_1d, (1, 0))
    pytest.raises(
        ValueError, ua.permute_dims, ua.reshape(X_1d, (2, 3)), (1, 1)
    )


@pytest.mark.parametrize("shapes", [(2, 2), (1, 4), (3, 3, 3), (4, 1, 3)])
def test_permute_dims_2d_3d(shapes):
    q = get_queue_or_skip()

    Xnp_size = np.prod(shapes)

    Xnp = np.random.randint(0, 2, size=Xnp_size, dtype="int64").reshape(shapes)
    X = ua.asarray(Xnp, sycl_queue=q)
    X_ndim = X.ndim
    if X_ndim == 2:
        Y = ua.permute_dims(X, (1, 0))
        Ynp = np.transpose(Xnp, (1, 0))
    elif X_ndim == 3:
        X = ua.asarray(Xnp, sycl_queue=q)
        Y = ua.permute_dims(X, (2, 0, 1))
        Ynp = np.transpose(Xnp, (2, 0, 1))
    assert_array_equal(Ynp, ua.asnumpy(Y))


def test_expand_dims_incorrect_type():
    X_list = [1, 2, 3, 4, 5]
    with pytest.raises(TypeError):
        ua.permute_dims(X_list, axis=1)


def test_expand_dims_0d():
    q = get_queue_or_skip()

    Xnp = np.array(1, dtype="int64")
    X = ua.asarray(Xnp, sycl_queue=q)

    Y = ua.expand_dims(X, axis=0)
    Ynp = np.expand_dims(Xnp, axis=0)
    assert_array_equal(Ynp, ua.asnumpy(Y))

    Y = ua.expand_dims(X, axis=-1)
    Ynp = np.expand_dims(Xnp, axis=-1)
    assert_array_equal(Ynp, ua.asnumpy(Y))

    pytest.raises(AxisError, ua.expand_dims, X, axis=1)
    pytest.raises(AxisError, ua.expand_dims, X, axis=-2)


@pytest.mark.parametrize("shapes", [(3,), (3, 3), (3, 3, 3)])
def test_expand_dims_1d_3d(shapes):
    q = get_queue_or_skip()

    Xnp_size = np.prod(shapes)

    Xnp = np.random.randint(0, 2, size=Xnp_size, dtype="int64").reshape(shapes)
    X = ua.asarray(Xnp, sycl_queue=q)
    shape_len = len(shapes)
    for axis in range(-shape_len - 1, shape_len):
        Y = ua.expand_dims(X, axis=axis)
        Ynp = np.expand_dims(Xnp, axis=axis)
        assert_array_equal(Ynp, ua.asnumpy(Y))

    pytest.raises(AxisError, ua.expand_dims, X, axis=shape_len + 1)
    pytest.raises(AxisError, ua.expand_dims, X, axis=-shape_len - 2)


@pytest.mark.parametrize(
    "axes", [(0, 1, 2), (0, -1, -2), (0, 3, 5), (0, -3, -5)]
)
def test_expand_dims_tuple(axes):
    q = get_queue_or_skip()

    Xnp = np.empty((3, 3, 3), dtype="u1")
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.expand_dims(X, axis=axes)
    Ynp = np.expand_dims(Xnp, axis=axes)
    assert_array_equal(Ynp, ua.asnumpy(Y))


def test_expand_dims_incorrect_tuple():
    try:
        X = ua.empty((3, 3, 3), dtype="i4")
    except ValueError:
        pytest.skip("No SYCL devices available")
    with pytest.raises(AxisError):
        ua.expand_dims(X, axis=(0, -6))
    with pytest.raises(AxisError):
        ua.expand_dims(X, axis=(0, 5))

    with pytest.raises(ValueError):
        ua.expand_dims(X, axis=(1, 1))


def test_squeeze_incorrect_type():
    X_list = [1, 2, 3, 4, 5]
    with pytest.raises(TypeError):
        ua.permute_dims(X_list, 1)


def test_squeeze_0d():
    q = get_queue_or_skip()

    Xnp = np.array(1)
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.squeeze(X)
    Ynp = Xnp.squeeze()
    assert_array_equal(Ynp, ua.asnumpy(Y))

    Y = ua.squeeze(X, 0)
    Ynp = Xnp.squeeze(0)
    assert_array_equal(Ynp, ua.asnumpy(Y))

    Y = ua.squeeze(X, (0))
    Ynp = Xnp.squeeze((0))
    assert_array_equal(Ynp, ua.asnumpy(Y))

    Y = ua.squeeze(X, -1)
    Ynp = Xnp.squeeze(-1)
    assert_array_equal(Ynp, ua.asnumpy(Y))

    pytest.raises(AxisError, ua.squeeze, X, 1)
    pytest.raises(AxisError, ua.squeeze, X, -2)
    pytest.raises(AxisError, ua.squeeze, X, (1))
    pytest.raises(AxisError, ua.squeeze, X, (-2))
    pytest.raises(ValueError, ua.squeeze, X, (0, 0))


@pytest.mark.parametrize(
    "shapes",
    [
        (0),
        (1),
        (1, 2),
        (2, 1),
        (1, 1),
        (2, 2),
        (1, 0),
        (0, 1),
        (1, 2, 1),
        (2, 1, 2),
        (2, 2, 2),
        (1, 1, 1),
        (1, 0, 1),
        (0, 1, 0),
    ],
)
def test_squeeze_without_axes(shapes):
    q = get_queue_or_skip()

    Xnp = np.empty(shapes, dtype="u1")
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.squeeze(X)
    Ynp = Xnp.squeeze()
    assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize("axes", [0, 2, (0), (2), (0, 2)])
def test_squeeze_axes_arg(axes):
    q = get_queue_or_skip()

    Xnp = np.array([[[1], [2], [3]]], dtype="u1")
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.squeeze(X, axes)
    Ynp = Xnp.squeeze(axes)
    assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize("axes", [1, -2, (1), (-2), (0, 0), (1, 1)])
def test_squeeze_axes_arg_error(axes):
    q = get_queue_or_skip()

    Xnp = np.array([[[1], [2], [3]]], dtype="u1")
    X = ua.asarray(Xnp, sycl_queue=q)
    pytest.raises(ValueError, ua.squeeze, X, axes)


@pytest.mark.parametrize(
    "data",
    [
        [np.array(0, dtype="u1"), (0,)],
        [np.array(0, dtype="u1"), (1,)],
        [np.array(0, dtype="u1"), (3,)],
        [np.ones(1, dtype="u1"), (1,)],
        [np.ones(1, dtype="u1"), (2,)],
        [np.ones(1, dtype="u1"), (1, 2, 3)],
        [np.arange(3, dtype="u1"), (3,)],
        [np.arange(3, dtype="u1"), (1, 3)],
        [np.arange(3, dtype="u1"), (2, 3)],
        [np.ones(0, dtype="u1"), 0],
        [np.ones(1, dtype="u1"), 1],
        [np.ones(1, dtype="u1"), 2],
        [np.ones(1, dtype="u1"), (0,)],
        [np.ones((1, 2), dtype="u1"), (0, 2)],
        [np.ones((2, 1), dtype="u1"), (2, 0)],
    ],
)
def test_broadcast_to_succeeds(data):
    q = get_queue_or_skip()

    Xnp, target_shape = data
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.broadcast_to(X, target_shape)
    Ynp = np.broadcast_to(Xnp, target_shape)
    assert_array_equal(ua.asnumpy(Y), Ynp)


@pytest.mark.parametrize(
    "data",
    [
        [(0,), ()],
        [(1,), ()],
        [(3,), ()],
        [(3,), (1,)],
        [(3,), (2,)],
        [(3,), (4,)],
        [(1, 2), (2, 1)],
        [(1, 1), (1,)],
        [(1,), -1],
        [(1,), (-1,)],
        [(1, 2), (-1, 2)],
    ],
)
def test_broadcast_to_raises(data):
    q = get_queue_or_skip()

    orig_shape, target_shape = data
    Xnp = np.zeros(orig_shape, dtype="i1")
    X = ua.asarray(Xnp, sycl_queue=q)
    pytest.raises(ValueError, ua.broadcast_to, X, target_shape)


def assert_broadcast_correct(input_shapes):
    q = get_queue_or_skip()
    np_arrays = [np.zeros(s, dtype="i1") for s in input_shapes]
    out_np_arrays = np.broadcast_arrays(*np_arrays)
    usm_arrays = [ua.asarray(Xnp, sycl_queue=q) for Xnp in np_arrays]
    out_usm_arrays = ua.broadcast_arrays(*usm_arrays)
    for Xnp, X in zip(out_np_arrays, out_usm_arrays):
        assert_array_equal(
            Xnp, ua.asnumpy(X), err_msg=f"Failed for {input_shapes})"
        )


def assert_broadcast_arrays_raise(input_shapes):
    q = get_queue_or_skip()
    usm_arrays = [ua.asarray(np.zeros(s), sycl_queue=q) for s in input_shapes]
    pytest.raises(ValueError, ua.broadcast_arrays, *usm_arrays)


def test_broadcast_arrays_same():
    q = get_queue_or_skip()
    Xnp = np.arange(10)
    Ynp = np.arange(10)
    res_Xnp, res_Ynp = np.broadcast_arrays(Xnp, Ynp)
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.asarray(Ynp, sycl_queue=q)
    res_X, res_Y = ua.broadcast_arrays(X, Y)
    assert_array_equal(res_Xnp, ua.asnumpy(res_X))
    assert_array_equal(res_Ynp, ua.asnumpy(res_Y))


def test_broadcast_arrays_one_off():
    q = get_queue_or_skip()
    Xnp = np.array([[1, 2, 3]])
    Ynp = np.array([[1], [2], [3]])
    res_Xnp, res_Ynp = np.broadcast_arrays(Xnp, Ynp)
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.asarray(Ynp, sycl_queue=q)
    res_X, res_Y = ua.broadcast_arrays(X, Y)
    assert_array_equal(res_Xnp, ua.asnumpy(res_X))
    assert_array_equal(res_Ynp, ua.asnumpy(res_Y))


@pytest.mark.parametrize(
    "shapes",
    [
        (),
        (1,),
        (3,),
        (0, 1),
        (0, 3),
        (1, 0),
        (3, 0),
        (1, 3),
        (3, 1),
        (3, 3),
    ],
)
def test_broadcast_arrays_same_shapes(shapes):
    for shape in shapes:
        single_input_shapes = [shape]
        assert_broadcast_correct(single_input_shapes)
        double_input_shapes = [shape, shape]
        assert_broadcast_correct(double_input_shapes)
        triple_input_shapes = [shape, shape, shape]
        assert_broadcast_correct(triple_input_shapes)


@pytest.mark.parametrize(
    "shapes",
    [
        [[(1,), (3,)]],
        [[(1, 3), (3, 3)]],
        [[(3, 1), (3, 3)]],
        [[(1, 3), (3, 1)]],
        [[(1, 1), (3, 3)]],
        [[(1, 1), (1, 3)]],
        [[(1, 1), (3, 1)]],
        [[(1, 0), (0, 0)]],
        [[(0, 1), (0, 0)]],
        [[(1, 0), (0, 1)]],
        [[(1, 1), (0, 0)]],
        [[(1, 1), (1, 0)]],
        [[(1, 1), (0, 1)]],
    ],
)
def test_broadcast_arrays_same_len_shapes(shapes):
    # Check that two different input shapes of the same length, but some have
    # ones, broadcast to the correct shape.

    for input_shapes in shapes:
        assert_broadcast_correct(input_shapes)
        assert_broadcast_correct(input_shapes[::-1])


@pytest.mark.parametrize(
    "shapes",
    [
        [[(), (3,)]],
        [[(3,), (3, 3)]],
        [[(3,), (3, 1)]],
        [[(1,), (3, 3)]],
        [[(), (3, 3)]],
        [[(1, 1), (3,)]],
        [[(1,), (3, 1)]],
        [[(1,), (1, 3)]],
        [[(), (1, 3)]],
        [[(), (3, 1)]],
        [[(), (0,)]],
        [[(0,), (0, 0)]],
        [[(0,), (0, 1)]],
        [[(1,), (0, 0)]],
        [[(), (0, 0)]],
        [[(1, 1), (0,)]],
        [[(1,), (0, 1)]],
        [[(1,), (1, 0)]],
        [[(), (1, 0)]],
        [[(), (0, 1)]],
    ],
)
def test_broadcast_arrays_different_len_shapes(shapes):
    # Check that two different input shapes (of different lengths) broadcast
    # to the correct shape.

    for input_shapes in shapes:
        assert_broadcast_correct(input_shapes)
        assert_broadcast_correct(input_shapes[::-1])


@pytest.mark.parametrize(
    "shapes",
    [
        [[(3,), (4,)]],
        [[(2, 3), (2,)]],
        [[(3,), (3,), (4,)]],
        [[(1, 3, 4), (2, 3, 3)]],
    ],
)
def test_incompatible_shapes_raise_valueerror(shapes):
    for input_shapes in shapes:
        assert_broadcast_arrays_raise(input_shapes)
        assert_broadcast_arrays_raise(input_shapes[::-1])


def test_broadcast_arrays_no_args():
    with pytest.raises(ValueError):
        ua.broadcast_arrays()


def test_flip_axis_incorrect():
    q = get_queue_or_skip()

    X_np = np.ones((4, 4))
    X = ua.asarray(X_np, sycl_queue=q)

    pytest.raises(AxisError, ua.flip, ua.asarray(np.ones(4)), axis=1)
    pytest.raises(AxisError, ua.flip, X, axis=2)
    pytest.raises(AxisError, ua.flip, X, axis=-3)
    pytest.raises(AxisError, ua.flip, X, axis=(0, 3))


def test_flip_0d():
    q = get_queue_or_skip()

    Xnp = np.array(1, dtype="int64")
    X = ua.asarray(Xnp, sycl_queue=q)
    Ynp = np.flip(Xnp)
    Y = ua.flip(X)
    assert_array_equal(Ynp, ua.asnumpy(Y))

    pytest.raises(AxisError, ua.flip, X, axis=0)
    pytest.raises(AxisError, ua.flip, X, axis=1)
    pytest.raises(AxisError, ua.flip, X, axis=-1)


def test_flip_1d():
    q = get_queue_or_skip()

    Xnp = np.arange(6)
    X = ua.asarray(Xnp, sycl_queue=q)

    for ax in range(-X.ndim, X.ndim):
        Ynp = np.flip(Xnp, axis=ax)
        Y = ua.flip(X, axis=ax)
        assert_array_equal(Ynp, ua.asnumpy(Y))

    Ynp = np.flip(Xnp, axis=0)
    Y = ua.flip(X, axis=0)
    assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize(
    "shapes",
    [
        (3, 2),
        (2, 3),
        (2, 2),
        (3, 3),
        (3, 2, 3),
        (2, 3, 2),
        (2, 2, 2),
        (3, 3, 3),
    ],
)
def test_flip_2d_3d(shapes):
    q = get_queue_or_skip()

    Xnp_size = np.prod(shapes)
    Xnp = np.arange(Xnp_size).reshape(shapes)
    X = ua.asarray(Xnp, sycl_queue=q)
    for ax in range(-X.ndim, X.ndim):
        Y = ua.flip(X, axis=ax)
        Ynp = np.flip(Xnp, axis=ax)
        assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize(
    "shapes",
    [
        (1,),
        (3,),
        (2, 3),
        (3, 2),
        (2, 2),
        (1, 2, 3),
        (2, 1, 3),
        (2, 3, 1),
        (3, 2, 1),
        (3, 3, 3),
    ],
)
def test_flip_default_axes(shapes):
    q = get_queue_or_skip()

    Xnp_size = np.prod(shapes)
    Xnp = np.arange(Xnp_size).reshape(shapes)
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.flip(X)
    Ynp = np.flip(Xnp)
    assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize(
    "shapes",
    [
        (0),
        (1),
        (1, 1),
        (1, 0),
        (0, 1),
        (1, 1, 1),
        (1, 0, 1),
        (0, 1, 0),
    ],
)
def test_flip_empty_0_size_dim(shapes):
    q = get_queue_or_skip()

    X = ua.empty(shapes, sycl_queue=q)
    ua.flip(X)


@pytest.mark.parametrize(
    "data",
    [
        [(2, 3), (0, 1)],
        [(2, 3), (1, 0)],
        [(2, 3), ()],
        [(2, 1, 3), (0, 2)],
        [(3, 1, 2), (2, 0)],
        [(3, 3, 3), (2,)],
        [(1, 2, 3), [0, -2]],
        [(3, 1, 2), [-1, 0]],
        [(3, 3, 3), [-2, -1]],
    ],
)
def test_flip_multiple_axes(data):
    q = get_queue_or_skip()

    shape, axes = data
    Xnp_size = np.prod(shape)
    Xnp = np.arange(Xnp_size).reshape(shape)
    X = ua.asarray(Xnp, sycl_queue=q)
    Y = ua.flip(X, axis=axes)
    Ynp = np.flip(Xnp, axis=axes)
    assert_array_equal(Ynp, ua.asnumpy(Y))


def test_roll_empty():
    q = get_queue_or_skip()

    Xnp = np.empty([])
    X = ua.asarray(Xnp, sycl_queue=q)

    Y = ua.roll(X, 1)
    Ynp = np.roll(Xnp, 1)
    assert_array_equal(Ynp, ua.asnumpy(Y))
    with pytest.raises(AxisError):
        ua.roll(X, 1, axis=0)
    with pytest.raises(AxisError):
        ua.roll(X, 1, axis=1)


@pytest.mark.parametrize(
    "data",
    [
        [2, None],
        [-2, None],
        [2, 0],
        [-2, 0],
        [2, ()],
        [11, 0],
    ],
)
def test_roll_1d(data):
    q = get_queue_or_skip()

    Xnp = np.arange(10)
    X = ua.asarray(Xnp, sycl_queue=q)
    sh, ax = data

    Y = ua.roll(X, sh, axis=ax)
    Ynp = np.roll(Xnp, sh, axis=ax)
    assert_array_equal(Ynp, ua.asnumpy(Y))

    Y = ua.roll(X, sh, axis=ax)
    Ynp = np.roll(Xnp, sh, axis=ax)
    assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize(
    "data",
    [
        [1, None],
        [1, 0],
        [1, 1],
        [1, ()],
        # Roll multiple axes at once
        [1, (0, 1)],
        [(1, 0), (0, 1)],
        [(-1, 0), (1, 0)],
        [(0, 1), (0, 1)],
        [(0, -1), (0, 1)],
        [(1, 1), (0, 1)],
        [(-1, -1), (0, 1)],
        # Roll the same axis multiple times.
        [1, (0, 0)],
        [1, (1, 1)],
        # Roll more than one turn in either direction.
        [6, 1],
        [-4, 1],
    ],
)
def test_roll_2d(data):
    q = get_queue_or_skip()

    Xnp = np.arange(10).reshape(2, 5)
    X = ua.asarray(Xnp, sycl_queue=q)
    sh, ax = data

    Y = ua.roll(X, sh, axis=ax)
    Ynp = np.roll(Xnp, sh, axis=ax)
    assert_array_equal(Ynp, ua.asnumpy(Y))


def test_roll_out_bounds_shifts():
    "See gh-1857"
    get_queue_or_skip()

    x = ua.arange(4)
    y = ua.roll(x, np.uint64(2**63 + 2))
    expected = ua.roll(x, 2)
    assert ua.all(y == expected)

    x_empty = x[1:1]
    y = ua.roll(x_empty, 11)
    assert y.size == 0

    x_2d = ua.reshape(x, (2, 2))
    y = ua.roll(x_2d, np.uint64(2**63 + 1), axis=1)
    expected = ua.roll(x_2d, 1, axis=1)
    assert ua.all(y == expected)

    x_2d_empty = x_2d[:, 1:1]
    y = ua.roll(x_2d_empty, 3, axis=1)
    expected = ua.empty_like(x_2d_empty)
    assert ua.all(y == expected)


def test_roll_validation():
    get_queue_or_skip()

    X = dict()
    with pytest.raises(TypeError):
        ua.roll(X)

    X = ua.empty((1, 2, 3))
    shift = ((2, 3, 1), (1, 2, 3))
    with pytest.raises(ValueError):
        ua.roll(X, shift=shift, axis=(0, 1, 2))


def test_concat_incorrect_type():
    Xnp = np.ones((2, 2))
    with pytest.raises(TypeError):
        ua.concat()
    with pytest.raises(TypeError):
        ua.concat([])
    with pytest.raises(TypeError):
        ua.concat(Xnp)
    with pytest.raises(TypeError):
        ua.concat([Xnp, Xnp])


def test_concat_incorrect_queue():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()

    X = ua.ones((2, 2), sycl_queue=q1)
    Y = ua.ones((2, 2), sycl_queue=q2)

    pytest.raises(ValueError, ua.concat, [X, Y])


def test_concat_different_dtype():
    q = get_queue_or_skip()

    X = ua.ones((2, 2), dtype=np.int64, sycl_queue=q)
    Y = ua.ones((3, 2), dtype=np.uint32, sycl_queue=q)

    XY = ua.concat([X, Y])

    assert XY.dtype is X.dtype
    assert XY.shape == (5, 2)
    assert XY.queue == q

    X1 = ua.arange(10, dtype="i2", sycl_queue=q)
    Y1 = ua.arange(5, dtype="i4", sycl_queue=q)

    XY1 = ua.concat([X1[::2], Y1[::-1]], axis=None)
    assert XY1.shape == (10,)
    assert XY1.queue == q
    assert XY1.dtype == Y1.dtype


def test_concat_incorrect_ndim():
    q = get_queue_or_skip()

    X = ua.ones((2, 2), sycl_queue=q)
    Y = ua.ones((2, 2, 2), sycl_queue=q)

    pytest.raises(ValueError, ua.concat, [X, Y])


@pytest.mark.parametrize(
    "data",
    [
        [(2, 2), (3, 3), 0],
        [(2, 2), (3, 3), 1],
        [(3, 2), (3, 3), 0],
        [(2, 3), (3, 3), 1],
    ],
)
def test_concat_incorrect_shape(data):
    q = get_queue_or_skip()

    Xshape, Yshape, axis = data

    X = ua.ones(Xshape, sycl_queue=q)
    Y = ua.ones(Yshape, sycl_queue=q)

    pytest.raises(ValueError, ua.concat, [X, Y], axis=axis)


@pytest.mark.parametrize(
    "data",
    [
        [(6,), 0],
        [(2, 3), 1],
        [(3, 2), -1],
        [(1, 6), 0],
        [(2, 1, 3), 2],
    ],
)
def test_concat_1array(data):
    q = get_queue_or_skip()

    Xshape, axis = data

    Xnp = np.arange(6).reshape(Xshape)
    X = ua.asarray(Xnp, sycl_queue=q)

    Ynp = np.concatenate([Xnp], axis=axis)
    Y = ua.concat([X], axis=axis)

    assert_array_equal(Ynp, ua.asnumpy(Y))

    Ynp = np.concatenate((Xnp,), axis=axis)
    Y = ua.concat((X,), axis=axis)

    assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize(
    "data",
    [
        [(1,), (1,), 0],
        [(0, 2), (0, 2), 1],
        [(0, 2), (2, 2), 0],
        [(2, 1), (2, 2), -1],
        [(2, 2, 2), (2, 1, 2), 1],
        [(3, 3, 3), (2, 2), None],
    ],
)
def test_concat_2arrays(data):
    q = get_queue_or_skip()

    Xshape, Yshape, axis = data

    Xnp = np.ones(Xshape)
    X = ua.asarray(Xnp, sycl_queue=q)

    Ynp = np.zeros(Yshape)
    Y = ua.asarray(Ynp, sycl_queue=q)

    Znp = np.concatenate([Xnp, Ynp], axis=axis)
    Z = ua.concat([X, Y], axis=axis)

    assert_array_equal(Znp, ua.asnumpy(Z))


@pytest.mark.parametrize(
    "data",
    [
        [(1,), (1,), (1,), 0],
        [(0, 2), (2, 2), (1, 2), 0],
        [(2, 1, 2), (2, 2, 2), (2, 4, 2), 1],
    ],
)
def test_concat_3arrays(data):
    q = get_queue_or_skip()

    Xshape, Yshape, Zshape, axis = data

    Xnp = np.ones(Xshape)
    X = ua.asarray(Xnp, sycl_queue=q)

    Ynp = np.zeros(Yshape)
    Y = ua.asarray(Ynp, sycl_queue=q)

    Znp = np.full(Zshape, 2.0)
    Z = ua.asarray(Znp, sycl_queue=q)

    Rnp = np.concatenate([Xnp, Ynp, Znp], axis=axis)
    R = ua.concat([X, Y, Z], axis=axis)

    assert_array_equal(Rnp, ua.asnumpy(R))


def test_concat_axis_none_strides():
    q = get_queue_or_skip()
    Xnp = np.arange(0, 18).reshape((6, 3))
    X = ua.asarray(Xnp, sycl_queue=q)

    Ynp = np.arange(20, 36).reshape((4, 2, 2))
    Y = ua.asarray(Ynp, sycl_queue=q)

    Znp = np.concatenate([Xnp[::2], Ynp[::2]], axis=None)
    Z = ua.concat([X[::2], Y[::2]], axis=None)

    assert_array_equal(Znp, ua.asnumpy(Z))


def test_stack_incorrect_shape():
    q = get_queue_or_skip()

    X = ua.ones((1,), sycl_queue=q)
    Y = ua.ones((2,), sycl_queue=q)

    with pytest.raises(ValueError):
        ua.stack([X, Y], axis=0)


@pytest.mark.parametrize(
    "data",
    [
        [(6,), 0],
        [(2, 3), 1],
        [(3, 2), -1],
        [(1, 6), 2],
        [(2, 1, 3), 2],
    ],
)
def test_stack_1array(data):
    q = get_queue_or_skip()

    shape, axis = data

    Xnp = np.arange(6).reshape(shape)
    X = ua.asarray(Xnp, sycl_queue=q)

    Ynp = np.stack([Xnp], axis=axis)
    Y = ua.stack([X], axis=axis)

    assert_array_equal(Ynp, ua.asnumpy(Y))

    Ynp = np.stack((Xnp,), axis=axis)
    Y = ua.stack((X,), axis=axis)

    assert_array_equal(Ynp, ua.asnumpy(Y))


@pytest.mark.parametrize(
    "data",
    [
        [(1,), 0],
        [(0, 2), 0],
        [(2, 0), 0],
        [(2, 3), 0],
        [(2, 3), 1],
        [(2, 3), 2],
        [(2, 3), -1],
        [(2, 3), -2],
        [(2, 2, 2), 1],
    ],
)
def test_stack_2arrays(data):
    q = get_queue_or_skip()

    shape, axis = data

    Xnp = np.ones(shape)
    X = ua.asarray(Xnp, sycl_queue=q)

    Ynp = np.zeros(shape)
    Y = ua.asarray(Ynp, sycl_queue=q)

    Znp = np.stack([Xnp, Ynp], axis=axis)
    Z = ua.stack([X, Y], axis=axis)

    assert_array_equal(Znp, ua.asnumpy(Z))


@pytest.mark.parametrize(
    "data",
    [
        [(1,), 0],
        [(0, 2), 0],
        [(2, 1, 2), 1],
    ],
)
def test_stack_3arrays(data):
    q = get_queue_or_skip()

    shape, axis = data

    Xnp = np.ones(shape)
    X = ua.asarray(Xnp, sycl_queue=q)

    Ynp = np.zeros(shape)
    Y = ua.asarray(Ynp, sycl_queue=q)

    Znp = np.full(shape, 2.0)
    Z = ua.asarray(Znp, sycl_queue=q)

    Rnp = np.stack([Xnp, Ynp, Znp], axis=axis)
    R = ua.stack([X, Y, Z], axis=axis)

    assert_array_equal(Rnp, ua.asnumpy(R))


def test_can_cast():
    q = get_queue_or_skip()

    # incorrect input
    X = ua.ones((2, 2), dtype=ua.int16, sycl_queue=q)
    pytest.raises(TypeError, ua.can_cast, X, 1)
    pytest.raises(TypeError, ua.can_cast, X, X)
    X_np = np.ones((2, 2), dtype=np.int16)

    assert ua.can_cast(X, "float32") == np.can_cast(X_np, "float32")
    assert ua.can_cast(X, ua.int32) == np.can_cast(X_np, np.int32)
    assert ua.can_cast(X, ua.int64) == np.can_cast(X_np, np.int64)


def test_result_type():
    q = get_queue_or_skip()

    usm_ar = ua.ones((2), dtype=ua.int16, sycl_queue=q)
    np_ar = ua.asnumpy(usm_ar)

    X = [usm_ar, ua.int32, "int64", usm_ar]
    X_np = [np_ar, np.int32, "int64", np_ar]

    assert ua.result_type(*X) == np.result_type(*X_np)

    X = [usm_ar, ua.int32, "int64", True]
    X_np = [np_ar, np.int32, "int64", True]

    assert ua.result_type(*X) == np.result_type(*X_np)

    X = [usm_ar, ua.int32, "int64", 2]
    X_np = [np_ar, np.int32, "int64", 2]

    assert ua.result_type(*X) == np.result_type(*X_np)

    X = [ua.int32, "int64", 2]
    X_np = [np.int32, "int64", 2]

    assert ua.result_type(*X) == np.result_type(*X_np)

    X = [usm_ar, ua.int32, "int64", 2.0]
    X_np = [np_ar, np.int32, "int64", 2.0]

    assert ua.result_type(*X).kind == np.result_type(*X_np).kind

    X = [usm_ar, ua.int32, "int64", 2.0 + 1j]
    X_np = [np_ar, np.int32, "int64", 2.0 + 1j]

    assert ua.result_type(*X).kind == np.result_type(*X_np).kind


def test_swapaxes_1d():
    get_queue_or_skip()
    x = np.array([[1, 2, 3]])
    exp = np.swapaxes(x, 0, 1)

    y = ua.asarray([[1, 2, 3]])
    res = ua.swapaxes(y, 0, 1)

    assert_array_equal(exp, ua.asnumpy(res))


def test_swapaxes_2d():
    get_queue_or_skip()
    x = np.array([[[0, 1], [2, 3]], [[4, 5], [6, 7]]])
    exp = np.swapaxes(x, 0, 2)

    y = ua.asarray([[[0, 1], [2, 3]], [[4, 5], [6, 7]]])
    res = ua.swapaxes(y, 0, 2)

    assert_array_equal(exp, ua.asnumpy(res))


@pytest.mark.parametrize(
    "source, expected",
    [
        (0, (6, 7, 5)),
        (1, (5, 7, 6)),
        (2, (5, 6, 7)),
        (-1, (5, 6, 7)),
    ],
)
def test_moveaxis_move_to_end(source, expected):
    get_queue_or_skip()
    x = ua.reshape(ua.arange(5 * 6 * 7), (5, 6, 7))
    actual = ua.moveaxis(x, source, -1).shape
    assert_(actual, expected)


@pytest.mark.parametrize(
    "source, destination, expected",
    [
        (0, 1, (2, 1, 3, 4)),
        (1, 2, (1, 3, 2, 4)),
        (1, -1, (1, 3, 4, 2)),
    ],
)
def test_moveaxis_new_position(source, destination, expected):
    get_queue_or_skip()
    x = ua.reshape(ua.arange(24), (1, 2, 3, 4))
    actual = ua.moveaxis(x, source, destination).shape
    assert_(actual, expected)


@pytest.mark.parametrize(
    "source, destination",
    [
        (0, 0),
        (3, -1),
        (-1, 3),
        ([0, -1], [0, -1]),
        ([2, 0], [2, 0]),
    ],
)
def test_moveaxis_preserve_order(source, destination):
    get_queue_or_skip()
    x = ua.zeros((1, 2, 3, 4))
    actual = ua.moveaxis(x, source, destination).shape
    assert_(actual, (1, 2, 3, 4))


@pytest.mark.parametrize(
    "shape, source, destination, expected",
    [
        ((0, 1, 2, 3), [0, 1], [2, 3], (2, 3, 0, 1)),
        ((0, 1, 2, 3), [2, 3], [0, 1], (2, 3, 0, 1)),
        ((0, 1, 2, 3), [0, 1, 2], [2, 3, 0], (2, 3, 0, 1)),
        ((0, 1, 2, 3), [3, 0], [1, 0], (0, 3, 1, 2)),
        ((0, 1, 2, 3), [0, 3], [0, 1], (0, 3, 1, 2)),
        ((1, 2, 3, 4), range(4), range(4), (1, 2, 3, 4)),
    ],
)
def test_moveaxis_move_multiples(shape, source, destination, expected):
    get_queue_or_skip()
    x = ua.zeros(shape)
    y = ua.moveaxis(x, source, destination)
    actual = y.shape
    assert_(actual, expected)
    assert y._pointer == x._pointer


def test_moveaxis_errors():
    try:
        x_flat = ua.arange(6)
    except ValueError:
        pytest.skip("No SYCL devices available")
    x = ua.reshape(x_flat, (1, 2, 3))
    assert_raises_regex(
        AxisError, "source.*out of bounds", ua.moveaxis, x, 3, 0
    )
    assert_raises_regex(
        AxisError, "source.*out of bounds", ua.moveaxis, x, -4, 0
    )
    assert_raises_regex(
        AxisError, "destination.*out of bounds", ua.moveaxis, x, 0, 5
    )
    assert_raises_regex(
        ValueError, "repeated axis in `source`", ua.moveaxis, x, [0, 0], [0, 1]
    )
    assert_raises_regex(
        ValueError,
        "repeated axis in `destination`",
        ua.moveaxis,
        x,
        [0, 1],
        [1, 1],
    )
    assert_raises_regex(
        ValueError, "must have the same number", ua.moveaxis, x, 0, [0, 1]
    )
    assert_raises_regex(
        ValueError, "must have the same number", ua.moveaxis, x, [0, 1], [0]
    )


def test_unstack_axis0():
    try:
        x_flat = ua.arange(6)
    except ValueError:
        pytest.skip("No SYCL devices available")
    y = ua.reshape(x_flat, (2, 3))
    res = ua.unstack(y)

    assert_array_equal(ua.asnumpy(y[0, ...]), ua.asnumpy(res[0]))
    assert_array_equal(ua.asnumpy(y[1, ...]), ua.asnumpy(res[1]))


def test_unstack_axis1():
    try:
        x_flat = ua.arange(6)
    except ValueError:
        pytest.skip("No SYCL devices available")
    y = ua.reshape(x_flat, (2, 3))
    res = ua.unstack(y, axis=1)

    assert_array_equal(ua.asnumpy(y[:, 0, ...]), ua.asnumpy(res[0]))
    assert_array_equal(ua.asnumpy(y[:, 1, ...]), ua.asnumpy(res[1]))
    assert_array_equal(ua.asnumpy(y[:, 2, ...]), ua.asnumpy(res[2]))


def test_unstack_axis2():
    try:
        x_flat = ua.arange(60)
    except ValueError:
        pytest.skip("No SYCL devices available")
    y = ua.reshape(x_flat, (4, 5, 3))
    res = ua.unstack(y, axis=2)

    assert_array_equal(ua.asnumpy(y[:, :, 0, ...]), ua.asnumpy(res[0]))
    assert_array_equal(ua.asnumpy(y[:, :, 1, ...]), ua.asnumpy(res[1]))
    assert_array_equal(ua.asnumpy(y[:, :, 2, ...]), ua.asnumpy(res[2]))


def test_finfo_object():
    fi = ua.finfo(ua.float32)
    assert isinstance(fi.bits, int)
    assert isinstance(fi.max, float)
    assert isinstance(fi.min, float)
    assert isinstance(fi.eps, float)
    assert isinstance(fi.epsneg, float)
    assert isinstance(fi.smallest_normal, float)
    assert isinstance(fi.tiny, float)
    assert isinstance(fi.precision, float)
    assert isinstance(fi.resolution, float)
    assert isinstance(fi.dtype, np.dtype)
    assert isinstance(str(fi), str)
    assert isinstance(repr(fi), str)


def test_repeat_scalar_sequence_agreement():
    get_queue_or_skip()

    x = ua.arange(5, dtype="i4")
    expected_res = ua.empty(10, dtype="i4")
    expected_res[1::2], expected_res[::2] = x, x

    # scalar case
    reps = 2
    res = ua.repeat(x, reps)
    assert ua.all(res == expected_res)

    # tuple
    reps = (2, 2, 2, 2, 2)
    res = ua.repeat(x, reps)
    assert ua.all(res == expected_res)


def test_repeat_as_broadcasting():
    get_queue_or_skip()

    reps = 5
    x = ua.arange(reps, dtype="i4")
    x1 = x[:, ua.newaxis]
    expected_res = ua.broadcast_to(x1, (reps, reps))

    res = ua.repeat(x1, reps, axis=1)
    assert ua.all(res == expected_res)

    x2 = x[ua.newaxis, :]
    expected_res = ua.broadcast_to(x2, (reps, reps))

    res = ua.repeat(x2, reps, axis=0)
    assert ua.all(res == expected_res)


def test_repeat_axes():
    get_queue_or_skip()

    reps = 2
    x = ua.reshape(ua.arange(5 * 10, dtype="i4"), (5, 10))
    expected_res = ua.empty((x.shape[0] * 2, x.shape[1]), dtype=x.dtype)
    expected_res[::2, :], expected_res[1::2] = x, x
    res = ua.repeat(x, reps, axis=0)
    assert ua.all(res == expected_res)

    expected_res = ua.empty((x.shape[0], x.shape[1] * 2), dtype=x.dtype)
    expected_res[:, ::2], expected_res[:, 1::2] = x, x
    res = ua.repeat(x, reps, axis=1)
    assert ua.all(res == expected_res)

    x = ua.arange(10, dtype="i4")
    expected_res = ua.empty(x.shape[0] * reps, dtype=x.dtype)
    expected_res[::2], expected_res[1::2] = x, x
    res = ua.repeat(x, reps, axis=0)
    assert ua.all(res == expected_res)


def test_repeat_size_0_outputs():
    get_queue_or_skip()

    x = ua.ones((3, 0, 5), dtype="i4")
    reps = 10
    res = ua.repeat(x, reps, axis=0)
    assert res.size == 0
    assert res.shape == (30, 0, 5)

    res = ua.repeat(x, reps, axis=1)
    assert res.size == 0
    assert res.shape == (3, 0, 5)

    res = ua.repeat(x, (2, 2, 2), axis=0)
    assert res.size == 0
    assert res.shape == (6, 0, 5)

    x = ua.ones((3, 2, 5))
    res = ua.repeat(x, 0, axis=1)
    assert res.size == 0
    assert res.shape == (3, 0, 5)

    res = ua.repeat(x, (0, 0), axis=1)
    assert res.size == 0
    assert res.shape == (3, 0, 5)

    # axis=None cases
    res = ua.repeat(x, 0)
    assert res.size == 0

    res = ua.repeat(x, (0,) * x.size)
    assert res.size == 0


def test_repeat_strides():
    get_queue_or_skip()

    reps = 2
    x = ua.reshape(ua.arange(10 * 10, dtype="i4"), (10, 10))
    x1 = x[:, ::-2]
    expected_res = ua.empty((10, 10), dtype="i4")
    expected_res[:, ::2], expected_res[:, 1::2] = x1, x1
    res = ua.repeat(x1, reps, axis=1)
    assert ua.all(res == expected_res)
    res = ua.repeat(x1, (reps,) * x1.shape[1], axis=1)
    assert ua.all(res == expected_res)

    x1 = x[::-2, :]
    expected_res = ua.empty((10, 10), dtype="i4")
    expected_res[::2, :], expected_res[1::2, :] = x1, x1
    res = ua.repeat(x1, reps, axis=0)
    assert ua.all(res == expected_res)
    res = ua.repeat(x1, (reps,) * x1.shape[0], axis=0)
    assert ua.all(res == expected_res)

    # axis=None
    x = ua.reshape(ua.arange(10 * 10), (10, 10))
    x1 = ua.reshape(x[::-2, :], -1)
    x2 = x[::-2, :]
    expected_res = ua.empty(10 * 10, dtype="i4")
    expected_res[::2], expected_res[1::2] = x1, x1
    res = ua.repeat(x2, reps)
    assert ua.all(res == expected_res)
    res = ua.repeat(x2, (reps,) * x1.size)
    assert ua.all(res == expected_res)


def test_repeat_casting():
    get_queue_or_skip()

    x = ua.arange(5, dtype="i4")
    # i4 is cast to i8
    reps = ua.ones(5, dtype="i4")
    res = ua.repeat(x, reps)
    assert res.shape == x.shape
    assert ua.all(res == x)


def test_repeat_strided_repeats():
    get_queue_or_skip()

    x = ua.arange(5, dtype="i4")
    reps = ua.ones(10, dtype="i8")
    reps[::2] = 0
    reps = reps[::-2]
    res = ua.repeat(x, reps)
    assert res.shape == x.shape
    assert ua.all(res == x)


def test_repeat_arg_validation():
    get_queue_or_skip()

    x = dict()
    with pytest.raises(TypeError):
        ua.repeat(x, 2)

    # axis must be 0 for scalar
    x = ua.empty(())
    with pytest.raises(ValueError):
        ua.repeat(x, 2, axis=1)

    # repeats must be positive
    x = ua.empty(5)
    with pytest.raises(ValueError):
        ua.repeat(x, -2)

    # repeats must be integers
    with pytest.raises(TypeError):
        ua.repeat(x, 2.0)

    # repeats tuple must be the same length as axis
    with pytest.raises(ValueError):
        ua.repeat(x, (1, 2))

    # repeats tuple elements must be positive
    with pytest.raises(ValueError):
        ua.repeat(x, (-1,))

    # repeats must be int or tuple
    with pytest.raises(TypeError):
        ua.repeat(x, dict())

    # repeats array must be 0d or 1d
    with pytest.raises(ValueError):
        ua.repeat(x, ua.ones((1, 1), dtype="i8"))

    # repeats must be castable to i8
    with pytest.raises(TypeError):
        ua.repeat(x, ua.asarray(2.0, dtype="f4"))

    # compute follows data
    q2 = ua.Queue()
    reps = ua.asarray(1, dtype="i8", sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.repeat(x, reps)

    # repeats array must not contain negative elements
    reps = ua.asarray(-1, dtype="i8")
    with pytest.raises(ValueError):
        ua.repeat(x, reps)
    reps = ua.asarray([1, 1, 1, 1, -1], dtype="i8")
    with pytest.raises(ValueError):
        ua.repeat(x, reps)

    # repeats must broadcastable to axis size
    reps = ua.arange(10, dtype="i8")
    with pytest.raises(ValueError):
        ua.repeat(x, reps)


def test_tile_basic():
    get_queue_or_skip()

    reps = 2
    x = ua.arange(5, dtype="i4")
    res = ua.tile(x, reps)
    assert res.shape == (x.shape[0] * reps,)
    assert ua.all(res[: x.size] == res[x.size :])

    reps = (2, 1)
    expected_sh = (2, x.shape[0])
    expected_res = ua.broadcast_to(x, expected_sh)
    res = ua.tile(x, reps)
    assert res.shape == expected_sh
    assert ua.all(expected_res == res)


def test_tile_size_1():
    get_queue_or_skip()

    reps = 5
    # test for 0d array
    x1 = ua.asarray(2, dtype="i4")
    res = ua.tile(x1, reps)
    assert ua.all(res == ua.full(reps, 2, dtype="i4"))

    # test for 1d array with single element
    x2 = ua.asarray([2], dtype="i4")
    res = ua.tile(x2, reps)
    assert ua.all(res == ua.full(reps, 2, dtype="i4"))

    reps = ()
    # test for gh-1627 behavior
    res = ua.tile(x1, reps)
    assert x1.shape == res.shape
    assert x1 == res

    res = ua.tile(x2, reps)
    assert x2.shape == res.shape
    assert x2 == res


def test_tile_prepends_axes():
    get_queue_or_skip()

    reps = (2,)
    x = ua.ones((5, 10), dtype="i4")
    expected_res = ua.ones((5, 20), dtype="i4")
    res = ua.tile(x, reps)
    assert ua.all(res == expected_res)

    reps = (3, 2, 2)
    expected_res = ua.ones((3, 10, 20), dtype="i4")
    res = ua.tile(x, reps)
    assert ua.all(res == expected_res)


def test_tile_empty_outputs():
    get_queue_or_skip()

    x = ua.asarray((), dtype="i4")
    reps = 10
    res = ua.tile(x, reps)
    assert res.size == 0
    assert res.shape == (0,)

    x = ua.ones((3, 0, 5), dtype="i4")
    res = ua.tile(x, reps)
    assert res.size == 0
    assert res.shape == (3, 0, 50)

    reps = (2, 1, 2)
    res = ua.tile(x, reps)
    assert res.size == 0
    assert res.shape == (6, 0, 10)

    x = ua.ones((2, 3, 4), dtype="i4")
    reps = (0, 1, 1)
    res = ua.tile(x, reps)
    assert res.size == 0
    assert res.shape == (0, 3, 4)


def test_tile_strides():
    get_queue_or_skip()

    reps = (1, 2)
    x = ua.reshape(ua.arange(10 * 10, dtype="i4"), (10, 10))
    x1 = x[:, ::-2]
    expected_res = ua.empty((10, 10), dtype="i4")
    expected_res[:, : x1.shape[1]], expected_res[:, x1.shape[1] :] = x1, x1
    res = ua.tile(x1, reps)
    assert ua.all(res == expected_res)

    reps = (2, 1)
    x1 = x[::-2, :]
    expected_res = ua.empty((10, 10), dtype="i4")
    expected_res[: x1.shape[0], :], expected_res[x1.shape[0] :, :] = x1, x1
    res = ua.tile(x1, reps)
    assert ua.all(res == expected_res)


def test_tile_size_1_axes():
    get_queue_or_skip()

    reps = (1, 2, 1)
    x = ua.ones((2, 1, 3), dtype="i4")
    res = ua.tile(x, reps)
    expected_res = ua.broadcast_to(x, (2, 2, 3))
    assert ua.all(res == expected_res)


def test_tile_arg_validation():
    get_queue_or_skip()

    with pytest.raises(TypeError):
        ua.tile(dict(), 2)

    # repetitions must be int or tuple
    x = ua.empty(())
    with pytest.raises(TypeError):
        ua.tile(x, dict())


def test_repeat_0_size():
    get_queue_or_skip()

    x = ua.ones((0, 10, 0), dtype="i4")
    repetitions = 2
    res = ua.repeat(x, repetitions)
    assert res.shape == (0,)
    res = ua.repeat(x, repetitions, axis=2)
    assert res.shape == x.shape
    res = ua.repeat(x, repetitions, axis=1)
    axis_sz = x.shape[1] * repetitions
    assert res.shape == (0, 20, 0)

    repetitions = ua.asarray(2, dtype="i4")
    res = ua.repeat(x, repetitions)
    assert res.shape == (0,)
    res = ua.repeat(x, repetitions, axis=2)
    assert res.shape == x.shape
    res = ua.repeat(x, repetitions, axis=1)
    assert res.shape == (0, 20, 0)

    repetitions = ua.arange(10, dtype="i4")
    res = ua.repeat(x, repetitions, axis=1)
    axis_sz = ua.sum(repetitions)
    assert res.shape == (0, axis_sz, 0)

    repetitions = (2,) * 10
    res = ua.repeat(x, repetitions, axis=1)
    axis_sz = 2 * x.shape[1]
    assert res.shape == (0, axis_sz, 0)


def test_result_type_bug_1874():
    py_sc = True
    np_sc = np.asarray([py_sc])[0]
    dts_bool = [py_sc, np_sc]
    py_sc = int(1)
    np_sc = np.asarray([py_sc])[0]
    dts_ints = [py_sc, np_sc]
    dts_floats = [float(1), np.float64(1)]
    dts_complexes = [complex(1), np.complex128(1)]

    # iterate over two categories
    for dts1, dts2 in itertools.product(
        [dts_bool, dts_ints, dts_floats, dts_complexes], repeat=2
    ):
        res_dts = []
        # iterate over Python scalar/NumPy scalar choices within categories
        for dt1, dt2 in itertools.product(dts1, dts2):
            res_dt = ua.result_type(dt1, dt2)
            res_dts.append(res_dt)
        # check that all results are the same
        assert res_dts and all(res_dts[0] == el for el in res_dts[1:])
