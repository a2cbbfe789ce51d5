"""butterfly.LDA: the CLI's model bit for bit on the bundled corpus, from a path or from a
scipy.sparse matrix; checkpoints of either continued by the other; transform and perplexity on
held-out documents; checkpoints; errors."""
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import butterfly

DATA = Path(os.environ["BUTTERFLY_SOURCE_DIR"]) / "data" / "ap"
DOCWORD, VOCAB = DATA / "docword.ap.txt.gz", DATA / "vocab.ap.txt"
# A width other than the default that the backend has kernels for (4 on the host, 64 on the
# emulated device).
OTHER_WIDTH = min(w for w in butterfly.supported_widths if w != butterfly.default_width)
ITERATIONS = 15  # enough for every part of an iteration; the CLI's 200 would take minutes


def cli_run(*args):
    exe = os.environ.get("BUTTERFLY_LDA")
    if not exe:
        pytest.skip("BUTTERFLY_LDA is not set (configure with BUTTERFLY_BUILD_APPS=ON)")
    return subprocess.run([exe, *map(str, args)], capture_output=True, text=True)


def cli(*args):
    done = cli_run(*args)
    assert done.returncode == 0, done.stderr


def read_uci(path):
    """The docword file as a documents x words CSR matrix, read independently of butterfly."""
    with gzip.open(path, "rt") as f:
        D, W, _ = (int(f.readline()) for _ in range(3))
        entries = np.loadtxt(f, dtype=np.int64, ndmin=2)
    return sp.csr_matrix((entries[:, 2], (entries[:, 0] - 1, entries[:, 1] - 1)), shape=(D, W))


def write_uci(path, X):
    X = sp.coo_matrix(X)
    with open(path, "w") as f:
        f.write(f"{X.shape[0]}\n{X.shape[1]}\n{X.nnz}\n")
        for d, w, n in sorted(zip(X.row + 1, X.col + 1, X.data)):
            f.write(f"{d} {w} {n}\n")


@pytest.fixture(scope="module")
def ap():
    return read_uci(DOCWORD)


