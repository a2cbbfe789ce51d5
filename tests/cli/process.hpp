// Runs the butterfly-lda program (or another: butterfly-lda-faults, mpiexec) in a child
// process for the CLI tests.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace butterfly::testing {

struct outcome {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `exe args...` in `cwd` with the extra environment `env` ("NAME=value"; "NAME=" unsets).
inline outcome run(const std::string& cwd, const std::vector<std::string>& args,
                   const std::vector<std::string>& env, std::string exe) {
  const std::string out_path = cwd + "/.stdout", err_path = cwd + "/.stderr";
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) ::_exit(127);
    const int o = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0) ::_exit(127);
    ::dup2(o, 1);
    ::dup2(e, 2);
    for (const auto& kv : env) {
      const auto eq = kv.find('=');
      const std::string name = kv.substr(0, eq), value = kv.substr(eq + 1);
      if (value.empty()) ::unsetenv(name.c_str());
      else ::setenv(name.c_str(), value.c_str(), 1);
    }
    std::vector<char*> argv;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  outcome r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

#if defined(BUTTERFLY_LDA_EXE)
// The same, running butterfly-lda.
inline outcome run(const std::string& cwd, const std::vector<std::string>& args,
                   const std::vector<std::string>& env = {}) {
  return run(cwd, args, env, BUTTERFLY_LDA_EXE);
}
#endif

}  // namespace butterfly::testing
