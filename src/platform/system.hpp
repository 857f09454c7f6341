// The operating-system services beyond standard C++, each with a POSIX and a Windows
// implementation (system.cpp). The ground floor: nothing of Horizon is included.
#pragma once

#include <cstdio>
#include <string>

namespace horizon {

// The separator of the folders in a list of paths (SyzygyPath): ';' on Windows, where a drive
// letter's colon is part of a folder, ':' elsewhere.
#ifdef _WIN32
inline constexpr char PATH_LIST_SEPARATOR = ';';
#else
inline constexpr char PATH_LIST_SEPARATOR = ':';
#endif

// The most memory this process has held in RAM so far (resident set on POSIX, working set on
// Windows), KiB; -1 when the system does not say.
long peak_memory_kib();

// The full path of the running executable; "horizon" when the system does not say.
std::string executable_path();

// Whether `stream` writes to a terminal (a console on Windows), where progress lines may be
// redrawn in place.
bool is_terminal(std::FILE* stream);

// Makes standard output write a line end as a bare LF on every system. On Windows a text-mode
// stream writes CR LF; a match runner on Linux driving the Windows build under Wine then read
// "bestmove e6f7\r" as an illegal move. Windows GUIs read LF lines as well.
void use_lf_line_ends();

} // namespace horizon
