#include "train/opening_book.hpp"

#include <atomic>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "engine/engine.hpp"

namespace horizon {

std::vector<std::string> balanced_openings(const DatagenOptions& options, std::uint64_t count,
                                           const std::function<void(std::uint64_t)>& on_progress) {
    if (options.threads < 1) throw std::runtime_error("threads must be at least 1");
    std::vector<std::unique_ptr<Engine>> engines;
    for (int t = 0; t < options.threads; ++t)
        engines.push_back(make_datagen_engine(options));
    const std::uint64_t batch = 64 * std::uint64_t(options.threads);
    std::vector<std::string> found;
    std::set<std::string> seen;
    for (std::uint64_t first = 0; found.size() < count; first += batch) {
        std::vector<std::string> fens(batch);
        std::atomic<std::uint64_t> next{0};
        std::exception_ptr error;
        std::mutex error_mutex;
        std::vector<std::thread> workers;
        for (auto& engine : engines)
            workers.emplace_back([&, e = engine.get()] {
                try {
                    for (std::uint64_t i; (i = next++) < batch;) {
                        const std::string fen = game_opening(*e, options, first + i).fen();
                        std::size_t end = 0;
                        for (int field = 0; field < 4; ++field)
                            end = fen.find(' ', end + (field > 0));
                        fens[i] = fen.substr(0, end);
                    }
                } catch (...) {
                    std::lock_guard lock(error_mutex);
                    if (!error) error = std::current_exception();
                    next = batch;
                }
            });
        for (auto& w : workers)
            w.join();
        if (error) std::rethrow_exception(error);
        for (auto& fen : fens)
            if (found.size() < count && seen.insert(fen).second) found.push_back(std::move(fen));
        if (on_progress) on_progress(found.size());
    }
    return found;
}

std::size_t write_opening_book(const DatagenOptions& options, std::uint64_t count,
                               const std::function<void(std::uint64_t)>& on_progress) {
    const std::vector<std::string> book = balanced_openings(options, count, on_progress);
    std::ofstream out(options.out, std::ios::binary);
    for (const auto& fen : book)
        out << fen << "\n";
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + options.out);
    return book.size();
}

} // namespace horizon
