// End-to-end tests of `mpiexec -np R butterfly-lda train`: the model is byte-identical for
// R = 1, 2, 3 (3 oversubscribes a 2-core machine), a checkpoint written by one R resumes
// under another, and a failure on any rank ends the whole job with its message (a job that
// hangs instead fails by the ctest TIMEOUT of these tests).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace fs = std::filesystem;
using butterfly::testing::outcome;
using butterfly::testing::slurp;

namespace {

// As root, Open MPI refuses to start without these; harmless otherwise.
const std::vector<std::string> mpi_env = {"OMPI_ALLOW_RUN_AS_ROOT=1",
                                          "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"};

struct workspace {
  std::string dir;
  workspace() {
    std::string templ = (fs::temp_directory_path() / "butterfly-mpi-XXXXXX").string();
    dir = ::mkdtemp(templ.data());
  }
  ~workspace() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return dir + "/" + name; }
};

// A failing rank must end the whole job: the run returns with exit code 1. A job that hangs
// instead never returns; the ctest TIMEOUT of these tests (tests/mpi/CMakeLists.txt) fails it.
// No test measures how long the job took (no timed tests).
struct mpi_outcome {
  outcome o;
};

// mpiexec -np ranks --oversubscribe program args..., the program butterfly-lda unless a
// test needs the failure hooks of butterfly-lda-faults.
mpi_outcome mpi_run(const workspace& w, int ranks, std::vector<std::string> args,
                    std::vector<std::string> env = {},
                    const std::string& program = BUTTERFLY_LDA_PROGRAM) {
  std::vector<std::string> argv = {MPIEXEC_NUMPROC_FLAG, std::to_string(ranks), "--oversubscribe",
                                   program};
  argv.insert(argv.end(), args.begin(), args.end());
  env.insert(env.end(), mpi_env.begin(), mpi_env.end());
  return {butterfly::testing::run(w.dir, argv, env)};
}

// The bundled ap corpus (2,246 documents), held out and evaluated so that every gathered
// partial sum (log-likelihood and perplexity) is exercised.
std::vector<std::string> ap_run(const std::string& out) {
  return {"train",   "--topics",  "10",  "--iterations",     "5", "--eval-every",
          "2",       "--holdout", "0.1", "--fold-in-sweeps", "4", "--npy",
          "--quiet", "--out",     out};
}

// ap at K = 8 for `iterations`, evaluated (with held-out documents) every `eval_every` and
// checkpointed every `every` iterations, into `out`.
std::vector<std::string> checkpointed_run(const std::string& iterations,
                                          const std::string& eval_every, const std::string& every,
                                          const std::string& out) {
  return {"train",
          "--npy",
          "--topics",
          "8",
          "--iterations",
          iterations,
          "--eval-every",
          eval_every,
          "--holdout",
          "0.05",
          "--fold-in-sweeps",
          "4",
          "--checkpoint-every",
          every,
          "--quiet",
          "--out",
          out};
}

// A model's files: its counts where it is made from z, phi.npy and theta.npy where it is held
// (or with --npy), and the rest.
const char* const model_files[] = {
    "word-topic-counts.txt", "doc-topic-counts.txt", "phi.npy",   "theta.npy",
    "metrics.jsonl",         "topics.txt",           "model.json"};

// Each of model_files in w's folder `expected` (a model among them) is in folder `out`, the
// same non-empty file, and `out` has no other.
void check_same_model(const workspace& w, const std::string& expected, const std::string& out) {
  CHECK((fs::exists(w.path(expected + "/word-topic-counts.txt")) ||
         fs::exists(w.path(expected + "/phi.npy"))));
  for (const char* f : model_files) {
    CAPTURE(f);
    const bool there = fs::exists(w.path(expected + "/") + f);
    CHECK(fs::exists(w.path(out + "/") + f) == there);
    if (!there) continue;
    const std::string want = slurp(w.path(expected + "/") + f);
    CHECK(!want.empty());
    CHECK(slurp(w.path(out + "/") + f) == want);
  }
}

}  // namespace

TEST_CASE("mpi: mpiexec -np 2 and -np 3 write the bytes of -np 1", "[mpi][cli]") {
  workspace w;
  const auto one = mpi_run(w, 1, ap_run("np1"));
  REQUIRE(one.o.exit_code == 0);
  for (int ranks : {2, 3}) {
    CAPTURE(ranks);
    const std::string out = "np" + std::to_string(ranks);
    const auto r = mpi_run(w, ranks, ap_run(out));
    INFO(r.o.err);
    REQUIRE(r.o.exit_code == 0);
    CHECK(r.o.out == one.o.out);  // topics and final log-likelihood printed once, by rank 0
    check_same_model(w, "np1", out);
  }
}

