#include "platform/subprocess.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#if defined(_WIN32)
#include <windows.h>
// windows.h first: psapi.h needs its types.
#include <psapi.h>
#else
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace horizon {

using std::chrono::milliseconds;

namespace {

milliseconds time_left(std::chrono::steady_clock::time_point deadline) {
    return std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
}

} // namespace

#if defined(_WIN32)

namespace {

std::wstring widen(const std::string& text) {
    if (text.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, text.data(), int(text.size()), nullptr, 0);
    std::wstring wide(std::size_t(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, text.data(), int(text.size()), wide.data(), n);
    return wide;
}

// One argument as the C run-time of the child splits its command line back: quoted when it
// holds white space or quotes, with backslashes doubled where a quote follows them.
void append_argument(std::wstring& line, const std::wstring& arg) {
    if (!line.empty()) line += L' ';
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) {
        line += arg;
        return;
    }
    line += L'"';
    std::size_t backslashes = 0;
    for (wchar_t c : arg) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        line.append(c == L'"' ? 2 * backslashes + 1 : backslashes, L'\\');
        backslashes = 0;
        line += c;
    }
    line.append(2 * backslashes, L'\\');
    line += L'"';
}

std::string error_text(DWORD code) {
    char* text = nullptr;
    const DWORD n = FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS,
                                   nullptr, code, 0, reinterpret_cast<char*>(&text), 0, nullptr);
    std::string out = n ? std::string(text, n) : "error " + std::to_string(code);
    if (text) LocalFree(text);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == '.'))
        out.pop_back();
    return out;
}

void close_handle(HANDLE& h) {
    if (h) CloseHandle(h);
    h = nullptr;
}

} // namespace

// The child's stdout comes through a named pipe opened for overlapped reads, so that a read
// can wait with a timeout (anonymous pipes only block).
struct Subprocess::Handles {
    HANDLE process = nullptr;
    HANDLE in = nullptr;  // write end of the child's stdin
    HANDLE out = nullptr; // read end of the child's stdout
    OVERLAPPED overlapped{};
    bool reading = false; // an overlapped read into chunk is pending
    char chunk[4096];

    ~Handles() {
        if (reading) {
            CancelIo(out);
            DWORD n = 0;
            GetOverlappedResult(out, &overlapped, &n, TRUE);
        }
        close_handle(overlapped.hEvent);
        close_handle(in);
        close_handle(out);
        close_handle(process);
    }
};

Subprocess::Subprocess(const std::vector<std::string>& argv) : os_(std::make_unique<Handles>()) {
    if (argv.empty()) throw std::runtime_error("no command");
    static std::atomic<unsigned> serial{0};
    const std::wstring pipe_name = L"\\\\.\\pipe\\horizon-" +
                                   std::to_wstring(GetCurrentProcessId()) + L"-" +
                                   std::to_wstring(serial++);
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    HANDLE child_in = nullptr, child_out = nullptr, child_err = nullptr;
    const auto fail = [&](const std::string& what) {
        const DWORD code = GetLastError();
        close_handle(child_in);
        close_handle(child_out);
        close_handle(child_err);
        throw std::runtime_error(what + ": " + error_text(code));
    };
    if (!CreatePipe(&child_in, &os_->in, &inherit, 0)) fail("pipe failed");
    SetHandleInformation(os_->in, HANDLE_FLAG_INHERIT, 0);
    os_->out = CreateNamedPipeW(pipe_name.c_str(), PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED,
                                PIPE_TYPE_BYTE | PIPE_WAIT, 1, 0, 1 << 16, 0, nullptr);
    if (os_->out == INVALID_HANDLE_VALUE) {
        os_->out = nullptr;
        fail("pipe failed");
    }
    child_out = CreateFileW(pipe_name.c_str(), GENERIC_WRITE, 0, &inherit, OPEN_EXISTING,
                            FILE_ATTRIBUTE_NORMAL, nullptr);
    if (child_out == INVALID_HANDLE_VALUE) {
        child_out = nullptr;
        fail("pipe failed");
    }
    os_->overlapped.hEvent = CreateEventW(nullptr, TRUE, FALSE, nullptr);
    if (!os_->overlapped.hEvent) fail("event failed");
    // The child writes its stderr where this process does.
    DuplicateHandle(GetCurrentProcess(), GetStdHandle(STD_ERROR_HANDLE), GetCurrentProcess(),
                    &child_err, 0, TRUE, DUPLICATE_SAME_ACCESS);

    std::wstring command_line;
    for (const auto& a : argv)
        append_argument(command_line, widen(a));
    STARTUPINFOW startup{};
    startup.cb = sizeof startup;
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = child_in;
    startup.hStdOutput = child_out;
    startup.hStdError = child_err;
    PROCESS_INFORMATION info{};
    if (!CreateProcessW(nullptr, command_line.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr,
                        &startup, &info))
        fail("cannot run '" + argv[0] + "'");
    os_->process = info.hProcess;
    CloseHandle(info.hThread);
    close_handle(child_in);
    close_handle(child_out);
    close_handle(child_err);
}

bool Subprocess::write(const std::string& text) {
    std::size_t done = 0;
    while (os_->in && done < text.size()) {
        DWORD n = 0;
        if (!WriteFile(os_->in, text.data() + done, DWORD(text.size() - done), &n, nullptr))
            return false;
        done += n;
    }
    return os_->in != nullptr;
}

void Subprocess::close_stdin() { close_handle(os_->in); }

