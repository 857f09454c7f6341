// What `horizon tune` prints as the tuner goes (the TuneObserver of train/tune): the results on
// one stream; the progress line (on a terminal) and the warnings on another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "cli/progress.hpp"
#include "train/tune.hpp"

namespace horizon {

class TunePrinter : public TuneObserver {
public:
    // `interactive`: the progress line is redrawn on `err` (else not shown).
    TunePrinter(std::ostream& out, std::ostream& err, bool interactive)
        : out_(out), err_(err), interactive_(interactive) {}

    // Clears the progress line, before something else is written on `err`.
    void finish_progress() {
        if (progress_) progress_->finish();
    }

    void loading(std::size_t files, int threads) override;
    void load_progress(const LoadProgress& p) override;
    void skipped(const std::string& where, const std::string& why) override;
    void loaded(const LoadReport& report, const DataSet& data) override;
    void shuffled(double seconds) override;
    void split(std::size_t train, std::size_t valid) override;
    void k_chosen(const KReport& k) override;
    void frozen(int weights, std::uint64_t min_count) override;
    void training_progress(const TrainingProgress& p) override;
    void epoch_done(const EpochReport& e) override;
    void trained(const TrainingSummary& s) override;
    void wdl_fitted(const WdlReport& r) override;
    void wdl_copied() override;

private:
    // Malformed lines shown one by one; the rest are counted.
    static constexpr std::uint64_t WARNINGS_SHOWN = 10;

    std::ostream& out_;
    std::ostream& err_;
    bool interactive_;
    std::optional<Progress> progress_;
    std::uint64_t skipped_ = 0;
};

} // namespace horizon
