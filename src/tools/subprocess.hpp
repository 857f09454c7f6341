// A child process with pipes to its stdin and stdout (POSIX), for benchmarks that drive
// other engines and for end-to-end tests that drive Horizon itself.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace horizon {

class Subprocess {
public:
    // Starts argv[0] with arguments; throws std::runtime_error when it cannot start.
    explicit Subprocess(const std::vector<std::string>& argv);
    ~Subprocess();
    Subprocess(const Subprocess&) = delete;
    Subprocess& operator=(const Subprocess&) = delete;

    // Writes text to the child's stdin; false when the pipe is closed.
    bool write(const std::string& text);
    void close_stdin();
    // Next line of stdout without its newline; nullopt on EOF or timeout.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout);
    // Reads lines until one starts with `prefix`; returns it (nullopt on EOF/timeout).
    std::optional<std::string> wait_for(const std::string& prefix, std::chrono::milliseconds timeout);
    // Waits for exit; returns the exit status, or nullopt if still running after timeout.
    std::optional<int> wait(std::chrono::milliseconds timeout);
    bool running();
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int in_fd_ = -1;
    int out_fd_ = -1;
    std::string buffer_;
    std::optional<int> status_;
};

} // namespace horizon
