// End-to-end tests of the butterfly-lda program: outputs, determinism, kill-and-resume,
// corrupted checkpoints, bad arguments and bad input files.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "butterfly/io/npy.hpp"
#include "process.hpp"
#include "synthetic.hpp"

namespace fs = std::filesystem;
using butterfly::testing::outcome;
using butterfly::testing::run;
using butterfly::testing::slurp;

namespace {

// A fresh directory holding a small UCI corpus drawn from a known LDA model (6 topics,
// 150 words, 120 documents of 40 tokens), removed at the end of the test.
struct workspace {
  std::string dir;
  workspace() {
    std::string templ = (fs::temp_directory_path() / "butterfly-cli-XXXXXX").string();
    dir = ::mkdtemp(templ.data());
    const auto c = butterfly::lda::testing::make_synthetic(6, 150, 120, 40, 0.2, 0.05, 99);
    write_uci(dir + "/docword.small.txt", c.docs);
    std::ofstream vocab(dir + "/vocab.small.txt");
    for (int w = 0; w < 150; ++w) vocab << "word" << w << "\n";
  }
  ~workspace() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return dir + "/" + name; }

  static void write_uci(const std::string& path, const butterfly::lda::document_set& d) {
    std::vector<std::map<int, int>> counts(d.doc_offsets.size() - 1);
    std::size_t nnz = 0;
    for (std::size_t m = 0; m + 1 < d.doc_offsets.size(); ++m) {
      for (auto t = d.doc_offsets[m]; t < d.doc_offsets[m + 1]; ++t) ++counts[m][d.words[t]];
      nnz += counts[m].size();
    }
    std::ofstream out(path);
    out << counts.size() << "\n" << d.vocab_size << "\n" << nnz << "\n";
    for (std::size_t m = 0; m < counts.size(); ++m)
      for (const auto& [w, n] : counts[m]) out << m + 1 << " " << w + 1 << " " << n << "\n";
  }
};

const std::vector<std::string> output_files = {"phi.npy", "theta.npy", "topics.txt", "vocab.txt",
                                               "metrics.jsonl", "model.json"};

std::vector<std::string> small_run(const workspace& ws, const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"train", "--docword", ws.path("docword.small.txt"), "--vocab",
                                ws.path("vocab.small.txt"), "--topics", "6", "--iterations", "12",
                                "--eval-every", "2", "--holdout", "0.1", "--fold-in-sweeps", "4",
                                "--seed", "5", "--quiet", "--out", out};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

void check_same_outputs(const std::string& a, const std::string& b) {
  for (const auto& f : output_files) {
    CAPTURE(f);
    REQUIRE(fs::exists(a + "/" + f));
    REQUIRE(fs::exists(b + "/" + f));
    CHECK(slurp(a + "/" + f) == slurp(b + "/" + f));
  }
}

int count_lines(const std::string& text) {
  int n = 0;
  for (char ch : text) n += ch == '\n';
  return n;
}

}  // namespace

TEST_CASE("cli: train writes well-formed outputs", "[cli]") {
  workspace ws;
  const auto r = run(ws.dir, small_run(ws, "model"));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto phi = butterfly::io::read_npy(ws.path("model/phi.npy"));
  CHECK(phi.rows == 150);
  CHECK(phi.cols == 6);
  for (int k = 0; k < 6; ++k) {
    double sum = 0;
    for (int w = 0; w < 150; ++w) sum += phi.data[w * 6 + k];
    CHECK(sum == Approx(1.0).epsilon(1e-4));
  }
  const auto theta = butterfly::io::read_npy(ws.path("model/theta.npy"));
  CHECK(theta.rows == 120 - 12);  // 10 % of the documents held out
  CHECK(theta.cols == 6);
  const std::string topics = slurp(ws.path("model/topics.txt"));
  CHECK(count_lines(topics) == 6);
  CHECK(topics.rfind("topic 0: word", 0) == 0);
  const std::string metrics = slurp(ws.path("model/metrics.jsonl"));
  CHECK(count_lines(metrics) == 6);  // iterations 2, 4, ..., 12
  CHECK(metrics.rfind("{\"iteration\": 2, \"log_likelihood\": -", 0) == 0);
  CHECK(metrics.find("\"heldout_perplexity\": ") != std::string::npos);
  const std::string model = slurp(ws.path("model/model.json"));
  for (const char* field : {"\"topics\": 6", "\"seed\": 5", "\"iterations\": 12", "\"algorithm\": \"butterfly\"",
                            "\"backend\": ", "\"version\": ", "\"corpus_checksum\": \"", "\"alpha\": 0.1"})
    CHECK_THAT(model, Catch::Contains(field));
  CHECK_THAT(r.out, Catch::Contains("held-out perplexity"));
  CHECK(count_lines(slurp(ws.path("model/vocab.txt"))) == 150);

  SECTION("topics and infer read the model") {
    const auto t = run(ws.dir, {"topics", "--model", "model", "--top-words", "3"});
    REQUIRE(t.exit_code == 0);
    CHECK(count_lines(t.out) == 6);
    const auto i = run(ws.dir, {"infer", "--model", "model", "--docword", "docword.small.txt", "--vocab",
                                "vocab.small.txt", "--out", "new-theta.npy", "--sweeps", "6"});
    INFO(i.err);
    REQUIRE(i.exit_code == 0);
    const auto th = butterfly::io::read_npy(ws.path("new-theta.npy"));
    CHECK(th.rows == 120);
    CHECK(th.cols == 6);
    for (int m = 0; m < 120; ++m) {
      double sum = 0;
      for (int k = 0; k < 6; ++k) sum += th.data[m * 6 + k];
      CHECK(sum == Approx(1.0).epsilon(1e-4));
    }
  }
}

