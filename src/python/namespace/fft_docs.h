/* The docstrings of usmarray.fft (fft.c): the first line is the signature
 * Python shows, the rest numpydoc for the API reference. */
#ifndef UA_PY_FFT_DOCS_H
#define UA_PY_FFT_DOCS_H

/* What every transform's docstring says of its arguments. */
#define UA_DOC_FFT_NORM                                                       \
    "norm : {'backward', 'ortho', 'forward'}\n"                               \
    "    Which direction is scaled: 'backward' scales the inverse by 1/n,\n"  \
    "    'forward' the forward transform by 1/n, 'ortho' both by\n"           \
    "    1/sqrt(n), n being the transform's number of points.\n"

#define UA_DOC_FFT_AXIS                                                       \
    "axis : int\n"                                                            \
    "    The axis transformed (negative counts from the end).\n"

#define UA_DOC_FFT_AXES                                                       \
    "axes : sequence of int, optional\n"                                      \
    "    The axes transformed: every axis, or the last len(s) where s is\n"   \
    "    given.  A repeated axis is transformed again, as NumPy does.\n"

#define UA_DOC_FFT_DTYPES(result)                                             \
    "\n\nComplex64 and float32 inputs compute in single precision,\n"         \
    "complex128 and float64 in double; integers and bools are cast to\n"      \
    "the device's default floating type, as NumPy 2 casts them.  The\n"       \
    "result, " result ", is on x's queue, in new memory of x's USM kind.\n\n"

#define UA_DOC_FFT_FFT                                                        \
    "fft(x, /, *, n=None, axis=-1, norm='backward')\n--\n\n"                  \
    "The one-dimensional discrete Fourier transform along an "                \
    "axis." UA_DOC_FFT_DTYPES(                                                \
        "complex") "Parameters\n"                                             \
                   "----------\n"                                             \
                   "x : USMArray\n"                                           \
                   "    The input, of at least one dimension.\n"              \
                   "n : int, optional\n"                                      \
                   "    The number of points: the axis is cut to n or "       \
                   "padded with zeros\n"                                      \
                   "    to n.  Default: its "                                 \
                   "length.\n" UA_DOC_FFT_AXIS UA_DOC_FFT_NORM "\n"           \
                   "Returns\n"                                                \
                   "-------\n"                                                \
                   "USMArray\n"                                               \
                   "    x's shape with n elements along axis."

#define UA_DOC_FFT_IFFT                                                       \
    "ifft(x, /, *, n=None, axis=-1, norm='backward')\n--\n\n"                 \
    "The one-dimensional inverse discrete Fourier transform along an\n"       \
    "axis: ifft(fft(x)) == x within rounding." UA_DOC_FFT_DTYPES(             \
        "complex") "Parameters\n"                                             \
                   "----------\n"                                             \
                   "x : USMArray\n"                                           \
                   "    The input, of at least one dimension.\n"              \
                   "n : int, optional\n"                                      \
                   "    The number of points (cut or zero-padded).  "         \
                   "Default: the axis'\n"                                     \
                   "    length.\n" UA_DOC_FFT_AXIS UA_DOC_FFT_NORM "\n"       \
                   "Returns\n"                                                \
                   "-------\n"                                                \
                   "USMArray\n"                                               \
                   "    x's shape with n elements along axis."

#define UA_DOC_FFT_FFTN                                                       \
    "fftn(x, /, *, s=None, axes=None, norm='backward')\n--\n\n"               \
    "The n-dimensional discrete Fourier transform over several "              \
    "axes." UA_DOC_FFT_DTYPES(                                                \
        "complex") "Parameters\n"                                             \
                   "----------\n"                                             \
                   "x : USMArray\n"                                           \
                   "    The input, of at least one dimension.\n"              \
                   "s : sequence of int, optional\n"                          \
                   "    The number of points along each of axes (cut or "     \
                   "zero-padded; -1\n"                                        \
                   "    keeps the axis' length).  Default: the axes' "        \
                   "lengths.\n" UA_DOC_FFT_AXES UA_DOC_FFT_NORM "\n"          \
                   "Returns\n"                                                \
                   "-------\n"                                                \
                   "USMArray\n"                                               \
                   "    x's shape with s[i] elements along axes[i]."