// The collapsed and mh estimators' sweeps read the word counts summed over the ranks (mh also
// the whole corpus's list of each word's topics), and a burn-in of mean iterations before
// them: the bytes of one rank too. With --sweep-blocks the blocks cut across the ranks' shards
// and the counts are summed again before each block.
TEST_CASE(
    "mpi: --estimator collapsed, mh and collapsed in sweep blocks under mpiexec -np 2 write the "
    "bytes of -np 1",
    "[mpi][cli]") {
  const auto how = GENERATE(values<std::vector<std::string>>(
      {{"--estimator", "collapsed", "--burn-in", "2"},
       {"--estimator", "mh", "--burn-in", "2"},
       {"--estimator", "collapsed", "--burn-in", "2", "--sweep-blocks", "3"}}));
  CAPTURE(how);
  workspace w;
  auto one_run = ap_run("c1"), two_run = ap_run("c2");
  one_run.insert(one_run.end(), how.begin(), how.end());
  two_run.insert(two_run.end(), how.begin(), how.end());
  const auto one = mpi_run(w, 1, one_run);
  REQUIRE(one.o.exit_code == 0);
  const auto two = mpi_run(w, 2, two_run);
  INFO(two.o.err);
  REQUIRE(two.o.exit_code == 0);
  CHECK(two.o.out == one.o.out);
  check_same_model(w, "c1", "c2");
}

TEST_CASE("mpi: a checkpoint written by 2 ranks resumes under 3 ranks, byte-identical",
          "[mpi][cli]") {
  workspace w;
  const auto with_out = [](const std::string& out) { return checkpointed_run("6", "2", "3", out); };
  REQUIRE(mpi_run(w, 1, with_out("straight")).o.exit_code == 0);
  const auto killed = mpi_run(w, 2, with_out("resumed"), {"BUTTERFLY_TEST_KILL=after-checkpoint:3"},
                              BUTTERFLY_LDA_FAULTS_PROGRAM);
  REQUIRE(killed.o.exit_code != 0);
  REQUIRE(fs::exists(w.path("resumed/checkpoint.bin")));
  REQUIRE(!fs::exists(w.path("resumed/word-topic-counts.txt")));
  const auto resumed = mpi_run(w, 3, {"train", "--resume", "resumed", "--npy", "--quiet"});
  INFO(resumed.o.err);
  REQUIRE(resumed.o.exit_code == 0);
  check_same_model(w, "straight", "resumed");
  CHECK(slurp(w.path("resumed/checkpoint.bin")) == slurp(w.path("straight/checkpoint.bin")));
}

// A model pooled over the last sweeps (the default --average 4 of a 100-iteration run): the
// pooled word counts are summed over the ranks, the kept sweeps gathered into the checkpoint
// (taken inside the window by 2 ranks, resumed by 3): the bytes of one rank.
TEST_CASE("mpi: a pooled model under -np 2, and its checkpoint resumed under -np 3, are -np 1's",
          "[mpi][cli]") {
  workspace w;
  const auto with_out = [](const std::string& out) {
    return checkpointed_run("100", "50", "5", out);
  };
  REQUIRE(mpi_run(w, 1, with_out("straight")).o.exit_code == 0);
  const auto two = mpi_run(w, 2, with_out("two"));
  INFO(two.o.err);
  REQUIRE(two.o.exit_code == 0);
  const auto killed =
      mpi_run(w, 2, with_out("resumed"), {"BUTTERFLY_TEST_KILL=after-checkpoint:95"},
              BUTTERFLY_LDA_FAULTS_PROGRAM);
  REQUIRE(killed.o.exit_code != 0);
  const auto resumed = mpi_run(w, 3, {"train", "--resume", "resumed", "--npy", "--quiet"});
  INFO(resumed.o.err);
  REQUIRE(resumed.o.exit_code == 0);
  CHECK_THAT(slurp(w.path("straight/model.json")), Catch::Contains("\"counted_sweeps\": 4"));
  check_same_model(w, "straight", "two");
  check_same_model(w, "straight", "resumed");
  const std::string checkpoint = slurp(w.path("straight/checkpoint.bin"));
  CHECK(slurp(w.path("two/checkpoint.bin")) == checkpoint);
  CHECK(slurp(w.path("resumed/checkpoint.bin")) == checkpoint);
}

TEST_CASE("mpi: bad input read by every rank ends the job with the message", "[mpi][cli]") {
  workspace w;
  std::ofstream(w.path("docword.bad.txt")) << "3\n5\n4\n1 1 2\n1 7 1\n2 2 1\n3 1 1\n";
  const auto r =
      mpi_run(w, 2, {"train", "--corpus", "docword.bad.txt", "--quiet", "--out", "model"});
  CHECK(r.o.exit_code == 1);
  CHECK_THAT(r.o.err, Catch::Contains("docword.bad.txt:5: wordID 7 is out of range"));
  CHECK_THAT(r.o.err, Catch::Contains("(rank "));
  CHECK(!fs::exists(w.path("model/word-topic-counts.txt")));
}

