"""Real clients on usmarray arrays: SciPy, scikit-learn, array-api-extra,
einops and NumPy's own functions, each call against NumPy's result.

SciPy reads SCIPY_ARRAY_API when it is first imported, and other tests may
have imported it already, so the SciPy and scikit-learn calls run in a
subprocess that sets it (one per device, all calls at once); each call is
then its own test here.  Libraries that are missing skip.

On a device whose memory NumPy cannot reach (a GPU's, a SYCL device's),
SciPy and scikit-learn run only the calls they implement in the namespace;
the others convert to NumPy, which such memory refuses, as it refuses
array-api-strict's arrays on its non-CPU device.  Those arrays are the
reference there: a call that runs on them must run on usmarray's and match
NumPy; one that does not is the client's limit, and its test skips saying
so."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
import usmarray as ua

HERE = pathlib.Path(__file__).resolve().parent


def host_reachable(device):
    """Whether NumPy reaches the device's default (device) memory: the
    host backend's, whose every kind is the process's own."""
    return hasattr(ua.zeros(1, device=device), "__array_interface__")


DEVICES = [d.filter_string for d in ua.get_devices()]
HOST_DEVICES = [d for d in DEVICES if host_reachable(d)]
FAR_DEVICES = [d for d in DEVICES if not host_reachable(d)]


def as_numpy(r):
    """A client's result as NumPy data: arrays, sparse matrices, tuples
    and named tuples of them, scalars."""
    if isinstance(r, ua.USMArray):
        return ua.asnumpy(r)
    if hasattr(r, "toarray"):
        return r.toarray()
    if isinstance(r, tuple | list):
        return tuple(as_numpy(v) for v in r)
    return np.asarray(r)


def assert_same(got, want, rtol=1e-9, atol=1e-12):
    got, want = as_numpy(got), as_numpy(want)
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert_same(g, w, rtol, atol)
        return
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# ----------------------------------------------------- SciPy, scikit-learn

RNG = np.random.default_rng(44)
H1 = RNG.standard_normal(64)
H2 = RNG.standard_normal((24, 3))
LABELS = (np.array([0, 0, 1, 1, 2, 2, 2, 0]), np.array([0, 0, 1, 2, 2, 2, 1, 0]))


def scipy_cases():
    """name -> f(x1, x2, labels, xp, to): x1 1-D, x2 2-D, labels a pair of
    integer arrays, all of one library (NumPy or usmarray); to(h) makes
    NumPy data an array of that library."""
    import scipy.cluster.vq as vq
    import scipy.fft as sf
    import scipy.integrate as si
    import scipy.ndimage as nd
    import scipy.signal as sg
    import scipy.spatial.distance as dist
    import scipy.special as sp
    import scipy.stats as st

    return {
        "special.erf": lambda a, b, lab, to: sp.erf(a),
        "special.erfc": lambda a, b, lab, to: sp.erfc(a),
        "special.gammaln": lambda a, b, lab, to: sp.gammaln(abs(a) + 1),
        "special.logsumexp": lambda a, b, lab, to: sp.logsumexp(a),
        "special.softmax": lambda a, b, lab, to: sp.softmax(b, axis=1),
        "stats.skew": lambda a, b, lab, to: st.skew(a),
        "stats.kurtosis": lambda a, b, lab, to: st.kurtosis(a),
        "stats.zscore": lambda a, b, lab, to: st.zscore(b, axis=0),
        "stats.moment": lambda a, b, lab, to: st.moment(a, order=3),
        "stats.describe": lambda a, b, lab, to: tuple(st.describe(a))[2:],
        "stats.variation": lambda a, b, lab, to: st.variation(a),
        "stats.sem": lambda a, b, lab, to: st.sem(a),
        "stats.gmean": lambda a, b, lab, to: st.gmean(abs(a)),
        "stats.hmean": lambda a, b, lab, to: st.hmean(abs(a)),
        "stats.entropy": lambda a, b, lab, to: st.entropy(abs(a)),
        "stats.ttest_1samp": lambda a, b, lab, to: tuple(st.ttest_1samp(a, 0.0))[:2],
        "stats.ttest_ind": lambda a, b, lab, to: tuple(st.ttest_ind(a[:32], a[32:]))[:2],
        "stats.pearsonr": lambda a, b, lab, to: tuple(st.pearsonr(a, a**2))[:2],
        "fft.fft": lambda a, b, lab, to: sf.fft(a),
        "fft.rfft": lambda a, b, lab, to: sf.rfft(a),
        "fft.fftshift": lambda a, b, lab, to: sf.fftshift(a),
        "fft.dct": lambda a, b, lab, to: sf.dct(a),
        "fft.dst": lambda a, b, lab, to: sf.dst(a),
        "signal.convolve": lambda a, b, lab, to: sg.convolve(a, a[:5]),
        "signal.correlate": lambda a, b, lab, to: sg.correlate(a, a[:5]),
        "signal.fftconvolve": lambda a, b, lab, to: sg.fftconvolve(a, a[:5]),
        "signal.detrend": lambda a, b, lab, to: sg.detrend(a),
        "signal.medfilt": lambda a, b, lab, to: sg.medfilt(a, 3),
        "signal.lfilter": lambda a, b, lab, to: sg.lfilter(to(np.array([0.5, 0.5])), 1.0, a),
        "signal.sosfilt": lambda a, b, lab, to: sg.sosfilt(
            to(np.array([[1, 0.5, 0, 1, 0, 0.0]])), a
        ),
        "signal.welch": lambda a, b, lab, to: sg.welch(a, nperseg=16),
        "ndimage.gaussian_filter": lambda a, b, lab, to: nd.gaussian_filter(b, 1.5),
        "ndimage.uniform_filter": lambda a, b, lab, to: nd.uniform_filter(a, 3),
        "ndimage.median_filter": lambda a, b, lab, to: nd.median_filter(a, 3),
        "cluster.vq.whiten": lambda a, b, lab, to: vq.whiten(b),
        "cluster.vq.vq": lambda a, b, lab, to: vq.vq(b, b[:3]),
        "cluster.vq.kmeans2": lambda a, b, lab, to: vq.kmeans2(b, b[:3], iter=5, minit="matrix"),
        "spatial.distance.cdist": lambda a, b, lab, to: dist.cdist(b, b[:5]),
        "spatial.distance.pdist": lambda a, b, lab, to: dist.pdist(b),
        "integrate.trapezoid": lambda a, b, lab, to: si.trapezoid(a),
        "integrate.simpson": lambda a, b, lab, to: si.simpson(a),
        "integrate.cumulative_trapezoid": lambda a, b, lab, to: si.cumulative_trapezoid(a),
    }


def sklearn_cases():
    from sklearn import metrics
    from sklearn.decomposition import PCA
    from sklearn.linear_model import Ridge
    from sklearn.metrics.cluster import contingency_matrix
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    return {
        "metrics.cluster.contingency_matrix": lambda a, b, lab, to: contingency_matrix(*lab),
        "metrics.adjusted_rand_score": lambda a, b, lab, to: metrics.adjusted_rand_score(*lab),
        "metrics.accuracy_score": lambda a, b, lab, to: metrics.accuracy_score(*lab),
        "metrics.r2_score": lambda a, b, lab, to: metrics.r2_score(a[:32], a[32:]),
        "metrics.pairwise.euclidean_distances": lambda a, b, lab, to: (
            metrics.pairwise.euclidean_distances(b)
        ),
        "preprocessing.StandardScaler": lambda a, b, lab, to: StandardScaler().fit_transform(b),
        "preprocessing.MinMaxScaler": lambda a, b, lab, to: MinMaxScaler().fit_transform(b),
        "decomposition.PCA": lambda a, b, lab, to: abs(PCA(2).fit_transform(b)),
        "linear_model.Ridge": lambda a, b, lab, to: Ridge(1.0).fit(b, b[:, 0] * 2).coef_,
    }


def worker(device, library):
    """In the subprocess (SCIPY_ARRAY_API set): every call of `library`
    on NumPy data and on usmarray arrays of `device`; prints
    {name: "ok" or the failure}."""
    if library == "sklearn":
        import sklearn

        context = sklearn.config_context(array_api_dispatch=True)
        cases = sklearn_cases()
    else:
        import contextlib

        context = contextlib.nullcontext()
        cases = scipy_cases()

    def to(h):
        return ua.asarray(h, device=device)

    ours = (to(H1), to(H2), tuple(to(v) for v in LABELS))
    reference = None if host_reachable(device) else strict_reference()
    results = {}
    with context:
        for name, f in cases.items():
            if reference is not None:
                try:
                    f(*reference)
                except Exception as e:
                    results[name] = f"client's limit: {type(e).__name__}: {str(e)[:300]}"
                    continue
            try:
                want = f(H1, H2, LABELS, np.asarray)
                got = f(*ours, to)
                assert_same(got, want)
                results[name] = "ok"
            except Exception as e:
                results[name] = f"{type(e).__name__}: {str(e)[:400]}"
    print(json.dumps(results))


def strict_reference():
    """The cases' arguments as array-api-strict arrays on its non-CPU
    device, whose memory NumPy refuses as it refuses a GPU's."""
    import array_api_strict as xs

    far = xs.Device("device1")

    def to(h):
        return xs.asarray(h, device=far)

    return (to(H1), to(H2), tuple(to(v) for v in LABELS), to)


