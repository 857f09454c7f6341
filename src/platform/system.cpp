#include "platform/system.hpp"

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#include <windows.h>
// windows.h first: psapi.h needs its types.
#include <psapi.h>
#else
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace horizon {

#if defined(_WIN32)

long peak_memory_kib() {
    PROCESS_MEMORY_COUNTERS counters{};
    if (!GetProcessMemoryInfo(GetCurrentProcess(), &counters, sizeof counters)) return -1;
    return long(counters.PeakWorkingSetSize / 1024);
}

std::string executable_path() {
    // The path in UTF-8, however long (GetModuleFileNameW truncates to the buffer it gets).
    std::wstring wide(MAX_PATH, L'\0');
    for (;;) {
        const DWORD n = GetModuleFileNameW(nullptr, wide.data(), DWORD(wide.size()));
        if (n == 0) return "horizon";
        if (n < wide.size()) {
            wide.resize(n);
            break;
        }
        wide.resize(wide.size() * 2);
    }
    const int bytes = WideCharToMultiByte(CP_UTF8, 0, wide.data(), int(wide.size()), nullptr, 0,
                                          nullptr, nullptr);
    std::string path(std::size_t(bytes), '\0');
    WideCharToMultiByte(CP_UTF8, 0, wide.data(), int(wide.size()), path.data(), bytes, nullptr,
                        nullptr);
    return path;
}

bool is_terminal(std::FILE* stream) { return _isatty(_fileno(stream)) != 0; }

void use_lf_line_ends() {
    std::fflush(stdout);
    _setmode(_fileno(stdout), _O_BINARY);
}

#else

long peak_memory_kib() {
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
    return usage.ru_maxrss;
}

std::string executable_path() {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, std::size_t(n)) : "horizon";
}

bool is_terminal(std::FILE* stream) { return isatty(fileno(stream)) != 0; }

void use_lf_line_ends() {} // already so

#endif

} // namespace horizon