// The phased estimator's word phase needs every token of a word, which the ranks' shards split:
// each rank runs its own words on every token's topics summed over the ranks (phased_unit.cpp).
// 200 documents of 400 tokens over 3 ranks' shards make the default collapsed's first sweeps
// phased's (lda::default_phased_sweeps); --phased-sweeps 2 of 4 iterations switches to
// collapsed's sweep under the ranks: the bytes of one rank each time.
TEST_CASE(
    "mpi: the phased estimator, and collapsed's phased sweeps given or the default for long "
    "documents, under -np 2 and -np 3 write the bytes of -np 1",
    "[mpi][cli]") {
  workspace w;
  {
    std::ofstream f(w.path("docword.long.txt"));
    f << "200\n50\n600\n";
    // Words m, m + 17, m + 33 (mod 50) with 150, 130 and 120 tokens, in word order (UCI).
    for (int m = 1; m <= 200; ++m)
      for (int w = 1; w <= 50; ++w) {
        const int shift = (w - 1 - m % 50 + 50) % 50;
        if (shift == 0 || shift == 17 || shift == 33)
          f << m << " " << w << " " << (shift == 0 ? 150 : shift == 17 ? 130 : 120) << "\n";
      }
  }
  const auto how = GENERATE(
      values<std::vector<std::string>>({{"--estimator", "phased"}, {"--phased-sweeps", "2"}, {}}));
  CAPTURE(how);
  const auto run = [&](const std::string& out) {
    std::vector<std::string> args{
        "train",        "--corpus", "docword.long.txt", "--topics", "4", "--iterations", "4",
        "--eval-every", "2",        "--quiet",          "--out",    out};
    args.insert(args.end(), how.begin(), how.end());
    return args;
  };
  const auto one = mpi_run(w, 1, run("p1"));
  INFO(one.o.err);
  REQUIRE(one.o.exit_code == 0);
  const std::string recorded = how.empty()               ? "\"phased_sweeps\": 50"
                               : how[0] == "--estimator" ? "\"estimator\": \"phased\""
                                                         : "\"phased_sweeps\": 2";
  CHECK_THAT(slurp(w.path("p1/model.json")), Catch::Contains(recorded));
  for (int ranks : {2, 3}) {
    CAPTURE(ranks);
    const std::string out = "p" + std::to_string(ranks);
    const auto r = mpi_run(w, ranks, run(out));
    INFO(r.o.err);
    REQUIRE(r.o.exit_code == 0);
    CHECK(r.o.out == one.o.out);
    check_same_model(w, "p1", out);
  }
}

TEST_CASE("mpi: a failure on rank 0 alone ends the ranks waiting for it", "[mpi][cli]") {
  workspace w;
  std::ofstream(w.path("not-a-directory")) << "x";
  // Only rank 0 creates the output directory; the other ranks go on into the first
  // MPI_Allreduce and wait there.
  const auto r = mpi_run(
      w, 3,
      {"train", "--topics", "5", "--iterations", "3", "--quiet", "--out", "not-a-directory/model"});
  CHECK(r.o.exit_code == 1);
  CHECK_THAT(r.o.err,
             Catch::Contains("butterfly-lda (rank 0 of 3): error: cannot create output directory"));
}

TEST_CASE("mpi: a rank that runs out of memory ends the job with the message", "[mpi][cli]") {
  workspace w;
  const auto r =
      mpi_run(w, 3, {"train", "--topics", "5", "--iterations", "3", "--quiet", "--out", "model"},
              {"BUTTERFLY_TEST_FAIL_RANK=1"}, BUTTERFLY_LDA_FAULTS_PROGRAM);
  CHECK(r.o.exit_code == 1);
  CHECK_THAT(r.o.err, Catch::Contains("butterfly-lda (rank 1 of 3): error: out of memory"));
  CHECK(!fs::exists(w.path("model/word-topic-counts.txt")));
}

TEST_CASE("mpi: a bad command line exits 2 under mpiexec too, and only train is distributed",
          "[mpi][cli]") {
  workspace w;
  const auto bad = mpi_run(w, 2, {"train", "--topics", "0"});
  CHECK(bad.o.exit_code == 2);
  CHECK_THAT(bad.o.err, Catch::Contains("--topics: Value 0 not in range"));
  const auto topics = mpi_run(w, 2, {"topics", "--model", "nowhere"});
  CHECK(topics.o.exit_code == 2);
  CHECK_THAT(topics.o.err, Catch::Contains("only train runs on several MPI processes"));
}