_RESULTS = {}


def results_of(device, library):
    if importlib.util.find_spec("scipy") is None:
        pytest.skip("needs SciPy")
    if library == "sklearn" and importlib.util.find_spec("sklearn") is None:
        pytest.skip("needs scikit-learn")
    key = (device, library)
    if key not in _RESULTS:
        # SciPy makes some arrays without naming a device (ttest's, simpson's):
        # they go to the default device, which a user sets to the data's.
        env = dict(os.environ, SCIPY_ARRAY_API="1", USMARRAY_DEVICE=device)
        env["PYTHONPATH"] = os.pathsep.join([str(HERE), *sys.path])
        code = f"import test_clients; test_clients.worker({device!r}, {library!r})"
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr[-3000:]
        _RESULTS[key] = json.loads(done.stdout.strip().splitlines()[-1])
    return _RESULTS[key]


def scipy_names():
    # The names without importing SciPy here: the worker lists them again.
    return [
        *("special." + n for n in ("erf", "erfc", "gammaln", "logsumexp", "softmax")),
        *("stats." + n for n in ("skew", "kurtosis", "zscore", "moment", "describe", "variation")),
        *("stats." + n for n in ("sem", "gmean", "hmean", "entropy", "ttest_1samp", "ttest_ind")),
        "stats.pearsonr",
        *("fft." + n for n in ("fft", "rfft", "fftshift", "dct", "dst")),
        *("signal." + n for n in ("convolve", "correlate", "fftconvolve", "detrend", "medfilt")),
        *("signal." + n for n in ("lfilter", "sosfilt", "welch")),
        *("ndimage." + n for n in ("gaussian_filter", "uniform_filter", "median_filter")),
        *("cluster.vq." + n for n in ("whiten", "vq", "kmeans2")),
        "spatial.distance.cdist",
        "spatial.distance.pdist",
        *("integrate." + n for n in ("trapezoid", "simpson", "cumulative_trapezoid")),
    ]


