"""butterfly.LDA: latent Dirichlet allocation trained by butterfly's Gibbs samplers, with
scikit-learn's names where they fit.

The training run is the C++ library's (butterfly::lda::trainer, what ``butterfly-lda train``
runs), and so are the defaults: the model is a pure function of ``random_state`` and the
options, bit for bit the CLI's model for the same corpus and options, on any thread count; a
checkpoint written by either continues in the other.
"""
import os
import warnings

import numpy as np

from . import _butterfly

try:  # progress bar where python3-tqdm is installed, quiet otherwise
    from tqdm import tqdm as _tqdm
except ImportError:  # pragma: no cover - depends on the machine
    _tqdm = None

_DEFAULTS = _butterfly._training_defaults()  # butterfly::lda::training_options, as the CLI's


def _documents(X, vocab_size=None):
    """(doc_offsets int64, words int32, V) of a documents x words count matrix: each
    (document, word, count) entry becomes `count` tokens, words in increasing id within a
    document, the order the UCI reader expands a docword file in."""
    import scipy.sparse as sp

    X = sp.csr_matrix(X)  # a copy only for non-CSR input
    if not X.has_canonical_format:  # duplicates summed and indices sorted, not in the caller's X
        X = X.copy()
        X.sum_duplicates()
    counts = X.data
    if counts.size and (counts.min() < 0 or not np.array_equal(counts, np.round(counts))):
        raise ValueError("X must hold non-negative integer counts (a document-term matrix such as "
                         "CountVectorizer gives)")
    if vocab_size is not None and X.shape[1] != vocab_size:
        raise ValueError(f"X has {X.shape[1]} columns, the model was fitted with {vocab_size} words")
    counts = counts.astype(np.int64)
    words = np.repeat(X.indices.astype(np.int32), counts)
    # document m's tokens begin after the counts of the entries before its row
    doc_offsets = np.concatenate(([0], np.cumsum(counts)))[X.indptr].astype(np.int64)
    return doc_offsets, words, X.shape[1]