Subprocess::Read Subprocess::read_more(milliseconds timeout) {
    if (!os_->out) return Read::END;
    DWORD n = 0;
    if (!os_->reading) {
        ResetEvent(os_->overlapped.hEvent);
        if (ReadFile(os_->out, os_->chunk, sizeof os_->chunk, nullptr, &os_->overlapped)) {
            GetOverlappedResult(os_->out, &os_->overlapped, &n, FALSE);
            buffer_.append(os_->chunk, n);
            return n ? Read::DATA : Read::END;
        }
        if (GetLastError() != ERROR_IO_PENDING) return Read::END;
        os_->reading = true;
    }
    if (WaitForSingleObject(os_->overlapped.hEvent, DWORD(timeout.count())) == WAIT_TIMEOUT)
        return Read::TIMEOUT;
    os_->reading = false;
    if (!GetOverlappedResult(os_->out, &os_->overlapped, &n, FALSE) || n == 0) return Read::END;
    buffer_.append(os_->chunk, n);
    return Read::DATA;
}

std::optional<int> Subprocess::wait(milliseconds timeout) {
    if (status_) return status_;
    const DWORD r =
        WaitForSingleObject(os_->process, DWORD(std::max<long long>(0, timeout.count())));
    if (r == WAIT_TIMEOUT) return std::nullopt;
    DWORD code = 0;
    if (r != WAIT_OBJECT_0 || !GetExitCodeProcess(os_->process, &code)) return status_ = -1;
    return status_ = int(code);
}

void Subprocess::kill() { TerminateProcess(os_->process, 137); }

long Subprocess::peak_memory_kib() const {
    PROCESS_MEMORY_COUNTERS counters{};
    if (!GetProcessMemoryInfo(os_->process, &counters, sizeof counters)) return -1;
    return long(counters.PeakWorkingSetSize / 1024);
}

#else

struct Subprocess::Handles {
    pid_t pid = -1;
    int in = -1;  // write end of the child's stdin
    int out = -1; // read end of the child's stdout

    ~Handles() {
        if (in >= 0) ::close(in);
        if (out >= 0) ::close(out);
    }
};

Subprocess::Subprocess(const std::vector<std::string>& argv) : os_(std::make_unique<Handles>()) {
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
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        dup2(to_child[0], STDIN_FILENO);
        dup2(from_child[1], STDOUT_FILENO);
        ::close(to_child[0]);
        ::close(to_child[1]);
        ::close(from_child[0]);
        ::close(from_child[1]);
        ::close(exec_status[0]);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        const int err = errno;
        [[maybe_unused]] auto n = ::write(exec_status[1], &err, sizeof err);
        _exit(127);
    }
    os_->pid = pid;
    ::close(to_child[0]);
    ::close(from_child[1]);
    ::close(exec_status[1]);
    os_->in = to_child[1];
    os_->out = from_child[0];
    int err = 0;
    if (::read(exec_status[0], &err, sizeof err) == sizeof err) {
        ::close(exec_status[0]);
        wait(milliseconds(1000));
        throw std::runtime_error("cannot run '" + argv[0] + "': " + std::strerror(err));
    }
    ::close(exec_status[0]);
    signal(SIGPIPE, SIG_IGN);
}

bool Subprocess::write(const std::string& text) {
    if (os_->in < 0) return false;
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(os_->in, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

void Subprocess::close_stdin() {
    if (os_->in >= 0) ::close(os_->in);
    os_->in = -1;
}

Subprocess::Read Subprocess::read_more(milliseconds timeout) {
    if (os_->out < 0) return Read::END;
    pollfd pfd{os_->out, POLLIN, 0};
    const int r = poll(&pfd, 1, int(timeout.count()));
    if (r < 0 && errno == EINTR) return Read::DATA; // nothing read; the caller looks again
    if (r <= 0) return Read::TIMEOUT;
    char chunk[4096];
    const ssize_t n = ::read(os_->out, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) return Read::DATA;
    if (n <= 0) return Read::END;
    buffer_.append(chunk, std::size_t(n));
    return Read::DATA;
}

std::optional<int> Subprocess::wait(milliseconds timeout) {
    if (status_) return status_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        int st = 0;
        const pid_t r = waitpid(os_->pid, &st, WNOHANG);
        if (r == os_->pid) {
            status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return status_;
        }
        if (r < 0) return status_ = -1;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(milliseconds(2));
    }
}

void Subprocess::kill() { ::kill(os_->pid, SIGKILL); }

long Subprocess::peak_memory_kib() const {
    std::ifstream in("/proc/" + std::to_string(os_->pid) + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

#endif

// What follows is the same on every system.

Subprocess::~Subprocess() {
    close_stdin();
    if (!wait(milliseconds(2000))) {
        kill();
        wait(milliseconds(2000));
    }
}

std::optional<std::string> Subprocess::read_line(milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        const auto left = time_left(deadline);
        if (left.count() <= 0) return std::nullopt;
        switch (read_more(left)) {
        case Read::DATA:
            break;
        case Read::TIMEOUT:
            return std::nullopt;
        case Read::END:
            if (buffer_.empty()) return std::nullopt;
            std::string rest;
            rest.swap(buffer_);
            return rest;
        }
    }
}

std::optional<std::string> Subprocess::wait_for(const std::string& prefix, milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = time_left(deadline);
        if (left.count() <= 0) return std::nullopt;
        auto line = read_line(left);
        if (!line) return std::nullopt;
        if (line->rfind(prefix, 0) == 0) return line;
    }
}

bool Subprocess::running() { return !wait(milliseconds(0)); }

} // namespace horizon
