// Zeroed memory in whole pages for the large tables (the transposition table): the pages come
// from the operating system already zeroed and are backed by memory only when first touched, so
// a table of any size is there at once. The ground floor: nothing of Horizon is included.
#pragma once

#include <cstddef>

namespace horizon {

class ZeroedPages {
public:
    ZeroedPages() = default;
    ~ZeroedPages();
    ZeroedPages(const ZeroedPages&) = delete;
    ZeroedPages& operator=(const ZeroedPages&) = delete;
    ZeroedPages(ZeroedPages&& other) noexcept;
    ZeroedPages& operator=(ZeroedPages&& other) noexcept;

    // `bytes` of zeroed memory whose start is aligned for a table (2 MiB on Linux, where up to
    // 1 GiB asks for transparent huge pages; a cache line elsewhere); empty when the system
    // refuses.
    static ZeroedPages allocate(std::size_t bytes);

    void* data() const { return start_; }
    std::size_t size() const { return bytes_; }
    explicit operator bool() const { return start_ != nullptr; }

    // Zeroes the pages of the block that are in memory and returns true; returns false, doing
    // nothing, when more than `cap` bytes of it are, or where the system cannot tell which are
    // (everywhere but Linux).
    bool clear_touched(std::size_t cap);

private:
    void release();

    void* raw_ = nullptr;       // what the system handed out
    std::size_t raw_bytes_ = 0; // and its size
    void* start_ = nullptr;     // raw_ aligned
    std::size_t bytes_ = 0;
};

// Physical memory of this machine in MiB (0 when unknown).
std::size_t physical_memory_mib();

} // namespace horizon
