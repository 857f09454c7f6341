#include "platform/memory_pages.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace horizon {

namespace {

[[maybe_unused]] constexpr std::size_t CACHE_LINE = 64; // the platforms without huge pages

#if defined(__linux__)
// On Linux a table lives in an anonymous mapping aligned to 2 MiB and, up to 1 GiB, asks for
// transparent huge pages: a first touch then costs one fault per 2 MiB instead of one per
// 4 KiB (on a virtual machine a 64 MiB table took 170-230 ms of page faults in the first
// search, about 5 ms so), and the probes miss the TLB less. A larger table keeps small pages:
// the first probes of a search fall on a new page almost every time, and zeroing 2 MiB for
// each made depth 14 take twice as long in a 2 GiB table. The pages arrive zeroed and only
// when touched, so any size is allocated at once.
constexpr std::size_t HUGE_PAGE = std::size_t(2) << 20;
constexpr std::size_t HUGE_PAGES_MAX = std::size_t(1) << 30;
constexpr std::size_t ALIGNMENT = HUGE_PAGE;

void* system_allocate(std::size_t raw_bytes) {
    void* raw =
        mmap(nullptr, raw_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return raw == MAP_FAILED ? nullptr : raw;
}
void system_free(void* raw, std::size_t raw_bytes) { munmap(raw, raw_bytes); }
#elif defined(_WIN32)
// On Windows a table is committed with VirtualAlloc, which hands out pages that are zeroed and
// only backed by memory when first touched (calloc gives no such promise), or fails when the
// commit limit cannot take the size.
constexpr std::size_t ALIGNMENT = CACHE_LINE;

void* system_allocate(std::size_t raw_bytes) {
    return VirtualAlloc(nullptr, raw_bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}
void system_free(void* raw, std::size_t) { VirtualFree(raw, 0, MEM_RELEASE); }
#else
constexpr std::size_t ALIGNMENT = CACHE_LINE;

void* system_allocate(std::size_t raw_bytes) { return std::calloc(raw_bytes, 1); }
void system_free(void* raw, std::size_t) { std::free(raw); }
#endif

// The first aligned byte of what system_allocate returned (it is asked for ALIGNMENT more).
void* aligned_start(void* raw) {
    return reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(raw) + ALIGNMENT - 1) &
                                   ~(ALIGNMENT - 1));
}

} // namespace

ZeroedPages::~ZeroedPages() { release(); }

ZeroedPages::ZeroedPages(ZeroedPages&& other) noexcept
    : raw_(std::exchange(other.raw_, nullptr)), raw_bytes_(std::exchange(other.raw_bytes_, 0)),
      start_(std::exchange(other.start_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

ZeroedPages& ZeroedPages::operator=(ZeroedPages&& other) noexcept {
    if (this != &other) {
        release();
        raw_ = std::exchange(other.raw_, nullptr);
        raw_bytes_ = std::exchange(other.raw_bytes_, 0);
        start_ = std::exchange(other.start_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void ZeroedPages::release() {
    if (raw_) system_free(raw_, raw_bytes_);
    raw_ = start_ = nullptr;
    raw_bytes_ = bytes_ = 0;
}

ZeroedPages ZeroedPages::allocate(std::size_t bytes) {
    ZeroedPages pages;
    const std::size_t raw_bytes = bytes + ALIGNMENT;
    void* raw = system_allocate(raw_bytes);
    if (!raw) return pages;
    pages.raw_ = raw;
    pages.raw_bytes_ = raw_bytes;
    pages.start_ = aligned_start(raw);
    pages.bytes_ = bytes;
#if defined(__linux__)
    if (bytes <= HUGE_PAGES_MAX) // advice only: may fail, and nothing depends on it
        madvise(pages.start_, bytes, MADV_HUGEPAGE);
#endif
    return pages;
}

bool ZeroedPages::clear_touched([[maybe_unused]] std::size_t cap) {
#if defined(__linux__)
    if (!start_) return false;
    const long page_size = sysconf(_SC_PAGESIZE);
    if (page_size <= 0) return false;
    const std::size_t page = std::size_t(page_size);
    std::vector<unsigned char> in_memory((bytes_ + page - 1) / page);
    if (mincore(start_, bytes_, in_memory.data()) != 0) return false;
    std::size_t touched = 0;
    for (unsigned char p : in_memory)
        touched += (p & 1) ? page : 0;
    if (touched > cap) return false;
    auto* base = static_cast<unsigned char*>(start_);
    for (std::size_t i = 0; i < in_memory.size();) {
        std::size_t end = i;
        while (end < in_memory.size() && (in_memory[end] & 1))
            ++end;
        if (end > i) std::memset(base + i * page, 0, std::min(bytes_, end * page) - i * page);
        i = end + 1;
    }
    return true;
#else
    // No page is known to be in memory: a large table is handed back and asked for again.
    return false;
#endif
}

std::size_t physical_memory_mib() {
#if defined(_WIN32)
    MEMORYSTATUSEX status;
    status.dwLength = sizeof status;
    if (!GlobalMemoryStatusEx(&status)) return 0;
    return std::size_t(status.ullTotalPhys >> 20);
#else
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    return std::size_t((unsigned long long)pages * (unsigned long long)page >> 20);
#endif
}

} // namespace horizon