SKLEARN_NAMES = [
    "metrics.cluster.contingency_matrix",
    "metrics.adjusted_rand_score",
    "metrics.accuracy_score",
    "metrics.r2_score",
    "metrics.pairwise.euclidean_distances",
    "preprocessing.StandardScaler",
    "preprocessing.MinMaxScaler",
    "decomposition.PCA",
    "linear_model.Ridge",
]


def check_call(device, library, name):
    if device in FAR_DEVICES and importlib.util.find_spec("array_api_strict") is None:
        pytest.skip("needs array-api-strict, the reference on devices NumPy cannot reach")
    result = results_of(device, library).get(name, "not run: the worker has no such case")
    if result.startswith("client's limit"):
        pytest.skip(f"{library} does not run {name} on memory NumPy cannot reach ({result})")
    assert result == "ok", result


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", scipy_names())
def test_scipy_call_matches_numpy(device, name):
    check_call(device, "scipy", name)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", SKLEARN_NAMES)
def test_sklearn_call_matches_numpy(device, name):
    check_call(device, "sklearn", name)


@pytest.mark.parametrize("device", FAR_DEVICES)
def test_far_devices_run_what_the_clients_implement_in_the_namespace(device):
    """The reference's limits leave calls to test: SciPy runs logsumexp,
    most statistics, its fft and scikit-learn its scalers in the
    namespace."""
    if importlib.util.find_spec("array_api_strict") is None:
        pytest.skip("needs array-api-strict")
    ran = [n for n, r in results_of(device, "scipy").items() if not r.startswith("client's")]
    assert {"special.logsumexp", "stats.skew", "stats.zscore"} <= set(ran), ran


def test_the_worker_lists_every_case():
    if importlib.util.find_spec("scipy") is None or importlib.util.find_spec("sklearn") is None:
        pytest.skip("needs SciPy and scikit-learn")
    assert set(results_of(HOST_DEVICES[0], "scipy")) == set(scipy_names())
    assert set(results_of(HOST_DEVICES[0], "sklearn")) == set(SKLEARN_NAMES)


