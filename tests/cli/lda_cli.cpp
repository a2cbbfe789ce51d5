// End-to-end tests of the butterfly-lda program: outputs, determinism, kill-and-resume
// (with butterfly-lda-faults, the same program with failure hooks), corrupted checkpoints,
// reading model.json, bad arguments and bad input files.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/io/npy.hpp"
#include "butterfly/io/topic_counts_file.hpp"
#include "butterfly/lda/checkpoint.hpp"
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

// The files of a model directory besides the checkpoint: the model (its counts where it is
// made from z, else phi.npy and theta.npy; both with --npy), topics.txt, vocab.txt,
// metrics.jsonl, model.json. A checkpoint's temporary that a kill left is listed: the resumed
// run's next checkpoint removes it (io::write_atomic).
std::set<std::string> output_files(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name != "checkpoint.bin") names.insert(name);
  }
  return names;
}

// The file that holds a run's phi: its word-topic counts, or phi.npy.
std::string phi_bytes(const std::string& dir) {
  return fs::exists(dir + "/word-topic-counts.txt") ? slurp(dir + "/word-topic-counts.txt")
                                                    : slurp(dir + "/phi.npy");
}

std::vector<std::string> small_run(const workspace& ws, const std::string& out,
                                   std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"train",
                                "--docword",
                                ws.path("docword.small.txt"),
                                "--vocab",
                                ws.path("vocab.small.txt"),
                                "--topics",
                                "6",
                                "--iterations",
                                "12",
                                "--eval-every",
                                "2",
                                "--holdout",
                                "0.1",
                                "--fold-in-sweeps",
                                "4",
                                "--seed",
                                "5",
                                "--quiet",
                                "--out",
                                out};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

void check_same_outputs(const std::string& a, const std::string& b) {
  const std::set<std::string> files = output_files(a);
  REQUIRE(files.count("model.json") == 1);
  REQUIRE(files.count("topics.txt") == 1);
  REQUIRE(files.count("word-topic-counts.txt") + files.count("phi.npy") > 0);
  CHECK(output_files(b) == files);
  for (const auto& f : files) {
    CAPTURE(f);
    CHECK(slurp(a + "/" + f) == slurp(b + "/" + f));
  }
}

// small_run(how) killed (butterfly-lda-faults) after its checkpoint at iteration `at`, then
// resumed: the files of the run straight through, already written to `straight`.
void check_resumed_as(const workspace& ws, const std::string& straight,
                      const std::vector<std::string>& how, int at) {
  const std::string faults = BUTTERFLY_LDA_FAULTS_EXE;
  REQUIRE(run(ws.dir, small_run(ws, "killed", how),
              {"BUTTERFLY_TEST_KILL=after-checkpoint:" + std::to_string(at)}, faults)
              .signal == SIGKILL);
  REQUIRE(run(ws.dir, {"train", "--resume", "killed", "--quiet"}).exit_code == 0);
  check_same_outputs(ws.path(straight), ws.path("killed"));
}

int count_lines(const std::string& text) {
  int n = 0;
  for (char ch : text) n += ch == '\n';
  return n;
}

}  // namespace

namespace {

// The counts' rows as a dense matrix (rows x K).
std::vector<double> dense(const butterfly::io::topic_count_rows& rows, int K) {
  std::vector<double> n(static_cast<std::size_t>(rows.rows() * K));
  for (std::int64_t r = 0; r < rows.rows(); ++r)
    for (auto i = rows.offsets[r]; i < rows.offsets[r + 1]; ++i)
      n[r * K + rows.entries[i].topic] = static_cast<double>(rows.entries[i].count);
  return n;
}

}  // namespace