class LDA:
    """Latent Dirichlet allocation by Gibbs sampling: partially collapsed by default (each
    document's tokens drawn in order), or Steele & Tristan's uncollapsed sampler (estimator="mean"
    or "sample").

    Parameters (scikit-learn's names; defaults are ``butterfly-lda train``'s):
      n_components      topics K (20)
      doc_topic_prior   symmetric Dirichlet alpha on each document's topic proportions (0.1)
      topic_word_prior  symmetric Dirichlet beta on each topic's word distribution (0.01)
      max_iter          Gibbs iterations (200)
      random_state      int seed (1, the CLI's --seed); the model is a pure function of it
    butterfly's own:
      algorithm         how z is drawn: basic, transposed, butterfly (default), warp_scan
      estimator         how z is drawn and theta and phi estimated (--estimator): "collapsed"
                        (default: theta integrated out, each document's tokens drawn in order,
                        theta and phi the posterior means; on long documents its first sweeps
                        are phased's, phased_sweeps),
                        "mh" (the same chain, each token
                        moved by Metropolis-Hastings proposals: cheaper per token at large K,
                        slower mixing per iteration), "hybrid" (the same chain, mh's moves read from
                        collapsed's compact tables: no V x K array; for large K), "phased"
                        (Metropolis-Hastings in WarpLDA's word and document phases: O(1) per
                        token, its reads in runs; one process),
                        "mean" (z by the butterfly from the
                        posterior means: cheaper iterations, but it can stop short of the
                        best model) or "sample" (Dirichlet draws, the paper's sampler)
      width             lanes per subgroup of the z draw, 0 = the backend's native (--width)
      start_topics      topics each document starts with (--start-topics; 0 = every token's
                        initial topic uniform; None = the CLI's default: 1 where the documents
                        are at least 128 per topic, 4 where at least 16, else 0)
      average           sweeps pooled into the model (--average): with estimator="collapsed" and
                        max_iter >= 100, components_ and doc_topic_ are the posterior means of
                        the pooled topics of the last iteration and average - 1 earlier ones
                        over the last eighth of the run (None = the CLI's default: 4 for
                        collapsed, else 1; 1 = the last iteration's alone)
      sweep_blocks      with estimator="collapsed" or "hybrid": each sweep in this many blocks
                        of documents, the word counts brought up to date before each block after
                        the first (--sweep-blocks; 1 = held for the whole sweep). For few
                        documents per topic, where held counts make the chain settle higher;
                        each block adds 1-7 % of a sweep's time (None = the CLI's default: 16
                        for these estimators below 4 training documents per topic, else 1)
      phased_sweeps     with estimator="collapsed": its first this many sweeps drawn as
                        estimator="phased" draws them (O(1) per token from the start), the rest
                        by its own sweep (--phased-sweeps; None = the CLI's
                        default: 50 where the documents average at least 400 tokens, 10
                        where shorter (20 from n_components = 4096), both where they number
                        at least n_components, else 0)
      subgroup_from     with estimator="collapsed": documents of at least this many tokens are
                        swept by a subgroup each (a warp on a GPU, vector lanes on the host), the
                        others by a thread each (--subgroup-from; 0 = the backend's default: 1024
                        on a GPU, none on the host). Never changes the model.
      threads           None = the backend's default; else the OpenMP backend's thread count
                        (a warning on a backend without host threads). Never changes the model.
      checkpoint        path: fit resumes from it when it exists (a checkpoint butterfly-lda train
                        wrote too: its DIR/checkpoint.bin) and writes it every checkpoint_every
                        iterations and at the end (butterfly-lda train --resume continues it
                        when it is DIR/checkpoint.bin and the model was fitted on a corpus path)
      checkpoint_every  iterations between checkpoints (10)
      fold_in_sweeps    Gibbs sweeps per document of transform and perplexity (20)
      progress          show a tqdm bar during fit where tqdm is installed (True)

    Attributes after fit: components_ (K x V float32, row k = topic k's word distribution,
    rows sum to 1; scikit-learn keeps unnormalized pseudo-counts there), doc_topic_
    (documents x K, the model's theta: the last iteration's, or pooled as average says), n_iter_,
    vocabulary_ (when fitted on a file).
    """

    def __init__(self, n_components=_DEFAULTS["n_components"], *, doc_topic_prior=_DEFAULTS["doc_topic_prior"],
                 topic_word_prior=_DEFAULTS["topic_word_prior"], max_iter=_DEFAULTS["max_iter"],
                 random_state=_DEFAULTS["random_state"], algorithm=_DEFAULTS["algorithm"],
                 estimator=_DEFAULTS["estimator"], width=_DEFAULTS["width"], start_topics=None, average=None,
                 sweep_blocks=None, phased_sweeps=None, subgroup_from=0, threads=None, checkpoint=None, checkpoint_every=10, fold_in_sweeps=_DEFAULTS["fold_in_sweeps"],
                 progress=True):
        self.n_components = n_components
        self.doc_topic_prior = doc_topic_prior
        self.topic_word_prior = topic_word_prior
        self.max_iter = max_iter
        self.random_state = random_state
        self.algorithm = algorithm
        self.estimator = estimator
        self.width = width
        self.start_topics = start_topics
        self.average = average
        self.sweep_blocks = sweep_blocks
        self.phased_sweeps = phased_sweeps
        self.subgroup_from = subgroup_from
        self.threads = threads
        self.checkpoint = checkpoint
        self.checkpoint_every = checkpoint_every
        self.fold_in_sweeps = fold_in_sweeps
        self.progress = progress

    # scikit-learn's estimator protocol, so that clone() and grid searches work
    def get_params(self, deep=True):
        return {k: getattr(self, k) for k in ("n_components", "doc_topic_prior", "topic_word_prior", "max_iter",
                                              "random_state", "algorithm", "estimator", "width", "start_topics",
                                              "average", "sweep_blocks", "phased_sweeps", "subgroup_from",
                                              "threads",
                                              "checkpoint",
                                              "checkpoint_every", "fold_in_sweeps", "progress")}

    def set_params(self, **params):
        for k, v in params.items():
            if k not in self.get_params():
                raise ValueError(f"invalid parameter {k!r} for LDA")
            setattr(self, k, v)
        return self

    def _seed(self):
        if isinstance(self.random_state, (bool, np.bool_)) or not isinstance(self.random_state, (int, np.integer)) \
                or not 0 <= int(self.random_state) < 2**63:
            raise ValueError(f"random_state must be an int in [0, 2^63), got {self.random_state!r} "
                             "(the model is a pure function of it)")
        return int(self.random_state)

    _CORPUS_OPTIONS = ("vocab", "format", "stopwords", "min_df")

    def _read(self, X, vocab_size=None, **corpus):
        """X as (doc_offsets, words, V, vocabulary or None, corpus file or None). corpus: the
        reader's options of a corpus path, as butterfly-lda's --vocab, --corpus-format,
        --stopwords, --min-df."""
        unknown = set(corpus) - set(self._CORPUS_OPTIONS)
        if unknown:
            raise TypeError(f"unexpected keyword arguments {sorted(unknown)}; a corpus path takes "
                            f"{', '.join(self._CORPUS_OPTIONS)}")
        if isinstance(X, (str, os.PathLike)):
            def absolute(p):
                return os.path.abspath(os.fspath(p)) if p else ""
            fmt, vocab_path, stopwords = (corpus.get(k) or "" for k in ("format", "vocab", "stopwords"))
            min_df = int(corpus.get("min_df", 1))
            offsets, words, vocab = _butterfly._read_corpus(os.fspath(X), fmt, os.fspath(vocab_path),
                                                            os.fspath(stopwords), min_df)
            if vocab_size is not None and len(vocab) != vocab_size:
                raise ValueError(f"{os.fspath(X)}: {len(vocab)} words, the model was fitted with {vocab_size}")
            # where a checkpoint says the documents are (paths absolute: butterfly-lda may resume it elsewhere)
            source = _butterfly._CorpusFile(fmt or _butterfly._format_from_name(os.fspath(X)), absolute(X),
                                            absolute(vocab_path), absolute(stopwords), min_df)
            return offsets, words, len(vocab), vocab, source
        if corpus:
            raise ValueError(f"{', '.join(corpus)} apply to a corpus path only")
        return (*_documents(X, vocab_size), None, None)

    def fit(self, X, y=None, **corpus):
        """Trains on X: a documents x words count matrix (scipy.sparse, e.g. CountVectorizer's,
        or dense), or the path of a corpus file in a format butterfly-lda reads (UCI docword,
        LDA-C, plain text; plain or .gz; format guessed from the name as the CLI does; the
        keywords vocab=, format=, stopwords=, min_df= as the CLI's corpus options)."""
        del y
        offsets, words, V, vocabulary, source = self._read(X, **corpus)
        if self.threads is not None and not _butterfly._set_threads(int(self.threads)) and int(self.threads) != 1:
            warnings.warn(f"threads={self.threads} has no effect: the {_butterfly.backend} backend runs one host thread")
        if (self.average is not None and int(self.average) > 1
                and self.estimator not in ("collapsed", "hybrid", "phased")):
            raise ValueError(f"average={self.average} pools sweeps only with estimator='collapsed', 'hybrid' or 'phased', "
                             f"got estimator={self.estimator!r}")
        max_iter = max(int(self.max_iter), 0)
        options = _butterfly._training_options(
            int(self.n_components), float(self.doc_topic_prior), float(self.topic_word_prior), self._seed(),
            str(self.algorithm), str(self.estimator), int(self.width),
            None if self.start_topics is None else int(self.start_topics), max_iter,
            None if self.average is None else int(self.average),
            None if self.sweep_blocks is None else int(self.sweep_blocks),
            None if self.phased_sweeps is None else int(self.phased_sweeps), int(self.subgroup_from),
            int(self.checkpoint_every), int(self.fold_in_sweeps))
        checkpoint = "" if self.checkpoint is None else os.fspath(self.checkpoint)
        trainer = _butterfly._Trainer(offsets, words, V, vocabulary or [], source, options, checkpoint,
                                      bool(checkpoint) and os.path.exists(checkpoint))
        bar = None
        if self.progress and _tqdm is not None:
            bar = _tqdm(total=max_iter, initial=trainer.iteration, unit="it", desc="butterfly.LDA")
        try:
            while trainer.iteration < max_iter:
                trainer.iterate()  # writes the checkpoint every checkpoint_every iterations
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        if checkpoint:
            trainer.save(checkpoint)
        phi = trainer.phi()
        self.components_ = np.ascontiguousarray(phi.T)
        self._phi = phi  # V x K, as the C++ evaluation reads it
        self.doc_topic_ = trainer.theta()
        self.n_iter_ = trainer.iteration
        self.n_features_in_ = V
        self.vocabulary_ = vocabulary
        self.log_likelihood_ = trainer.log_likelihood()
        return self

    def fit_transform(self, X, y=None, **corpus):
        """fit, then the training documents' topic proportions (doc_topic_)."""
        return self.fit(X, y, **corpus).doc_topic_

    def _check_fitted(self):
        if not hasattr(self, "components_"):
            raise ValueError("this LDA is not fitted yet: call fit first")

    def transform(self, X, **corpus):
        """Topic proportions (documents x K float32, rows sum to 1) of the documents X, with
        the topics fixed: fold_in_sweeps Gibbs sweeps per document, keyed by random_state."""
        self._check_fitted()
        offsets, words, *_ = self._read(X, self.n_features_in_, **corpus)
        return _butterfly._infer_theta(offsets, words, self._phi, int(self.n_components),
                                       float(self.doc_topic_prior), float(self.topic_word_prior),
                                       int(self.fold_in_sweeps), self._seed())

    def perplexity(self, X, **corpus):
        """Held-out perplexity of the documents X by document completion (Wallach et al. 2009,
        what butterfly-lda --holdout reports): each document's even-position tokens estimate
        its theta, its odd-position tokens are scored. scikit-learn's perplexity is a
        variational bound instead; compare models with one evaluator (../shared/eval)."""
        self._check_fitted()
        offsets, words, *_ = self._read(X, self.n_features_in_, **corpus)
        return _butterfly._completion_perplexity(offsets, words, self._phi, int(self.n_components),
                                                 float(self.doc_topic_prior), float(self.topic_word_prior),
                                                 int(self.fold_in_sweeps), self._seed())
