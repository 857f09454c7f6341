// A child process with pipes to its stdin and stdout (POSIX and Windows), for benchmarks that
// drive other engines and for end-to-end tests that drive Horizon itself. The child's stderr is
// this process's stderr.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace horizon {

class Subprocess {
public:
    // Starts argv[0] with arguments (looked up on PATH when it has no folder; text in UTF-8);
    // throws std::runtime_error when it cannot start.
    explicit Subprocess(const std::vector<std::string>& argv);
    ~Subprocess();
    Subprocess(const Subprocess&) = delete;
    Subprocess& operator=(const Subprocess&) = delete;

    // Writes text to the child's stdin; false when the pipe is closed.
    bool write(const std::string& text);
    void close_stdin();
    // Next line of stdout without its line ending (`\n` or `\r\n`); nullopt on EOF or timeout.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout);
    // Reads lines until one starts with `prefix`; returns it (nullopt on EOF/timeout).
    std::optional<std::string> wait_for(const std::string& prefix,
                                        std::chrono::milliseconds timeout);
    // Waits for exit; returns the exit status, or nullopt if still running after timeout.
    std::optional<int> wait(std::chrono::milliseconds timeout);
    bool running();
    // The most memory the child has held in RAM so far, KiB; -1 when the system does not say.
    long peak_memory_kib() const;

private:
    enum class Read { DATA, TIMEOUT, END };
    // Appends what the child writes next to buffer_, waiting at most `timeout` for it.
    Read read_more(std::chrono::milliseconds timeout);
    void kill();

    struct Handles; // the operating system's handles of the child and the pipes
    std::unique_ptr<Handles> os_;
    std::string buffer_;
    std::optional<int> status_;
};

} // namespace horizon
