"""Where results live: asarray(..., device=) as in the Array API beside
queue=, and to_device(..., stream=), which is honoured (a Queue of the
target device to copy on, or a driver's stream handle to order the copy
after) or refused with a message saying what is accepted."""

import numpy as np
import pytest
import usmarray as ua


@pytest.mark.parametrize(
    "device", ["host", "host:cpu:0", ua.Device("host"), ua.Context("host"), ua.Queue("host")]
)
def test_asarray_takes_device_as_the_array_api_does(device):
    x = ua.asarray([1, 2, 3], device=device)
    assert x.device == ua.Device("host")
    assert x.queue is ua.Queue("host")
    assert x.tolist() == [1, 2, 3]
    # An array already there is returned as it is.
    assert ua.asarray(x, device=device) is x
    assert ua.asarray(np.arange(3.0), device=device, usm_type="shared").usm_type == "shared"


def test_asarray_device_and_queue_must_agree_and_be_devices():
    x = ua.asarray([1.0], device="host", queue="host")
    assert x.queue is ua.Queue("host")
    with pytest.raises(TypeError, match="device must be a usmarray.Device"):
        ua.asarray([1.0], device=3)
    with pytest.raises(ValueError, match="filter string 'nosuch'"):
        ua.asarray([1.0], device="nosuch")


def test_to_device_copies_on_a_queue_given_as_stream():
    x = ua.arange(4.0, usm_type="shared")
    q = ua.Queue("host")
    y = x.to_device("host", stream=q)
    assert y.queue is q and y.tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    "stream, exc, fragment",
    [
        (1, ValueError, "the host backend has no streams"),
        (0x7F00_0000_1000, ValueError, "the host backend has no streams"),
        (-1, ValueError, "stream -1 is not a stream handle"),
        (2**70, ValueError, "is not a stream handle"),
        (
            "default",
            TypeError,
            "stream must be None, a usmarray.Queue of the target device, a dpctl SyclQueue or an integer",
        ),
        (True, TypeError, "not bool"),
        (1.0, TypeError, "not float"),
        (object(), TypeError, "not object"),
    ],
)
def test_to_device_refuses_streams_it_cannot_honour(stream, exc, fragment):
    x = ua.arange(4.0)
    with pytest.raises(exc, match=None) as info:
        x.to_device("host", stream=stream)
    assert fragment in str(info.value)