TEST_CASE("cli: the same seed gives byte-identical output files, another seed does not", "[cli]") {
  workspace ws;
  REQUIRE(run(ws.dir, small_run(ws, "a")).exit_code == 0);
  REQUIRE(run(ws.dir, small_run(ws, "b")).exit_code == 0);
  check_same_outputs(ws.path("a"), ws.path("b"));
  REQUIRE(run(ws.dir, small_run(ws, "c", {"--algorithm", "basic"})).exit_code == 0);
  REQUIRE(run(ws.dir, small_run(ws, "d")).exit_code == 0);
  auto other = small_run(ws, "e");
  other[other.size() - 4] = "6";  // --seed 6
  REQUIRE(run(ws.dir, other).exit_code == 0);
  CHECK(slurp(ws.path("e/phi.npy")) != slurp(ws.path("a/phi.npy")));
}

// Each scenario kills the run (SIGKILL, through the BUTTERFLY_TEST_KILL hook) at one or
// more points, resumes it with --resume until it finishes, and compares every output file
// with an uninterrupted run's, byte for byte.
TEST_CASE("cli: a run killed at any point and resumed gives the uninterrupted run's files", "[cli]") {
  workspace ws;
  const std::vector<std::string> ckpt = {"--checkpoint-every", "3"};
  REQUIRE(run(ws.dir, small_run(ws, "reference", ckpt)).exit_code == 0);
  const std::vector<std::vector<std::string>> scenarios = {
      {"after-checkpoint:3"},
      {"mid-checkpoint:6"},
      {"after-iteration:8"},             // metrics.jsonl already holds iteration 8
      {"after-checkpoint:12"},           // finished iterating, outputs not written
      {"after-checkpoint:3", "mid-checkpoint:9", "after-iteration:11"},
  };
  int n = 0;
  for (const auto& kills : scenarios) {
    const std::string out = "killed" + std::to_string(n++);
    CAPTURE(out, kills[0]);
    auto r = run(ws.dir, small_run(ws, out, ckpt), {"BUTTERFLY_TEST_KILL=" + kills[0]});
    REQUIRE(r.signal == SIGKILL);
    for (std::size_t i = 1; i <= kills.size(); ++i) {
      const std::string hook = i < kills.size() ? "BUTTERFLY_TEST_KILL=" + kills[i] : "BUTTERFLY_TEST_KILL=";
      r = run(ws.dir, {"train", "--resume", out, "--quiet"}, {hook});
      INFO(r.err);
      if (i < kills.size()) REQUIRE(r.signal == SIGKILL);
      else REQUIRE(r.exit_code == 0);
    }
    check_same_outputs(ws.path("reference"), ws.path(out));
  }

  SECTION("killed before the first checkpoint: nothing to resume") {
    REQUIRE(run(ws.dir, small_run(ws, "early", ckpt), {"BUTTERFLY_TEST_KILL=mid-checkpoint:3"}).signal == SIGKILL);
    const auto r = run(ws.dir, {"train", "--resume", "early"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("early/checkpoint.bin") && Catch::Contains("cannot open"));
  }
}

TEST_CASE("cli: a corrupted checkpoint or a changed corpus is refused", "[cli]") {
  workspace ws;
  REQUIRE(run(ws.dir, small_run(ws, "m", {"--checkpoint-every", "6"})).exit_code == 0);
  const std::string ck = ws.path("m/checkpoint.bin");
  const std::string good = slurp(ck);
  auto write = [&](const std::string& bytes) { std::ofstream(ck, std::ios::binary) << bytes; };

  std::string flipped = good;
  flipped[flipped.size() / 3] ^= 1;
  write(flipped);
  auto r = run(ws.dir, {"train", "--resume", "m"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("checkpoint.bin") && Catch::Contains("checksum mismatch"));

  write(good.substr(0, good.size() / 2));
  r = run(ws.dir, {"train", "--resume", "m"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("checksum mismatch"));

  write(good);
  REQUIRE(run(ws.dir, {"train", "--resume", "m", "--quiet"}).exit_code == 0);
  // Same file name, different documents: the checkpoint no longer belongs to the corpus.
  std::string docword = slurp(ws.path("docword.small.txt"));
  const auto last = docword.rfind(' ');
  docword[last + 1] = docword[last + 1] == '1' ? '2' : '1';
  std::ofstream(ws.path("docword.small.txt"), std::ios::binary) << docword;
  r = run(ws.dir, {"train", "--resume", "m"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("different corpus"));
}

TEST_CASE("cli: bad arguments exit with code 2 and name the argument", "[cli]") {
  workspace ws;
  const std::string docword = ws.path("docword.small.txt");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"train", "--bogus", "1"}, "--bogus"},
      {{"train", "--topics", "0"}, "--topics"},
      {{"train", "--topics", "many"}, "--topics"},
      {{"train", "--alpha", "-1"}, "--alpha"},
      {{"train", "--beta", "nan"}, "--beta"},
      {{"train", "--holdout", "1.5"}, "--holdout"},
      {{"train", "--algorithm", "quick"}, "--algorithm"},
      {{"train", "--iterations"}, "--iterations"},
      {{"train", "--corpus-format", "xml", "--corpus", docword}, "--corpus-format"},
      {{"train", "--resume", "x", "--topics", "3"}, "--resume"},
      {{"train", "--seed", "1", "--seed", "2"}, "--seed"},
      {{"topics"}, "--model"},
      {{"infer", "--model", "x"}, "--corpus"},
      {{"frobnicate"}, "frobnicate"},
      {{}, "command"},
  };
  for (const auto& [args, named] : cases) {
    CAPTURE(args.empty() ? std::string() : args.back());
    const auto r = run(ws.dir, args);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(named));
  }
  const auto help = run(ws.dir, {"train", "--help"});
  CHECK(help.exit_code == 0);
  for (const char* s : {"--topics K", "(default: 20)", "--alpha A", "(default: 0.1)", "--checkpoint-every N",
                        "--resume DIR", "--holdout FRACTION", "--corpus-format", "--eval-every N"})
    CHECK_THAT(help.out, Catch::Contains(s));
}