@pytest.fixture(scope="module")
def cli_model(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "model"
    cli("train", "--iterations", ITERATIONS, "--npy", "--quiet", "--out", out)
    return out


@pytest.fixture(scope="module")
def fitted():
    return butterfly.LDA(max_iter=ITERATIONS, progress=False).fit(DOCWORD, vocab=VOCAB)


def test_fit_on_the_bundled_corpus_is_the_clis_model_bit_for_bit(cli_model, fitted):
    # butterfly-lda train's defaults are LDA's: 20 topics, alpha 0.1, beta 0.01, seed 1, butterfly
    phi, theta = np.load(cli_model / "phi.npy"), np.load(cli_model / "theta.npy")
    assert fitted.components_.shape == (20, 10473)
    assert np.array_equal(fitted.components_.T.view(np.uint32), phi.view(np.uint32))
    assert np.array_equal(fitted.doc_topic_.view(np.uint32), theta.view(np.uint32))
    assert fitted.n_iter_ == ITERATIONS
    assert fitted.vocabulary_ == (cli_model / "vocab.txt").read_text().split("\n")[:10473]
    metrics = [json.loads(line) for line in (cli_model / "metrics.jsonl").read_text().splitlines()]
    assert fitted.log_likelihood_ == metrics[-1]["log_likelihood"]


def test_the_shared_evaluator_reads_the_clis_counts_as_its_phi(cli_model, tmp_path):
    # word-topic-counts.txt is MALLET's format: the evaluator every LDA tool is scored with
    # converts it (priors times the counted sweeps) to the phi of phi.npy
    heldout = Path(os.environ["BUTTERFLY_SOURCE_DIR"]).parent / "shared" / "eval" / "heldout.py"
    if not heldout.exists():
        pytest.skip(f"{heldout} is absent (../shared beside the repository)")
    model = json.loads((cli_model / "model.json").read_text())
    out = tmp_path / "phi.npy"
    subprocess.run([sys.executable, heldout, "convert", "mallet", cli_model / "word-topic-counts.txt", "--vocab",
                    cli_model / "vocab.txt", "--beta", str(model["beta"] * model["counted_sweeps"]), "--k",
                    str(model["topics"]), "--out", out], check=True, capture_output=True)
    phi = np.load(cli_model / "phi.npy").T.astype(np.float64)
    assert np.allclose(np.load(out), phi / phi.sum(axis=1, keepdims=True), rtol=1e-6, atol=0)


def test_estimator_sample_width_and_start_topics_are_the_clis(tmp_path):
    out = tmp_path / "model"
    cli("train", "--iterations", 5, "--estimator", "sample", "--width", OTHER_WIDTH, "--start-topics", 3, "--quiet",
        "--out", out)
    lda = butterfly.LDA(max_iter=5, estimator="sample", width=OTHER_WIDTH, start_topics=3, progress=False).fit(DOCWORD,
                                                                                                   vocab=VOCAB)
    assert np.array_equal(lda.components_.T.view(np.uint32), np.load(out / "phi.npy").view(np.uint32))
    with pytest.raises(ValueError, match="estimator must be sample, mean, collapsed, mh, hybrid or phased, got 'mode'"):
        butterfly.LDA(max_iter=1, estimator="mode", progress=False).fit(DOCWORD, vocab=VOCAB)
    with pytest.raises(ValueError, match="width 3"):
        butterfly.LDA(max_iter=1, width=3, progress=False).fit(DOCWORD, vocab=VOCAB)


def test_sweep_blocks_are_the_clis(tmp_path):
    out = tmp_path / "model"
    cli("train", "--iterations", 5, "--estimator", "hybrid", "--sweep-blocks", 3, "--npy", "--quiet", "--out", out)
    lda = butterfly.LDA(max_iter=5, estimator="hybrid", sweep_blocks=3, progress=False).fit(DOCWORD, vocab=VOCAB)
    assert np.array_equal(lda.components_.T.view(np.uint32), np.load(out / "phi.npy").view(np.uint32))
    one = butterfly.LDA(max_iter=5, estimator="hybrid", progress=False).fit(DOCWORD, vocab=VOCAB)
    assert not np.array_equal(one.components_, lda.components_)
    with pytest.raises(ValueError, match="sweep_blocks must be 1 unless the estimator is collapsed or hybrid"):
        butterfly.LDA(max_iter=1, estimator="mh", sweep_blocks=2, progress=False).fit(DOCWORD, vocab=VOCAB)


def test_phased_sweeps_are_the_clis(tmp_path):
    out = tmp_path / "model"
    cli("train", "--iterations", 5, "--phased-sweeps", 2, "--npy", "--quiet", "--out", out)
    lda = butterfly.LDA(max_iter=5, phased_sweeps=2, progress=False).fit(DOCWORD, vocab=VOCAB)
    assert np.array_equal(lda.components_.T.view(np.uint32), np.load(out / "phi.npy").view(np.uint32))
    none = butterfly.LDA(max_iter=5, progress=False).fit(DOCWORD, vocab=VOCAB)  # ap: short documents
    assert not np.array_equal(none.components_, lda.components_)
    with pytest.raises(ValueError, match="phased_sweeps must be 0 unless the estimator is collapsed"):
        butterfly.LDA(max_iter=1, estimator="mh", phased_sweeps=2, progress=False).fit(DOCWORD, vocab=VOCAB)


def test_subgroup_from_changes_the_time_not_the_model():
    threads = butterfly.LDA(max_iter=4, progress=False).fit(DOCWORD, vocab=VOCAB)
    lanes = butterfly.LDA(max_iter=4, subgroup_from=1, progress=False).fit(DOCWORD, vocab=VOCAB)
    assert np.array_equal(lanes.components_.view(np.uint32), threads.components_.view(np.uint32))
    assert np.array_equal(lanes.doc_topic_.view(np.uint32), threads.doc_topic_.view(np.uint32))
    with pytest.raises(ValueError, match="subgroup_from must be 0 unless the estimator is collapsed"):
        butterfly.LDA(max_iter=1, estimator="hybrid", subgroup_from=8, progress=False).fit(DOCWORD, vocab=VOCAB)


def test_a_sparse_matrix_gives_the_model_of_the_file(ap, fitted):
    from_matrix = butterfly.LDA(max_iter=ITERATIONS, progress=False).fit(ap)
    assert np.array_equal(from_matrix.components_, fitted.components_)
    assert np.array_equal(from_matrix.doc_topic_, fitted.doc_topic_)
    assert from_matrix.vocabulary_ is None
    # the same matrix as floats, in COO form with duplicate entries split in two: same tokens
    coo = ap.tocoo()
    split = sp.coo_matrix((np.concatenate([coo.data - 1, np.ones_like(coo.data)]).astype(np.float64),
                           (np.tile(coo.row, 2), np.tile(coo.col, 2))), shape=ap.shape)
    again = butterfly.LDA(max_iter=2, progress=False).fit(split)
    assert np.array_equal(again.components_, butterfly.LDA(max_iter=2, progress=False).fit(ap).components_)


def test_a_dense_matrix_gives_the_model_of_the_sparse_one(ap):
    # README: fit(X) takes scipy.sparse "or dense" documents x words counts
    X = ap[:200]
    sparse = butterfly.LDA(n_components=6, max_iter=3, progress=False).fit(X)
    for dense in (X.toarray(), X.toarray().astype(np.float32)):
        model = butterfly.LDA(n_components=6, max_iter=3, progress=False).fit(dense)
        assert np.array_equal(model.components_, sparse.components_)
        assert np.array_equal(model.doc_topic_, sparse.doc_topic_)


def test_the_model_is_a_pure_function_of_random_state(ap):
    X = ap[:300]
    a, b = (butterfly.LDA(n_components=8, max_iter=5, random_state=7, progress=False).fit(X) for _ in range(2))
    c = butterfly.LDA(n_components=8, max_iter=5, random_state=8, progress=False).fit(X)
    assert np.array_equal(a.components_, b.components_) and not np.array_equal(a.components_, c.components_)
    for algorithm in ("basic", "warp_scan"):
        lda = butterfly.LDA(n_components=8, max_iter=2, algorithm=algorithm, threads=1, progress=False)
        assert lda.fit(X).components_.shape == (8, X.shape[1])
    assert np.allclose(a.components_.sum(axis=1), 1, atol=1e-4)


def test_transform_on_held_out_documents_is_the_clis_infer(ap, tmp_path):
    train, held_out = ap[:2000], ap[2000:]
    lda = butterfly.LDA(max_iter=ITERATIONS, progress=False).fit(train)
    theta = lda.transform(held_out)
    assert theta.shape == (246, 20) and theta.dtype == np.float32
    assert np.allclose(theta.sum(axis=1)[np.diff(held_out.indptr) > 0], 1, atol=1e-4)
    # the CLI infers with the same library code from a model directory
    model = tmp_path / "model"
    model.mkdir()
    cli("train", "--iterations", 0, "--quiet", "--out", model)  # model.json, vocab.txt of the corpus
    np.save(model / "phi.npy", lda.components_.T.copy())
    (model / "word-topic-counts.txt").unlink()  # infer reads phi.npy where there are no counts
    write_uci(tmp_path / "docword.held.txt", held_out)
    cli("infer", "--model", model, "--docword", tmp_path / "docword.held.txt", "--vocab", VOCAB, "--out",
        tmp_path / "theta.npy")
    assert np.array_equal(theta, np.load(tmp_path / "theta.npy"))
    assert np.array_equal(lda.fit_transform(train), lda.doc_topic_)
    # trained topics explain held-out documents better than the random initial ones
    initial = butterfly.LDA(max_iter=0, progress=False).fit(train)
    trained = lda.perplexity(held_out)
    assert 1 < trained < initial.perplexity(held_out) < 10473


def test_fit_resumes_from_its_checkpoint_exactly(ap, tmp_path):
    X, path = ap[:200], tmp_path / "lda.ckpt"
    whole = butterfly.LDA(n_components=5, max_iter=6, progress=False).fit(X)
    butterfly.LDA(n_components=5, max_iter=4, checkpoint=path, checkpoint_every=2, progress=False).fit(X)
    resumed = butterfly.LDA(n_components=5, max_iter=6, checkpoint=path, progress=False).fit(X)
    assert np.array_equal(resumed.components_, whole.components_)
    with pytest.raises(ValueError, match="checkpoint was written for other documents or options"):
        butterfly.LDA(n_components=5, max_iter=6, checkpoint=path, random_state=2, progress=False).fit(X)
    with pytest.raises(ValueError, match="checkpoint was written for other documents or options"):
        butterfly.LDA(n_components=5, max_iter=6, checkpoint=path, estimator="sample", progress=False).fit(X)


def test_a_fit_of_100_iterations_pools_its_last_sweeps(ap, tmp_path):
    X, path = ap[:200], tmp_path / "lda.ckpt"
    pooled = butterfly.LDA(n_components=5, max_iter=100, progress=False).fit(X)
    last = butterfly.LDA(n_components=5, max_iter=100, average=1, progress=False).fit(X)
    assert not np.array_equal(pooled.components_, last.components_)
    assert not np.array_equal(pooled.doc_topic_, last.doc_topic_)
    # A checkpoint of 80 iterations continues to 100: the sweeps 100 pools (88, 92, 96) come after it.
    butterfly.LDA(n_components=5, max_iter=80, checkpoint=path, progress=False).fit(X)
    resumed = butterfly.LDA(n_components=5, max_iter=100, checkpoint=path, progress=False).fit(X)
    assert np.array_equal(resumed.components_, pooled.components_)
    # One of 94 iterations cannot: it did not keep iteration 88's topics.
    path.unlink()
    butterfly.LDA(n_components=5, max_iter=94, checkpoint=path, progress=False).fit(X)
    with pytest.raises(ValueError, match="pools the topics of iteration 88"):
        butterfly.LDA(n_components=5, max_iter=100, checkpoint=path, progress=False).fit(X)
    with pytest.raises(ValueError, match="average=4 pools sweeps only with estimator='collapsed'"):
        butterfly.LDA(max_iter=1, estimator="mean", average=4, progress=False).fit(X)


def test_bad_input_is_a_clear_error(ap, tmp_path):
    with pytest.raises(ValueError, match="non-negative integer counts"):
        butterfly.LDA(progress=False).fit(sp.csr_matrix(np.array([[0.5, 1.0]])))
    with pytest.raises(ValueError, match="random_state"):
        butterfly.LDA(random_state=-1, progress=False).fit(ap[:10])
    with pytest.raises(ValueError, match="number of topics must be at least 1"):
        butterfly.LDA(n_components=0, progress=False).fit(ap[:10])
    with pytest.raises(ValueError, match="not fitted"):
        butterfly.LDA().transform(ap[:10])
    lda = butterfly.LDA(n_components=3, max_iter=1, progress=False).fit(ap[:10])
    with pytest.raises(ValueError, match="X has 5 columns, the model was fitted with 10473 words"):
        lda.transform(sp.csr_matrix((2, 5)))
    bad = tmp_path / "docword.bad.txt"
    bad.write_text("2\n3\n1\n1 9 1\n")
    with pytest.raises(ValueError, match=str(bad)):
        butterfly.LDA(progress=False).fit(bad)
    with pytest.raises(ValueError, match="apply to a corpus path only"):
        butterfly.LDA(progress=False).fit(ap[:10], vocab=VOCAB)


# The CLI and Python train through one library trainer: the same corpus, seed and options give
# the same bits, and a checkpoint written by either continues in the other. 100 iterations, so
# that the default model pools the sweeps 88, 92 and 96 with the last, and the checkpoints at
# iteration 90 (every 45) carry sweep 88 across.
CROSS = dict(topics=8, iterations=100, seed=3)
CROSS_FILES = ("word-topic-counts.txt", "doc-topic-counts.txt", "phi.npy", "theta.npy", "topics.txt", "vocab.txt",
               "model.json")


@pytest.fixture(scope="module")
def cross(ap, tmp_path_factory):
    """A 300-document corpus file and the CLI's uninterrupted model of it."""
    work = tmp_path_factory.mktemp("cross")
    write_uci(work / "docword.cross.txt", ap[:300])
    cli("train", "--docword", work / "docword.cross.txt", "--vocab", VOCAB, "--topics", CROSS["topics"],
        "--iterations", CROSS["iterations"], "--seed", CROSS["seed"], "--checkpoint-every", 45, "--npy", "--quiet", "--out",
        work / "cli")
    return work


def cross_lda(**options):
    return butterfly.LDA(n_components=CROSS["topics"], max_iter=CROSS["iterations"], random_state=CROSS["seed"],
                         progress=False, **options)


def same_bits(array, npy_path):
    stored = np.load(npy_path)
    return array.dtype == stored.dtype == np.float32 and array.shape == stored.shape and \
        np.array_equal(array.view(np.uint32), stored.view(np.uint32))


class Stop(Exception):
    pass


def counting_trainer(monkeypatch, stop_at=None):
    """Replaces the trainer butterfly.LDA makes with one that counts its iterations (and raises
    Stop before iteration stop_at, as a killed process stops), so a test sees that a fit resumed."""
    ran = []

    class Counting(butterfly.lda._butterfly._Trainer):
        def iterate(self):
            if self.iteration + 1 == stop_at:
                raise Stop()
            ran.append(self.iteration + 1)
            return super().iterate()

    monkeypatch.setattr(butterfly.lda._butterfly, "_Trainer", Counting)
    return ran


def test_the_cli_and_python_train_byte_identical_models(cross):
    lda = cross_lda().fit(cross / "docword.cross.txt", vocab=VOCAB)
    assert same_bits(lda.components_.T.copy(), cross / "cli" / "phi.npy")
    assert same_bits(lda.doc_topic_, cross / "cli" / "theta.npy")
    assert json.loads((cross / "cli" / "model.json").read_text())["pooled_iterations"] == [88, 92, 96]


def test_a_cli_checkpoint_continues_in_python(cross, tmp_path, monkeypatch):
    checkpoint = tmp_path / "checkpoint.bin"
    checkpoint.write_bytes((cross / "cli" / "checkpoint.bin").read_bytes())  # iteration 90's
    ran = counting_trainer(monkeypatch)
    lda = cross_lda(checkpoint=checkpoint).fit(cross / "docword.cross.txt", vocab=VOCAB)
    assert ran == list(range(91, 101))
    assert same_bits(lda.components_.T.copy(), cross / "cli" / "phi.npy")
    assert same_bits(lda.doc_topic_, cross / "cli" / "theta.npy")
    # The options that define the chain must be the checkpoint's, and so must the documents.
    checkpoint.write_bytes((cross / "cli" / "checkpoint.bin").read_bytes())
    with pytest.raises(ValueError, match=re.escape(f"{checkpoint}: checkpoint was written for other documents or options: "
                                                   "seed 3, this run 4")):
        butterfly.LDA(n_components=8, max_iter=100, random_state=4, checkpoint=checkpoint,
                      progress=False).fit(cross / "docword.cross.txt", vocab=VOCAB)
    with pytest.raises(ValueError, match=re.escape(f"{checkpoint}: checkpoint was written for a different corpus")):
        cross_lda(checkpoint=checkpoint).fit(cross / "docword.cross.txt")  # no vocabulary: other words


def test_a_python_checkpoint_continues_in_the_cli(ap, cross, tmp_path, monkeypatch):
    out = tmp_path / "resumed"
    out.mkdir()
    counting_trainer(monkeypatch, stop_at=93)
    with pytest.raises(Stop):  # the checkpoints of iterations 45 and 90 written, then stopped
        cross_lda(checkpoint=out / "checkpoint.bin", checkpoint_every=45).fit(cross / "docword.cross.txt",
                                                                               vocab=VOCAB)
    done = cli_run("train", "--resume", out, "--npy")
    assert done.returncode == 0, done.stderr
    assert "resumed" in done.stderr
    for f in CROSS_FILES:
        assert (out / f).read_bytes() == (cross / "cli" / f).read_bytes(), f
    # A fit on a matrix has no corpus file for the CLI to read.
    matrix = tmp_path / "matrix"
    matrix.mkdir()
    butterfly.LDA(n_components=3, max_iter=2, checkpoint=matrix / "checkpoint.bin", progress=False).fit(ap[:20])
    done = cli_run("train", "--resume", matrix)
    assert done.returncode == 1
    assert f"{matrix}/checkpoint.bin: checkpoint of documents given in memory" in done.stderr
