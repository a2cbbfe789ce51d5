// The JSON files of a model directory, on butterfly-lda's own functions: metrics.jsonl
// numbers read back as the same doubles, and model.json is read as JSON (fields at the top
// level, in any order) with errors that name the file.
#include "model_files.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include "support.hpp"

using butterfly::app::number_field;
using butterfly::app::read_model_json;

TEST_CASE("model files: metrics.jsonl holds each double exactly and omits unmeasured values",
          "[cli][json]") {
  io_test::temp_dir dir;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<butterfly::lda::metrics_record> history = {
      {1, -1.0 / 3.0, 0.1},
      {2, -2.5e-300, 6.02214076e23},
      {3, std::nextafter(-1e6, 0.0),
       4.9e-324},  // a neighbour of a round number; the smallest subnormal
      {4, -123456.789, nan},
      {5, nan, nan},
  };
  butterfly::app::write_metrics(dir.path("metrics.jsonl"), history);
  std::ifstream in(dir.path("metrics.jsonl"));
  std::size_t n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    REQUIRE(n < history.size());
    const auto& want = history[n];
    CAPTURE(line);
    const auto record = nlohmann::json::parse(line);
    CHECK(record.at("iteration") == want.iteration);
    CHECK(record.contains("log_likelihood") == !std::isnan(want.log_likelihood));
    CHECK(record.contains("heldout_perplexity") == !std::isnan(want.perplexity));
    if (!std::isnan(want.log_likelihood))
      CHECK(record.at("log_likelihood").get<double>() == want.log_likelihood);
    if (!std::isnan(want.perplexity))
      CHECK(record.at("heldout_perplexity").get<double>() == want.perplexity);
  }
  CHECK(n == history.size());
}

TEST_CASE("model files: model.json fields are read at the top level, in any order", "[cli][json]") {
  io_test::temp_dir dir;
  nlohmann::ordered_json d;
  d["beta"] = 0.01;
  d["earlier"] = {{"alpha", 7.0}};
  d["alpha"] = 1.0 / 3.0;
  const std::string path = dir.path("model.json");
  butterfly::app::write_model_json(path, d);
  const auto read = read_model_json(path);
  CHECK(number_field(read, path, "alpha") == 1.0 / 3.0);
  CHECK(number_field(read, path, "beta") == 0.01);
  REQUIRE_INPUT_ERROR(number_field(read, path, "topics"), path + ": ",
                      "no \"topics\" field at the top level");
  d["topics"] = "six";
  butterfly::app::write_model_json(path, d);
  REQUIRE_INPUT_ERROR(number_field(read_model_json(path), path, "topics"), path + ": ",
                      "\"topics\" is string");
}

TEST_CASE("model files: a model.json that is not a JSON object names the file", "[cli][json]") {
  io_test::temp_dir dir;
  const auto p = dir.path("model.json");
  REQUIRE_INPUT_ERROR(
      read_model_json(dir.write("model.json", "{\n  \"alpha\": 0.1,\n  \"beta\": 0.01\n")),
      p + ":4:", "not valid JSON");
  REQUIRE_INPUT_ERROR(read_model_json(dir.write("model.json", "{\"alpha\": 0.1}\n{\"beta\": 2}\n")),
                      p + ":2:", "not valid JSON");
  REQUIRE_INPUT_ERROR(read_model_json(dir.write("model.json", "")), p + ":1:", "not valid JSON");
  REQUIRE_INPUT_ERROR(read_model_json(dir.write("model.json", "[0.1, 0.01]\n")), p + ": ",
                      "expected a JSON object, found array");
  REQUIRE_INPUT_ERROR(read_model_json(dir.path("missing.json")), dir.path("missing.json") + ": ",
                      "cannot open");
}

// Worked out by hand: per topic, probability down, ties by the lower word id.
TEST_CASE(
    "model files: the top words of phi's rows, given whole or a row at a time, and topics.txt",
    "[cli]") {
  const int K = 2;
  const std::vector<float> phi = {0.1f,  0.5f,   // word 0
                                  0.3f,  0.1f,   // word 1
                                  0.3f,  0.2f,   // word 2
                                  0.05f, 0.2f,   // word 3
                                  0.25f, 0.0f};  // word 4
  butterfly::app::top_words_of_rows by_row(K, 5, 3);
  for (std::int64_t w = 0; w < 5; ++w) by_row.add(w, phi.data() + w * K);
  for (const auto& top : {butterfly::app::top_words(phi, 5, K, 3), by_row.take()}) {
    REQUIRE(top.size() == 2);
    const std::vector<std::pair<std::int32_t, float>> want0 = {{1, 0.3f}, {2, 0.3f}, {4, 0.25f}};
    const std::vector<std::pair<std::int32_t, float>> want1 = {{0, 0.5f}, {2, 0.2f}, {3, 0.2f}};
    for (int k = 0; k < K; ++k) {
      const auto& want = k == 0 ? want0 : want1;
      REQUIRE(top[static_cast<std::size_t>(k)].size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(top[static_cast<std::size_t>(k)][i].word == want[i].first);
        CHECK(top[static_cast<std::size_t>(k)][i].p == want[i].second);
      }
    }
  }
  io_test::temp_dir dir;
  butterfly::app::write_topics(dir.path("topics.txt"), butterfly::app::top_words(phi, 5, K, 2),
                               {"a", "b", "c", "d", "e"});
  std::ifstream in(dir.path("topics.txt"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "topic 0: b 0.300000 c 0.300000\ntopic 1: a 0.500000 c 0.200000\n");
}