# ------------------------------------------- array-api-extra and einops


def xpx_cases(xpx):
    return {
        "atleast_nd": lambda x, xp: xpx.atleast_nd(x, ndim=3),
        "cov": lambda x, xp: xpx.cov(x),
        "create_diagonal": lambda x, xp: xpx.create_diagonal(x[0]),
        "expand_dims": lambda x, xp: xpx.expand_dims(x, axis=(0, 2)),
        "kron": lambda x, xp: xpx.kron(x, x[:2, :2]),
        "setdiff1d": lambda x, xp: xpx.setdiff1d(x[0], x[1], assume_unique=True),
        "sinc": lambda x, xp: xpx.sinc(x),
        "pad": lambda x, xp: xpx.pad(x, 2),
        "nunique": lambda x, xp: xpx.nunique(xp.round(x)),
        "broadcast_shapes": lambda x, xp: np.asarray(xpx.broadcast_shapes(x.shape, (1, 4))),
        "isclose": lambda x, xp: xpx.isclose(x, x + 1e-12),
        "at.set": lambda x, xp: xpx.at(x)[0, 1].set(9.0),
        "at.add": lambda x, xp: xpx.at(x)[:, 0].add(1.0),
        "one_hot": lambda x, xp: xpx.one_hot(xp.astype(x[0] > 1, xp.int64), 3),
    }


XPX_NAMES = list(xpx_cases(None))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", XPX_NAMES)
def test_array_api_extra_matches_numpy(device, name):
    xpx = pytest.importorskip("array_api_extra")
    f = xpx_cases(xpx)[name]
    h = np.arange(12.0).reshape(3, 4) / 3
    x = ua.asarray(h, device=device)
    try:
        got = f(x, x.__array_namespace__())
    except AttributeError as e:  # a function this version does not have
        if f"'{name.split('.')[0]}'" in str(e) and "array_api_extra" in str(e):
            pytest.skip(f"array-api-extra {xpx.__version__} has no {name}")
        raise
    assert_same(got, f(h, np))