#define UA_DOC_FFT_IFFTN                                                      \
    "ifftn(x, /, *, s=None, axes=None, norm='backward')\n--\n\n"              \
    "The n-dimensional inverse discrete Fourier transform over several\n"     \
    "axes: ifftn(fftn(x)) == x within rounding." UA_DOC_FFT_DTYPES(           \
        "complex") "Parameters\n"                                             \
                   "----------\n"                                             \
                   "x : USMArray\n"                                           \
                   "    The input, of at least one dimension.\n"              \
                   "s : sequence of int, optional\n"                          \
                   "    The number of points along each of axes (cut or "     \
                   "zero-padded).\n" UA_DOC_FFT_AXES UA_DOC_FFT_NORM "\n"     \
                   "Returns\n"                                                \
                   "-------\n"                                                \
                   "USMArray\n"                                               \
                   "    x's shape with s[i] elements along axes[i]."

#define UA_DOC_FFT_RFFT                                                       \
    "rfft(x, /, *, n=None, axis=-1, norm='backward')\n--\n\n"                 \
    "The discrete Fourier transform of real values along an axis: the\n"      \
    "n // 2 + 1 frequencies that are not the conjugates of others.  A\n"      \
    "complex x raises TypeError." UA_DOC_FFT_DTYPES(                          \
        "complex") "Parameters\n"                                             \
                   "----------\n"                                             \
                   "x : USMArray\n"                                           \
                   "    Real values, of at least one dimension.\n"            \
                   "n : int, optional\n"                                      \
                   "    The number of real points (cut or zero-padded).  "    \
                   "Default: the\n"                                           \
                   "    axis' length.\n" UA_DOC_FFT_AXIS UA_DOC_FFT_NORM "\n" \
                   "Returns\n"                                                \
                   "-------\n"                                                \
                   "USMArray\n"                                               \
                   "    x's shape with n // 2 + 1 elements along axis."

#define UA_DOC_FFT_IRFFT                                                      \
    "irfft(x, /, *, n=None, axis=-1, norm='backward')\n--\n\n"                \
    "The inverse of rfft: n real values from the n // 2 + 1 frequencies\n"    \
    "along axis (cut or zero-padded to that many).  The imaginary parts\n"    \
    "of the zero frequency (and of the Nyquist one, for an even n) are\n"     \
    "ignored." UA_DOC_FFT_DTYPES(                                             \
        "real") "Parameters\n"                                                \
                "----------\n"                                                \
                "x : USMArray\n"                                              \
                "    The frequencies, of at least one dimension.\n"           \
                "n : int, optional\n"                                         \
                "    The number of real points out.  Default: 2 * (m - 1) "   \
                "for an axis\n"                                               \
                "    of m elements.\n" UA_DOC_FFT_AXIS UA_DOC_FFT_NORM "\n"   \
                "Returns\n"                                                   \
                "-------\n"                                                   \
                "USMArray\n"                                                  \
                "    x's shape with n elements along axis."

#define UA_DOC_FFT_RFFTN                                                      \
    "rfftn(x, /, *, s=None, axes=None, norm='backward')\n--\n\n"              \
    "The n-dimensional discrete Fourier transform of real values: rfft\n"     \
    "along the last of axes, then fft along the others.  A complex x\n"       \
    "raises TypeError." UA_DOC_FFT_DTYPES(                                    \
        "complex") "Parameters\n"                                             \
                   "----------\n"                                             \
                   "x : USMArray\n"                                           \
                   "    Real values, of at least one dimension.\n"            \
                   "s : sequence of int, optional\n"                          \
                   "    The number of real points along each of axes (cut "   \
                   "or\n"                                                     \
                   "    zero-padded).\n" UA_DOC_FFT_AXES UA_DOC_FFT_NORM "\n" \
                   "Returns\n"                                                \
                   "-------\n"                                                \
                   "USMArray\n"                                               \
                   "    x's shape with s[i] elements along axes[i], s[-1] "   \
                   "// 2 + 1 along\n"                                         \
                   "    the last of them."

#define UA_DOC_FFT_IRFFTN                                                     \
    "irfftn(x, /, *, s=None, axes=None, norm='backward')\n--\n\n"             \
    "The inverse of rfftn: ifft along all but the last of axes, then\n"       \
    "irfft along the last." UA_DOC_FFT_DTYPES(                                \
        "real") "Parameters\n"                                                \
                "----------\n"                                                \
                "x : USMArray\n"                                              \
                "    The frequencies, of at least one dimension.\n"           \
                "s : sequence of int, optional\n"                             \
                "    The number of real points out along each of axes.  "     \
                "Default: the\n"                                              \
                "    axes' lengths, 2 * (m - 1) for the "                     \
                "last.\n" UA_DOC_FFT_AXES UA_DOC_FFT_NORM "\n"                \
                "Returns\n"                                                   \
                "-------\n"                                                   \
                "USMArray\n"                                                  \
                "    x's shape with s[i] elements along axes[i]."

