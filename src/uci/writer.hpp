// The one synchronized writer to the GUI: whole lines, '\n' endings, flushed per line.
#pragma once

#include <mutex>
#include <ostream>
#include <string>

namespace horizon {

class SyncWriter {
public:
    explicit SyncWriter(std::ostream& out) : out_(out) {}
    void line(const std::string& text) {
        std::lock_guard lock(mutex_);
        out_ << text << '\n';
        out_.flush();
    }

private:
    std::ostream& out_;
    std::mutex mutex_;
};

} // namespace horizon