EINOPS = [
    ("rearrange", "a b c -> c a b", {}),
    ("rearrange", "a b c -> (a b) c", {}),
    ("rearrange", "a (b x) c -> a b x c", {"x": 2}),
    ("reduce", "a b c -> a", {"reduction": "sum"}),
    ("reduce", "a b c -> a c", {"reduction": "max"}),
    ("reduce", "a b c -> b", {"reduction": "mean"}),
    ("repeat", "a b c -> a b c r", {"r": 2}),
    ("repeat", "a b c -> (a r) b c", {"r": 3}),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("op, pattern, kwargs", EINOPS, ids=[f"{o}:{p}" for o, p, _ in EINOPS])
def test_einops_matches_numpy(device, op, pattern, kwargs):
    einops = pytest.importorskip("einops")
    ea = pytest.importorskip("einops.array_api")
    h = np.arange(24.0).reshape(2, 4, 3)
    kwargs = dict(kwargs)
    reduction = kwargs.pop("reduction", None)
    args = (reduction,) if reduction else ()
    got = getattr(ea, op)(ua.asarray(h, device=device), pattern, *args, **kwargs)
    assert isinstance(got, ua.USMArray)
    assert_same(got, getattr(einops, op)(h, pattern, *args, **kwargs))


# ------------------------------------------------- the namespace clients see


@pytest.mark.parametrize("device", DEVICES)
def test_clients_find_a_namespace_scipy_does_not_take_for_marray(device):
    compat = pytest.importorskip("array_api_compat")
    x = ua.ones((2, 3), device=device)
    xp = compat.array_namespace(x)
    assert xp is x.__array_namespace__() and "marray" not in xp.__name__
    assert xp.sum is ua.sum and xp.linalg is ua.linalg and xp.fft is ua.fft
    assert compat.is_array_api_obj(x) and compat.size(x) == 6
    assert compat.device(x) == x.device
    assert compat.to_device(x, ua.Device("host")).device == ua.Device("host")
    assert float(xp.sum(x)) == 6.0


# ----------------------------------------------------- NumPy's functions


def on_host(h, kind="device"):
    return ua.asarray(h, device="host", usm_type=kind)


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
def test_numpy_asarray_shares_host_backend_memory_of_every_kind(kind):
    x = on_host(np.arange(6.0).reshape(2, 3), kind)
    n = np.asarray(x)
    assert n.ctypes.data == x._pointer
    n[0, 0] = 7
    assert float(x[0, 0]) == 7


@pytest.mark.parametrize(
    "flags",
    [{}, {"return_index": True}, {"return_inverse": True}, {"return_counts": True},
     {"return_index": True, "return_inverse": True, "return_counts": True},
     {"return_inverse": True, "return_counts": True}],
)  # fmt: skip
def test_numpy_unique_runs_the_namespace(flags):
    h = np.array([[3, 1, 2], [3, 1, 5]])
    got = np.unique(on_host(h), **flags)
    want = np.unique(h, **flags)
    if not flags:
        assert isinstance(got, ua.USMArray)
    else:
        assert isinstance(got, tuple) and all(isinstance(g, ua.USMArray) for g in got)
    assert_same(got, want)


def test_numpy_shape_functions_run_the_namespace():
    for h in (np.float64(2.0), np.arange(3.0), np.arange(6.0).reshape(2, 3), np.ones((2, 1, 3))):
        x = on_host(h)
        for f in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
            got = f(x)
            assert isinstance(got, ua.USMArray) and got.shape == f(h).shape
            assert_same(got, f(h))
    pair = np.atleast_2d(on_host(np.arange(3.0)), on_host(np.ones(2)))
    assert isinstance(pair, tuple) and [p.shape for p in pair] == [(1, 3), (1, 2)]
    a, b = np.arange(3.0), np.arange(6.0).reshape(3, 2)
    got = np.column_stack((on_host(a), on_host(b)))
    assert isinstance(got, ua.USMArray)
    assert_same(got, np.column_stack((a, b)))
    assert np.iscomplexobj(on_host(np.ones(2, complex))) is True
    assert np.iscomplexobj(on_host(np.ones(2))) is False
    x = on_host(np.arange(10.0))
    assert np.may_share_memory(x, x[3:]) and np.may_share_memory(x[::2], x[1::2])
    assert not np.may_share_memory(x[:5], x[5:])
    assert not np.may_share_memory(x, on_host(np.arange(10.0)))
    assert np.squeeze(on_host(np.ones((1, 3, 1)))).shape == (3,)


def test_numpy_functions_without_counterpart_run_numpy_on_host_memory():
    h = np.array([4.0, 1.0, 3.0, 2.0])
    x = on_host(h)
    assert np.median(x) == np.median(h)
    got = np.cumsum(x)
    assert type(got) is np.ndarray and got.tolist() == np.cumsum(h).tolist()
    assert np.percentile(x, 50) == np.percentile(h, 50)
    assert np.std(x, ddof=1) == np.std(h, ddof=1)  # NumPy's keyword: NumPy's function
    assert np.allclose(
        np.interp([1.5], on_host(np.arange(4.0)), x), np.interp([1.5], np.arange(4.0), h)
    )
    out = np.sort(on_host(h))  # a counterpart: ours
    assert isinstance(out, ua.USMArray)


def test_numpy_ufuncs_without_counterpart_run_numpy_on_host_memory():
    h = np.array([0.2, 1.7, 2.5, 3.0])
    x = on_host(h)
    assert np.add.reduce(x) == np.add.reduce(h)
    got = np.rint(x)  # a counterpart: ours
    assert isinstance(got, ua.USMArray) and ua.asnumpy(got).tolist() == np.rint(h).tolist()
    out = ua.zeros(4, device="host")
    assert np.multiply(x, 2, out=out) is not None  # out= writes through to ours
    assert ua.asnumpy(out).tolist() == (2 * h).tolist()
    np.add.at(x, [0, 0], 1.0)
    assert float(x[0]) == 2.2
    assert np.allclose(np.ldexp(x, 1), np.ldexp(ua.asnumpy(x), 1))


@pytest.mark.gpu
@pytest.mark.parametrize("device", [d for d in DEVICES if d not in HOST_DEVICES])
def test_numpy_functions_without_counterpart_refuse_gpu_device_memory(device):
    x = ua.ones(4, device=device)
    if ua.Device(device).device_type != "gpu":
        pytest.skip("device memory of a GPU")
    with pytest.raises(TypeError, match="numpy.median has no counterpart"):
        np.median(x)
    with pytest.raises(TypeError, match="asnumpy"):
        np.asarray(x)
    assert_same(np.unique(x), np.ones(1))