#define UA_DOC_FFT_HFFT                                                       \
    "hfft(x, /, *, n=None, axis=-1, norm='backward')\n--\n\n"                 \
    "The discrete Fourier transform of a signal with Hermitian symmetry,\n"   \
    "given by its first half: irfft of conj(x) with norm's direction\n"       \
    "swapped, as NumPy computes it." UA_DOC_FFT_DTYPES(                       \
        "real") "Parameters\n"                                                \
                "----------\n"                                                \
                "x : USMArray\n"                                              \
                "    The half signal, of at least one dimension.\n"           \
                "n : int, optional\n"                                         \
                "    The number of real points out.  Default: 2 * (m - 1) "   \
                "for an axis\n"                                               \
                "    of m elements.\n" UA_DOC_FFT_AXIS UA_DOC_FFT_NORM "\n"   \
                "Returns\n"                                                   \
                "-------\n"                                                   \
                "USMArray\n"                                                  \
                "    x's shape with n elements along axis."

#define UA_DOC_FFT_IHFFT                                                      \
    "ihfft(x, /, *, n=None, axis=-1, norm='backward')\n--\n\n"                \
    "The inverse of hfft: conj(rfft(x)) with norm's direction swapped.  A\n"  \
    "complex x raises TypeError." UA_DOC_FFT_DTYPES(                          \
        "complex") "Parameters\n"                                             \
                   "----------\n"                                             \
                   "x : USMArray\n"                                           \
                   "    Real values, of at least one dimension.\n"            \
                   "n : int, optional\n"                                      \
                   "    The number of real points (cut or zero-padded).  "    \
                   "Default: the\n"                                           \
                   "    axis' length.\n" UA_DOC_FFT_AXIS UA_DOC_FFT_NORM "\n" \
                   "Returns\n"                                                \
                   "-------\n"                                                \
                   "USMArray\n"                                               \
                   "    x's shape with n // 2 + 1 elements along axis."

#define UA_DOC_FFT_FREQ_PARAMETERS                                            \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "n : int\n"                                                               \
    "    The transform's number of points, at least 1.\n"                     \
    "d : float\n"                                                             \
    "    The spacing of the samples (not 0).\n"                               \
    "dtype : dtype, optional\n"                                               \
    "    A real floating type.  Default: the device's default one.\n"         \
    "device : Device, Queue or str, optional\n"                               \
    "    Where the result lives.  Default: the default device.\n"             \
    "usm_type : {'device', 'shared', 'host'}\n"                               \
    "    The result's kind of USM memory.\n"                                  \
    "queue : Queue, optional\n"                                               \
    "    The queue the result belongs to (agreeing with device).\n"

#define UA_DOC_FFT_FFTFREQ                                                    \
    "fftfreq(n, /, *, d=1.0, dtype=None, device=None, usm_type='device', "    \
    "queue=None)\n--\n\n"                                                     \
    "The sample frequencies of an n-point transform: [0, 1, ..., -2, -1]\n"   \
    "/ (d * n), the nonnegative ones first, made on the device (in\n"         \
    "float64 where it has double precision, then cast to "                    \
    "dtype).\n\n" UA_DOC_FFT_FREQ_PARAMETERS "\n"                             \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    n frequencies."

#define UA_DOC_FFT_RFFTFREQ                                                   \
    "rfftfreq(n, /, *, d=1.0, dtype=None, device=None, usm_type='device', "   \
    "queue=None)\n--\n\n"                                                     \
    "The sample frequencies of rfft's result: [0, 1, ..., n // 2] / (d *\n"   \
    "n), the Nyquist frequency positive.\n\n" UA_DOC_FFT_FREQ_PARAMETERS "\n" \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    n // 2 + 1 frequencies."

#define UA_DOC_FFT_SHIFT_PARAMETERS                                           \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array, of at least one dimension.\n"                             \
    "axes : int or sequence of int, optional\n"                               \
    "    The axes shifted.  Default: all.\n\n"                                \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A new array of x's shape and dtype."

#define UA_DOC_FFT_FFTSHIFT                                                   \
    "fftshift(x, /, *, axes=None)\n--\n\n"                                    \
    "x with the zero frequency moved to the middle of each of axes: a\n"      \
    "roll by m // 2 along an axis of m "                                      \
    "elements.\n\n" UA_DOC_FFT_SHIFT_PARAMETERS

#define UA_DOC_FFT_IFFTSHIFT                                                  \
    "ifftshift(x, /, *, axes=None)\n--\n\n"                                   \
    "The inverse of fftshift: a roll by -(m // 2) along each of axes (the\n"  \
    "two differ by one element for an odd "                                   \
    "m).\n\n" UA_DOC_FFT_SHIFT_PARAMETERS

#endif