TEST_CASE("cli: train writes well-formed outputs", "[cli]") {
  workspace ws;
  const auto r = run(ws.dir, small_run(ws, "model", {"--npy"}));
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
  // The counts files hold the same model: the sampler's theta and phi (made on the backend)
  // are the posterior means of these counts (added on the host from z), S = 1 here (12
  // iterations pool nothing).
  const auto words = butterfly::io::read_topic_counts(ws.path("model/word-topic-counts.txt"), 6);
  const auto documents = butterfly::io::read_topic_counts(ws.path("model/doc-topic-counts.txt"), 6);
  REQUIRE(words.rows() == 150);
  REQUIRE(documents.rows() == 108);
  CHECK(words.names[7] == "word7");
  const std::vector<double> n_wk = dense(words, 6), n_mk = dense(documents, 6);
  double tokens = 0;
  for (const double n : n_mk) tokens += n;
  CHECK(tokens == Approx(std::accumulate(n_wk.begin(), n_wk.end(), 0.0)));
  for (int k = 0; k < 6; ++k) {
    double n_k = 0;
    for (int w = 0; w < 150; ++w) n_k += n_wk[w * 6 + k];
    for (int w = 0; w < 150; ++w)
      CHECK(phi.data[w * 6 + k] ==
            Approx((n_wk[w * 6 + k] + 0.01) / (n_k + 150 * 0.01)).epsilon(1e-6));
  }
  std::vector<int> held;  // the documents' places not in doc-topic-counts.txt
  for (std::int64_t m = 0, place = 1; m < 108; ++m, ++place) {
    while (documents.names[m] != std::to_string(place)) held.push_back(static_cast<int>(place++));
    double length = 0;
    for (int k = 0; k < 6; ++k) length += n_mk[m * 6 + k];
    for (int k = 0; k < 6; ++k)
      CHECK(theta.data[m * 6 + k] ==
            Approx((n_mk[m * 6 + k] + 0.1) / (length + 6 * 0.1)).epsilon(1e-6));
  }
  CHECK(held.size() + (120 - std::stoi(documents.names[107])) == 12);
  CHECK(nlohmann::json::parse(slurp(ws.path("model/model.json"))).at("counted_sweeps") == 1);
  // Without --npy the counts alone, the same bytes.
  REQUIRE(run(ws.dir, small_run(ws, "counts")).exit_code == 0);
  CHECK(output_files(ws.path("counts")).count("phi.npy") == 0);
  CHECK(output_files(ws.path("counts")).count("theta.npy") == 0);
  for (const char* f : {"word-topic-counts.txt", "doc-topic-counts.txt", "topics.txt"})
    CHECK(slurp(ws.path(std::string("counts/") + f)) == slurp(ws.path(std::string("model/") + f)));
  const std::string topics = slurp(ws.path("model/topics.txt"));
  CHECK(count_lines(topics) == 6);
  CHECK(topics.rfind("topic 0: word", 0) == 0);
  const std::string metrics = slurp(ws.path("model/metrics.jsonl"));
  CHECK(count_lines(metrics) == 6);  // iterations 2, 4, ..., 12
  std::istringstream lines(metrics);
  int iteration = 2;
  double last_log_likelihood = 0;
  for (std::string line; std::getline(lines, line); iteration += 2) {
    const auto record = nlohmann::json::parse(line);
    CHECK(record.at("iteration") == iteration);
    last_log_likelihood = record.at("log_likelihood").get<double>();
    CHECK(last_log_likelihood < 0);
    CHECK(record.at("heldout_perplexity").get<double>() > 1);
  }
  char printed[64];
  std::snprintf(printed, sizeof printed, "log-likelihood after 12 iterations: %.6e",
                last_log_likelihood);
  CHECK_THAT(r.out, Catch::Contains(printed));
  const auto model = nlohmann::json::parse(slurp(ws.path("model/model.json")));
  CHECK(model.at("format") == "butterfly-lda model");
  CHECK(model.at("topics") == 6);
  CHECK(model.at("seed") == 5);
  CHECK(model.at("iterations") == 12);
  CHECK(model.at("algorithm") == "butterfly");
  CHECK(model.at("alpha").get<double>() == 0.1);  // the same double as the default
  CHECK(model.at("beta").get<double>() == 0.01);
  CHECK(model.at("holdout").get<double>() == 0.1);
  CHECK(model.at("corpus_documents") == 120);
  CHECK(model.at("training_documents") == 108);
  CHECK(model.at("heldout_documents") == 12);
  CHECK(model.at("vocabulary") == 150);
  CHECK(model.at("corpus_checksum").get<std::string>().size() == 16);
  CHECK(model.at("backend").is_string());
  CHECK(model.at("version").is_string());
  CHECK_THAT(r.out, Catch::Contains("held-out perplexity"));
  CHECK(count_lines(slurp(ws.path("model/vocab.txt"))) == 150);

  SECTION("topics and infer read the model") {
    const auto t = run(ws.dir, {"topics", "--model", "model", "--top-words", "3"});
    REQUIRE(t.exit_code == 0);
    CHECK(count_lines(t.out) == 6);
    const auto i =
        run(ws.dir, {"infer", "--model", "model", "--docword", "docword.small.txt", "--vocab",
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
    // The model read from phi.npy alone: the phi the counts give, the same bits, so the same
    // theta and topics.
    fs::create_directory(ws.path("npy-only"));
    for (const char* f : {"phi.npy", "theta.npy", "vocab.txt", "model.json"})
      fs::copy_file(ws.path(std::string("model/") + f), ws.path(std::string("npy-only/") + f));
    REQUIRE(run(ws.dir, {"infer", "--model", "npy-only", "--docword", "docword.small.txt",
                         "--vocab", "vocab.small.txt", "--out", "npy-theta.npy", "--sweeps", "6"})
                .exit_code == 0);
    CHECK(slurp(ws.path("npy-theta.npy")) == slurp(ws.path("new-theta.npy")));
    CHECK(run(ws.dir, {"topics", "--model", "npy-only", "--top-words", "3"}).out == t.out);
  }
}

TEST_CASE("cli: the same seed gives byte-identical output files, another seed does not", "[cli]") {
  workspace ws;
  REQUIRE(run(ws.dir, small_run(ws, "a")).exit_code == 0);
  REQUIRE(run(ws.dir, small_run(ws, "b")).exit_code == 0);
  check_same_outputs(ws.path("a"), ws.path("b"));
  // A third run of the same command: still the same bytes (nothing left over from a or b).
  REQUIRE(run(ws.dir, small_run(ws, "d")).exit_code == 0);
  check_same_outputs(ws.path("a"), ws.path("d"));
  // Another algorithm draws another chain (its sums round differently) but the same model
  // statistically: model.json names it, and its final training log-likelihood is within 2%.
  // (The algorithm draws z for mean and sample; the default, collapsed, draws without it.)
  REQUIRE(
      run(ws.dir, small_run(ws, "c", {"--algorithm", "basic", "--estimator", "mean"})).exit_code ==
      0);
  REQUIRE(run(ws.dir, small_run(ws, "m", {"--estimator", "mean"})).exit_code == 0);
  CHECK(nlohmann::json::parse(slurp(ws.path("c/model.json"))).at("algorithm") == "basic");
  CHECK(nlohmann::json::parse(slurp(ws.path("m/model.json"))).at("algorithm") == "butterfly");
  const auto final_ll = [&](const std::string& dir) {
    double ll = 0;
    std::istringstream lines(slurp(ws.path(dir + "/metrics.jsonl")));
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) ll = nlohmann::json::parse(line).at("log_likelihood").get<double>();
    return ll;
  };
  CHECK(final_ll("c") < 0);
  CHECK(final_ll("c") == Approx(final_ll("m")).epsilon(0.02));
  auto other = small_run(ws, "e");
  other[other.size() - 4] = "6";  // --seed 6
  REQUIRE(run(ws.dir, other).exit_code == 0);
  CHECK(phi_bytes(ws.path("e")) != phi_bytes(ws.path("a")));
}

// Each scenario kills the run (SIGKILL, butterfly-lda-faults with BUTTERFLY_TEST_KILL) at
// one or more points, resumes it with --resume until it finishes (the last resume by
// butterfly-lda itself), and compares every output file with an uninterrupted run's, byte
// for byte.
TEST_CASE("cli: a run killed at any point and resumed gives the uninterrupted run's files",
          "[cli]") {
  workspace ws;
  const std::string faults = BUTTERFLY_LDA_FAULTS_EXE;
  const std::vector<std::string> ckpt = {"--checkpoint-every", "3"};
  REQUIRE(run(ws.dir, small_run(ws, "reference", ckpt)).exit_code == 0);
  // The default chain (collapsed, no burn-in) makes theta and phi from z: its checkpoints
  // hold z alone, and the resumed runs below start from that.
  const auto held = butterfly::lda::load_checkpoint(ws.path("reference/checkpoint.bin"));
  CHECK(held.s.theta.empty());
  CHECK(held.s.phi.empty());
  CHECK(held.s.z.size() > 0);
  const std::vector<std::vector<std::string>> scenarios = {
      {"after-checkpoint:3"},
      {"mid-checkpoint:6"},
      {"after-iteration:8"},    // metrics.jsonl already holds iteration 8
      {"after-checkpoint:12"},  // finished iterating, outputs not written
      {"after-checkpoint:3", "mid-checkpoint:9", "after-iteration:11"},
  };
  int n = 0;
  for (const auto& kills : scenarios) {
    const std::string out = "killed" + std::to_string(n++);
    CAPTURE(out, kills[0]);
    auto r = run(ws.dir, small_run(ws, out, ckpt), {"BUTTERFLY_TEST_KILL=" + kills[0]}, faults);
    REQUIRE(r.signal == SIGKILL);
    for (std::size_t i = 1; i < kills.size(); ++i) {
      r = run(ws.dir, {"train", "--resume", out, "--quiet"}, {"BUTTERFLY_TEST_KILL=" + kills[i]},
              faults);
      REQUIRE(r.signal == SIGKILL);
    }
    r = run(ws.dir, {"train", "--resume", out, "--quiet"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    check_same_outputs(ws.path("reference"), ws.path(out));
  }

  SECTION("killed before the first checkpoint: nothing to resume") {
    REQUIRE(
        run(ws.dir, small_run(ws, "early", ckpt), {"BUTTERFLY_TEST_KILL=mid-checkpoint:3"}, faults)
            .signal == SIGKILL);
    const auto r = run(ws.dir, {"train", "--resume", "early"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("early/checkpoint.bin") && Catch::Contains("cannot open"));
  }

  SECTION("a misspelt kill point is refused, not ignored") {
    const auto r =
        run(ws.dir, small_run(ws, "typo", ckpt), {"BUTTERFLY_TEST_KILL=after-iteratoin:3"}, faults);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("after-iteratoin:3"));
  }
}

// The options a resumed run takes from its checkpoint include --estimator and --width (the
// defaults are collapsed and the native width; another estimator is the one to carry over, and
// a width the backend supports other than its native one: 4 on the host backends; a backend
// with one width, CUDA's 32, can only pass its native width).
TEST_CASE(
    "cli: --estimator sample and --width survive kill and resume and are written to model.json",
    "[cli]") {
  workspace ws;
  int width = butterfly::default_width();
  for (int w : butterfly::supported_widths())
    if (w != butterfly::default_width()) {
      width = w;
      break;
    }
  const std::vector<std::string> how = {
      "--checkpoint-every", "3", "--estimator", "sample", "--width", std::to_string(width)};
  REQUIRE(run(ws.dir, small_run(ws, "default")).exit_code == 0);
  REQUIRE(run(ws.dir, small_run(ws, "sample", how)).exit_code == 0);
  check_resumed_as(ws, "sample", how, 6);
  // sample's model is its drawn theta and phi, the default's its counts.
  CHECK(output_files(ws.path("sample")).count("phi.npy") == 1);
  CHECK(output_files(ws.path("sample")).count("word-topic-counts.txt") == 0);
  CHECK(output_files(ws.path("default")).count("phi.npy") == 0);
  const auto model = nlohmann::json::parse(slurp(ws.path("sample/model.json")));
  CHECK(model.at("estimator") == "sample");
  CHECK(model.at("width") == width);
  const auto defaults = nlohmann::json::parse(slurp(ws.path("default/model.json")));
  CHECK(defaults.at("estimator") == "collapsed");
  CHECK(defaults.at("width") == butterfly::default_width());
  // About 108 training documents for 6 topics, 16-127 per topic: lda::default_start_topics.
  CHECK(defaults.at("start_topics") == 4);
  CHECK(defaults.at("sweep_blocks") == 1);
}
// The default model of a run of 100 iterations pools the sweeps 88, 92 and 96 with the last
// (--average 4): checkpoints inside that window hold the kept sweeps, and a run killed there
// and resumed writes the uninterrupted run's files; --average 1 writes the last sweep's model.
TEST_CASE(
    "cli: a model pooled over the run's last sweeps survives kill and resume inside the window",
    "[cli]") {
  workspace ws;
  const std::string faults = BUTTERFLY_LDA_FAULTS_EXE;
  auto hundred = [&](const std::string& out, std::vector<std::string> extra) {
    auto a = small_run(ws, out, std::move(extra));
    a[std::find(a.begin(), a.end(), std::string("--iterations")) - a.begin() + 1] = "100";
    a[std::find(a.begin(), a.end(), std::string("--eval-every")) - a.begin() + 1] = "25";
    return a;
  };
  const std::vector<std::string> ckpt = {"--checkpoint-every", "5"};
  REQUIRE(run(ws.dir, hundred("straight", ckpt)).exit_code == 0);
  REQUIRE(run(ws.dir, hundred("last", {"--average", "1"})).exit_code == 0);
  const auto model = nlohmann::json::parse(slurp(ws.path("straight/model.json")));
  CHECK(model.at("average") == 4);
  CHECK(model.at("pooled_iterations") == nlohmann::json::array({88, 92, 96}));
  CHECK(nlohmann::json::parse(slurp(ws.path("last/model.json"))).at("pooled_iterations").empty());
  CHECK(slurp(ws.path("straight/word-topic-counts.txt")) !=
        slurp(ws.path("last/word-topic-counts.txt")));
  CHECK(slurp(ws.path("straight/doc-topic-counts.txt")) !=
        slurp(ws.path("last/doc-topic-counts.txt")));
  CHECK(model.at("counted_sweeps") == 4);
  // The final checkpoint holds the three kept sweeps, 16 bits a token.
  const auto held = butterfly::lda::load_checkpoint(ws.path("straight/checkpoint.bin"));
  CHECK(held.s.kept.size() == 3 * held.s.z.size());
  for (const std::string kill :
       {"after-checkpoint:90", "mid-checkpoint:95", "after-iteration:97"}) {
    CAPTURE(kill);
    const std::string out = "killed-" + kill.substr(kill.find(':') + 1);
    REQUIRE(run(ws.dir, hundred(out, ckpt), {"BUTTERFLY_TEST_KILL=" + kill}, faults).signal ==
            SIGKILL);
    const auto r = run(ws.dir, {"train", "--resume", out, "--quiet"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    check_same_outputs(ws.path("straight"), ws.path(out));
  }
}

// The collapsed and mh estimators with a burn-in, killed after their first sweeps and resumed
// (the checkpoint at iteration 6 holds z, and theta and phi computed from the counts only
// because they were asked for; the sweeps after it start from the counts of z again).
// collapsed and hybrid sweep in 2 blocks: the resumed run takes that from the checkpoint.
TEST_CASE(
    "cli: --estimator collapsed, mh and hybrid with --burn-in survive kill and resume across the "
    "switch",
    "[cli]") {
  const std::string estimator = GENERATE("collapsed", "mh", "hybrid");
  INFO("--estimator " << estimator);
  workspace ws;
  std::vector<std::string> how = {"--checkpoint-every", "3", "--estimator",    estimator,
                                  "--burn-in",          "4", "--start-topics", "3"};
  if (estimator != "mh") how.insert(how.end(), {"--sweep-blocks", "2"});
  REQUIRE(run(ws.dir, small_run(ws, "straight", how)).exit_code == 0);
  check_resumed_as(ws, "straight", how, 6);
  // With a burn-in the sampler holds theta and phi (the butterfly's draw reads them), and so
  // does its checkpoint.
  const auto held = butterfly::lda::load_checkpoint(ws.path("straight/checkpoint.bin"));
  CHECK(held.s.theta.size() > 0);
  CHECK(held.s.phi.size() > 0);
  const auto model = nlohmann::json::parse(slurp(ws.path("straight/model.json")));
  CHECK(model.at("estimator") == estimator);
  CHECK(model.at("burn_in") == 4);
  CHECK(model.at("start_topics") == 3);
  if (estimator != "mh") CHECK(model.at("sweep_blocks") == 2);
  else CHECK(!model.contains("sweep_blocks"));
}

// --phased-sweeps 5: the first sweeps in phased's phases, killed inside them (the checkpoint at
// iteration 3) and resumed across the switch to collapsed's sweeps, in 2 blocks; the same files
// as the run straight through, and model.json records the phased sweeps.
TEST_CASE("cli: --phased-sweeps survives kill and resume across the switch to collapsed's sweeps",
          "[cli]") {
  workspace ws;
  const std::vector<std::string> how = {"--checkpoint-every", "3", "--estimator",    "collapsed",
                                        "--phased-sweeps",    "5", "--sweep-blocks", "2"};
  REQUIRE(run(ws.dir, small_run(ws, "straight", how)).exit_code == 0);
  check_resumed_as(ws, "straight", how, 3);
  // Another chain than collapsed's own sweeps.
  REQUIRE(run(ws.dir, small_run(ws, "none",
                                {"--estimator", "collapsed", "--sweep-blocks", "2",
                                 "--phased-sweeps", "0"}))
              .exit_code == 0);
  CHECK(phi_bytes(ws.path("none")) != phi_bytes(ws.path("straight")));
  const auto model = nlohmann::json::parse(slurp(ws.path("straight/model.json")));
  CHECK(model.at("estimator") == "collapsed");
  CHECK(model.at("phased_sweeps") == 5);
  CHECK(nlohmann::json::parse(slurp(ws.path("none/model.json"))).at("phased_sweeps") == 0);
  // Short documents, at least one per topic: the default takes 10 (lda::default_phased_sweeps).
  REQUIRE(run(ws.dir, small_run(ws, "default", {})).exit_code == 0);
  CHECK(nlohmann::json::parse(slurp(ws.path("default/model.json"))).at("phased_sweeps") == 10);
}

// The default sweep blocks follow the training documents per topic (lda::default_sweep_blocks):
// about 108 for 40 topics, 2.7 per topic, sweep in 16 blocks, the run an explicit
// --sweep-blocks 16 makes and not --sweep-blocks 1's.
TEST_CASE("cli: below 4 training documents per topic the default sweeps in 16 blocks", "[cli]") {
  workspace ws;
  const auto with = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> a = small_run(ws, out, std::move(extra));
    *(std::find(a.begin(), a.end(), "--topics") + 1) = "40";
    return a;
  };
  REQUIRE(run(ws.dir, with("default", {})).exit_code == 0);
  REQUIRE(run(ws.dir, with("sixteen", {"--sweep-blocks", "16"})).exit_code == 0);
  REQUIRE(run(ws.dir, with("one", {"--sweep-blocks", "1"})).exit_code == 0);
  check_same_outputs(ws.path("sixteen"), ws.path("default"));
  CHECK(phi_bytes(ws.path("one")) != phi_bytes(ws.path("default")));
  const auto model = nlohmann::json::parse(slurp(ws.path("default/model.json")));
  CHECK(model.at("topics") == 40);
  CHECK(model.at("sweep_blocks") == 16);
}

// --subgroup-from changes how the sweep runs, not the model: every document swept by a subgroup
// (1) writes the files the backend's default writes (on the host: every document by a thread).
// A mix of both in one sweep: conformance_lda on ap.
TEST_CASE("cli: --subgroup-from writes the model the sweep by threads writes", "[cli]") {
  workspace ws;
  REQUIRE(run(ws.dir, small_run(ws, "default", {})).exit_code == 0);
  REQUIRE(run(ws.dir, small_run(ws, "all", {"--subgroup-from", "1"})).exit_code == 0);
  check_same_outputs(ws.path("all"), ws.path("default"));
}

// The other corpus formats end to end (README "Inputs"): a plain-text corpus with --stopwords
// and --min-df, and an LDA-C corpus with a vocabulary. The vocabulary the model keeps is worked
// out here by hand from the documented tokenization (runs of ASCII letters, lowercased; stop
// words dropped, then words in fewer than min-df documents; order of first occurrence).
TEST_CASE(
    "cli: training on a plain-text corpus with --stopwords and --min-df, and on an LDA-C corpus",
    "[cli]") {
  workspace ws;
  {
    std::ofstream text(ws.path("news.txt"));
    text << "The cat sat on the mat.\n"
            "A dog and a cat.\n"
            "Stocks fell; the market rallied later.\n"
            "Dog days: the MARKET and the dog.\n"
            "Cat, dog, market!\n";
    std::ofstream stop(ws.path("stop.txt"));
    stop << "# stop words\nthe\na\nand\non\n";
  }
  const auto t =
      run(ws.dir, {"train", "--corpus", "news.txt", "--stopwords", "stop.txt", "--min-df", "2",
                   "--topics", "2", "--iterations", "5", "--quiet", "--out", "text-model"});
  INFO(t.err);
  REQUIRE(t.exit_code == 0);
  // Document frequencies without stop words: cat 3, dog 3, market 3, every other word 1.
  CHECK(slurp(ws.path("text-model/vocab.txt")) == "cat\ndog\nmarket\n");
  CHECK(butterfly::io::read_topic_counts(ws.path("text-model/word-topic-counts.txt"), 2).rows() ==
        3);
  CHECK(butterfly::io::read_topic_counts(ws.path("text-model/doc-topic-counts.txt"), 2).rows() ==
        5);
  // Tokens kept: cat | dog cat | market | dog market dog | cat dog market.
  CHECK(nlohmann::json::parse(slurp(ws.path("text-model/model.json"))).at("corpus_tokens") == 10);

  {
    std::ofstream ldac(ws.path("small.ldac"));
    ldac << "2 0:3 4:1\n"
            "0\n"  // an empty document
            "3 1:2 2:1 3:5\n"
            "1 4:2\n";
    std::ofstream vocab(ws.path("small.vocab"));
    vocab << "alpha\nbeta\ngamma\ndelta\nepsilon\n";
  }
  const auto l =
      run(ws.dir, {"train", "--corpus", "small.ldac", "--vocab", "small.vocab", "--topics", "3",
                   "--iterations", "5", "--quiet", "--out", "ldac-model"});
  INFO(l.err);
  REQUIRE(l.exit_code == 0);
  CHECK(slurp(ws.path("ldac-model/vocab.txt")) == "alpha\nbeta\ngamma\ndelta\nepsilon\n");
  CHECK(butterfly::io::read_topic_counts(ws.path("ldac-model/word-topic-counts.txt"), 3).rows() ==
        5);
  // Every document has its row, the empty one without pairs ("1 2": its place in the corpus).
  const auto documents =
      butterfly::io::read_topic_counts(ws.path("ldac-model/doc-topic-counts.txt"), 3);
  REQUIRE(documents.rows() == 4);
  CHECK(documents.names[1] == "2");
  CHECK(documents.offsets[2] == documents.offsets[1]);
  const auto model = nlohmann::json::parse(slurp(ws.path("ldac-model/model.json")));
  CHECK(model.at("corpus_documents") == 4);
  CHECK(model.at("corpus_tokens") == 4 + 0 + 8 + 2);
}

TEST_CASE("cli: butterfly-lda itself has no failure hooks", "[cli]") {
  workspace ws;
  const auto r = run(ws.dir, small_run(ws, "m", {"--checkpoint-every", "3"}),
                     {"BUTTERFLY_TEST_KILL=after-iteration:2", "BUTTERFLY_TEST_FAIL_RANK=0"});
  INFO(r.err);
  CHECK(r.signal == 0);
  CHECK(r.exit_code == 0);
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

  // Formats 1 and 2 stored the command line's words: refused, with the reason.
  std::string older = good;
  older[7] = '2';
  write(older);
  r = run(ws.dir, {"train", "--resume", "m"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("checkpoint.bin: checkpoint format 2") &&
                        Catch::Contains("start the run again"));

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

TEST_CASE("cli: bad arguments exit with code 2 and name the argument and the value", "[cli]") {
  workspace ws;
  const std::string docword = ws.path("docword.small.txt");
  const std::vector<std::tuple<std::vector<std::string>, std::string, std::string>> cases = {
      {{"train", "--bogus", "1"}, "--bogus", ""},
      {{"train", "--topics", "0"}, "--topics", "0"},
      {{"train", "--topics", "many"}, "--topics", "many"},
      {{"train", "--alpha", "-1"}, "--alpha", "-1"},
      {{"train", "--beta", "nan"}, "--beta", "nan"},
      {{"train", "--holdout", "1.5"}, "--holdout", "1.5"},
      {{"train", "--algorithm", "quick"}, "--algorithm", "quick"},
      {{"train", "--seed", "-1"}, "--seed", "-1"},
      {{"train", "--iterations"}, "--iterations", ""},
      {{"train", "--corpus-format", "xml", "--corpus", docword}, "--corpus-format", "xml"},
      {{"train", "--resume", "x", "--topics", "3"}, "--resume", "--topics"},
      {{"train", "--seed", "1", "--seed", "2"}, "--seed", ""},
      {{"train", "--corpus", docword, "--docword", docword}, "--corpus", "--docword"},
      {{"train", "--vocab", "vocab.small.txt"}, "--vocab", "--corpus"},
      {{"train", "--corpus", "notes.txt", "--vocab", "vocab.small.txt"}, "--vocab", "text"},
      {{"train", "--docword", docword, "--min-df", "2"}, "--min-df", "uci"},
      {{"train", "--min-df", "2"}, "--min-df", "uci"},  // the bundled corpus is UCI
      {{"train", "--average", "17"}, "--average", "17"},
      {{"train", "--average", "4", "--estimator", "mean"}, "--average", "--estimator mean"},
      {{"train", "--average", "2", "--burn-in", "3"}, "--average", "--burn-in 3"},
      {{"train", "--sweep-blocks", "2", "--estimator", "mh"}, "--sweep-blocks", "--estimator mh"},
      {{"train", "--sweep-blocks", "0"}, "--sweep-blocks", "0"},
      {{"train", "--phased-sweeps", "3", "--estimator", "phased"},
       "--phased-sweeps",
       "--estimator phased"},
      {{"train", "--phased-sweeps", "-1"}, "--phased-sweeps", "-1"},
      {{"train", "--subgroup-from", "8", "--estimator", "hybrid"},
       "--subgroup-from",
       "--estimator hybrid"},
      {{"train", "--subgroup-from", "-3"}, "--subgroup-from", "-3"},
      {{"topics"}, "--model", ""},
      {{"infer", "--model", "x"}, "--corpus", "--docword"},
      {{"frobnicate"}, "frobnicate", ""},
      {{}, "command", ""},
  };
  for (const auto& [args, option, value] : cases) {
    CAPTURE(args);
    const auto r = run(ws.dir, args);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(option) && Catch::Contains(value));
  }
  const auto help = run(ws.dir, {"train", "--help"});
  CHECK(help.exit_code == 0);
  for (const char* s :
       {"--topics K", "(default: 20)", "--alpha A", "(default: 0.1)", "--checkpoint-every N",
        "--resume DIR", "--holdout FRACTION", "--corpus-format", "--eval-every N", "--corpus PATH"})
    CHECK_THAT(help.out, Catch::Contains(s));
  CHECK_THAT(run(ws.dir, {"topics", "--help"}).out,
             Catch::Contains("--model DIR") && Catch::Contains("--top-words N"));
  CHECK_THAT(run(ws.dir, {"infer", "--help"}).out,
             Catch::Contains("--sweeps N") && Catch::Contains("--docword PATH"));
  CHECK_THAT(run(ws.dir, {"--help"}).out,
             Catch::Contains("train") && Catch::Contains("topics") && Catch::Contains("infer"));
}

TEST_CASE("cli: bad input files exit with code 1, name file and line, and write nothing", "[cli]") {
  workspace ws;
  std::ofstream(ws.path("docword.bad.txt")) << "2\n3\n2\n1 1 2\n1 x 1\n";
  auto r = run(ws.dir, {"train", "--docword", "docword.bad.txt", "--out", "bad", "--quiet"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("docword.bad.txt:5"));
  CHECK_FALSE(fs::exists(ws.path("bad/word-topic-counts.txt")));
  CHECK_FALSE(fs::exists(ws.path("bad/phi.npy")));
  r = run(ws.dir, {"train", "--docword", "missing.txt", "--out", "bad", "--quiet"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("missing.txt"));
}

// infer takes alpha and beta from model.json: the top-level fields, wherever they stand,
// not the first "alpha" anywhere in the file.
TEST_CASE("cli: infer reads the priors at the top level of model.json, in any key order", "[cli]") {
  workspace ws;
  REQUIRE(run(ws.dir, small_run(ws, "model")).exit_code == 0);
  const std::string model_json = ws.path("model/model.json");
  const auto written = nlohmann::ordered_json::parse(slurp(model_json));
  const auto infer = [&](const std::string& out) {
    return run(ws.dir, {"infer", "--model", "model", "--docword", "docword.small.txt", "--vocab",
                        "vocab.small.txt", "--out", out, "--sweeps", "6"});
  };
  REQUIRE(infer("as-written.npy").exit_code == 0);

  // Keys reversed, after a nested object with other values under the same names.
  nlohmann::ordered_json edited;
  edited["earlier run"] = {{"alpha", 50.0}, {"beta", 3.0}};
  std::vector<std::string> keys;
  for (const auto& field : written.items()) keys.push_back(field.key());
  for (auto key = keys.rbegin(); key != keys.rend(); ++key) edited[*key] = written.at(*key);
  std::ofstream(model_json, std::ios::trunc) << edited.dump(2);
  auto r = infer("edited.npy");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(slurp(ws.path("edited.npy")) == slurp(ws.path("as-written.npy")));
  // The priors do reach theta, so the comparison above can fail.
  edited["alpha"] = 50.0;
  std::ofstream(model_json, std::ios::trunc) << edited.dump(2);
  REQUIRE(infer("other-alpha.npy").exit_code == 0);
  CHECK(slurp(ws.path("other-alpha.npy")) != slurp(ws.path("as-written.npy")));

  SECTION("a malformed model.json is an error naming the file and line") {
    std::ofstream(model_json, std::ios::trunc)
        << "{\n  \"alpha\": 0.1,\n  \"beta\": ,\n  \"topics\": 6\n}\n";
    r = infer("bad.npy");
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("model/model.json:3: not valid JSON"));
    CHECK_FALSE(fs::exists(ws.path("bad.npy")));
  }
  SECTION("a model's counts with a bad line, or counted over no sweep, are errors naming them") {
    edited["counted_sweeps"] = 0;
    std::ofstream(model_json, std::ios::trunc) << edited.dump(2);
    r = run(ws.dir, {"topics", "--model", "model"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("\"counted_sweeps\" is 0, not a whole number in [1, 65536]"));
    edited["counted_sweeps"] = 1;
    std::ofstream(model_json, std::ios::trunc) << edited.dump(2);
    std::ofstream(ws.path("model/word-topic-counts.txt"), std::ios::app) << "150 extra 9:1\n";
    r = infer("bad.npy");
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("model/word-topic-counts.txt:151: topic 9 is out of range"));
    CHECK_FALSE(fs::exists(ws.path("bad.npy")));
  }
  SECTION("priors only inside a nested object are missing") {
    edited.erase("alpha");
    std::ofstream(model_json, std::ios::trunc) << edited.dump(2);
    r = infer("bad.npy");
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("model/model.json: no \"alpha\" field at the top level"));
  }
}

TEST_CASE("cli: without a corpus, train uses the bundled ap corpus", "[cli]") {
  workspace ws;
  const auto r =
      run(ws.dir, {"train", "--topics", "4", "--iterations", "2", "--quiet", "--out", "ap"},
          {"BUTTERFLY_DATA_DIR="});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(count_lines(r.out) >= 4);
  CHECK(nlohmann::json::parse(slurp(ws.path("ap/model.json"))).at("corpus_documents") == 2246);
  const auto missing =
      run(ws.dir, {"train", "--quiet"}, {"BUTTERFLY_DATA_DIR=" + ws.path("nowhere")});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("BUTTERFLY_DATA_DIR"));
}
