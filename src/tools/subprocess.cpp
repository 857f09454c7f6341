#include "tools/subprocess.hpp"

#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace horizon {

Subprocess::Subprocess(const std::vector<std::string>& argv) {
    if (argv.empty()) throw std::runtime_error("no command");
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0) throw std::runtime_error("pipe failed");
    if (pipe(from_child) != 0) {
        ::close(to_child[0]);
        ::close(to_child[1]);
        throw std::runtime_error("pipe failed");
    }
    // The exec status travels through a close-on-exec pipe.
    int exec_status[2];
    if (pipe2(exec_status, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        dup2(to_child[0], STDIN_FILENO);
        dup2(from_child[1], STDOUT_FILENO);
        ::close(to_child[0]);
        ::close(to_child[1]);
        ::close(from_child[0]);
        ::close(from_child[1]);
        ::close(exec_status[0]);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        const int err = errno;
        [[maybe_unused]] auto n = ::write(exec_status[1], &err, sizeof err);
        _exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    ::close(exec_status[1]);
    in_fd_ = to_child[1];
    out_fd_ = from_child[0];
    int err = 0;
    if (::read(exec_status[0], &err, sizeof err) == sizeof err) {
        ::close(exec_status[0]);
        wait(std::chrono::milliseconds(1000));
        throw std::runtime_error("cannot run '" + argv[0] + "': " + std::strerror(err));
    }
    ::close(exec_status[0]);
    signal(SIGPIPE, SIG_IGN);
}

Subprocess::~Subprocess() {
    close_stdin();
    if (!wait(std::chrono::milliseconds(2000))) {
        kill(pid_, SIGKILL);
        wait(std::chrono::milliseconds(2000));
    }
    if (out_fd_ >= 0) ::close(out_fd_);
}

bool Subprocess::write(const std::string& text) {
    if (in_fd_ < 0) return false;
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(in_fd_, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

void Subprocess::close_stdin() {
    if (in_fd_ >= 0) ::close(in_fd_);
    in_fd_ = -1;
}

std::optional<std::string> Subprocess::read_line(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0 || out_fd_ < 0) return std::nullopt;
        pollfd pfd{out_fd_, POLLIN, 0};
        const int r = poll(&pfd, 1, int(left.count()));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return std::nullopt;
        char chunk[4096];
        const ssize_t n = ::read(out_fd_, chunk, sizeof chunk);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            if (!buffer_.empty()) {
                std::string rest;
                rest.swap(buffer_);
                return rest;
            }
            return std::nullopt;
        }
        buffer_.append(chunk, std::size_t(n));
    }
}

std::optional<std::string> Subprocess::wait_for(const std::string& prefix,
                                                std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        auto line = read_line(left);
        if (!line) return std::nullopt;
        if (line->rfind(prefix, 0) == 0) return line;
    }
}

std::optional<int> Subprocess::wait(std::chrono::milliseconds timeout) {
    if (status_) return status_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        int st = 0;
        const pid_t r = waitpid(pid_, &st, WNOHANG);
        if (r == pid_) {
            status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return status_;
        }
        if (r < 0) return status_ = -1;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

bool Subprocess::running() { return !wait(std::chrono::milliseconds(0)); }

} // namespace horizon