TEST_CASE("cli: bad input files exit with code 1, name file and line, and write nothing", "[cli]") {
  workspace ws;
  std::ofstream(ws.path("docword.bad.txt")) << "2\n3\n2\n1 1 2\n1 x 1\n";
  auto r = run(ws.dir, {"train", "--docword", "docword.bad.txt", "--out", "bad", "--quiet"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("docword.bad.txt:5"));
  CHECK_FALSE(fs::exists(ws.path("bad/phi.npy")));
  r = run(ws.dir, {"train", "--docword", "missing.txt", "--out", "bad", "--quiet"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("missing.txt"));
}

TEST_CASE("cli: without a corpus, train uses the bundled ap corpus", "[cli]") {
  workspace ws;
  const auto r = run(ws.dir, {"train", "--topics", "4", "--iterations", "2", "--quiet", "--out", "ap"},
                     {"BUTTERFLY_DATA_DIR="});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(count_lines(r.out) >= 4);
  CHECK_THAT(slurp(ws.path("ap/model.json")), Catch::Contains("\"corpus_documents\": 2246"));
  const auto missing = run(ws.dir, {"train", "--quiet"}, {"BUTTERFLY_DATA_DIR=" + ws.path("nowhere")});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("BUTTERFLY_DATA_DIR"));
}
