#include "platform/quiet_output.hpp"

#include <cstdio>
#include <iostream>

#include <fcntl.h>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace horizon {

namespace {

// The system's descriptor calls, by their names on each system.
#ifdef _WIN32
int dup_fd(int fd) { return _dup(fd); }
void dup2_fd(int from, int to) { _dup2(from, to); }
void close_fd(int fd) { _close(fd); }
int open_null() { return _open("NUL", _O_WRONLY); }
#else
int dup_fd(int fd) { return dup(fd); }
void dup2_fd(int from, int to) { dup2(from, to); }
void close_fd(int fd) { close(fd); }
int open_null() { return open("/dev/null", O_WRONLY); }
#endif

int silence(int fd) {
    const int saved = dup_fd(fd);
    const int null = open_null();
    if (null >= 0) {
        dup2_fd(null, fd);
        close_fd(null);
    }
    return saved;
}

void restore(int fd, int saved) {
    if (saved < 0) return;
    dup2_fd(saved, fd);
    close_fd(saved);
}

} // namespace

QuietOutput::QuietOutput() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
    for (int fd : {1, 2})
        saved_[fd - 1] = silence(fd);
}

QuietOutput::~QuietOutput() {
    std::fflush(stdout);
    std::fflush(stderr);
    for (int fd : {1, 2})
        restore(fd, saved_[fd - 1]);
}

} // namespace horizon
