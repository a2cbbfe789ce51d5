"""butterfly: draw one index from each of many unnormalized discrete distributions at once.

    butterfly.draw_rows(weights)            # like torch.multinomial(weights, 1)[:, 0]
    butterfly.draw_topics(theta, phi, doc_offsets, words)   # LDA's z draw
    butterfly.LDA(n_components=20).fit(X)   # X: scipy.sparse documents x words, or a path

Arrays are read in place, never copied: weights, theta and phi must be float32 and
C-contiguous, doc_offsets int64, words int32; anything else is a TypeError or ValueError that
says how to convert once, outside the loop. Results are int32 arrays (-1 for a row of zeros)
and a pure function of (seed, iteration, row or token), the same bits as the C++ API.
"""
from ._butterfly import (
    __version__,
    algorithms,
    backend,
    backend_unavailable_reason,
    draw_rows,
    draw_topics,
    default_width,
    device_array,
    supported_widths,
)
from .lda import LDA

__all__ = ["LDA", "algorithms", "backend", "backend_unavailable_reason", "draw_rows", "draw_topics",
           "default_width", "device_array", "supported_widths", "__version__"]


def __getattr__(name):
    # default_width's name in 0.1, kept until 1.0 so that code written against 0.1 runs.
    if name == "native_width":
        import warnings
        warnings.warn("butterfly.native_width was renamed butterfly.default_width", DeprecationWarning, stacklevel=2)
        return default_width
    raise AttributeError(f"module 'butterfly' has no attribute {name!r}")
