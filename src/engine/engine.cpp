#include "engine/engine.hpp"

#include "movegen/movegen.hpp"
#include "notation/uci_move.hpp"

namespace horizon {

Engine::Engine() = default;

Engine::~Engine() {
    stop();
    wait();
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    job_cv_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void Engine::worker_loop() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            job_cv_.wait(lock, [&] { return job_.has_value() || quit_; });
            if (!job_) return;
            job = std::move(*job_);
            job_.reset();
        }
        search_thread(std::move(job.limits), std::move(job.searchmoves), std::move(job.callbacks));
    }
}

std::optional<std::string> Engine::set_position(const std::string& fen,
                                                const std::vector<std::string>& moves) {
    Position next;
    if (auto err = next.set_fen(fen, chess960_)) return "bad FEN: " + err->message;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        auto m = parse_uci_move(next, moves[i]);
        if (!m)
            return "move " + std::to_string(i + 1) + " '" + moves[i].substr(0, 16) +
                   "' is illegal or malformed in " + next.fen();
        next.make_move(*m);
        ++moves_applied_;
    }
    pos_ = std::move(next);
    return std::nullopt;
}

namespace {

// A move that is not legal in the position, for a message: its squares.
std::string move_squares(Move m) { return square_name(m.from()) + square_name(m.to()); }

} // namespace

std::optional<std::string> Engine::set_position(const Position& start,
                                                std::span<const Move> moves) {
    Position next = start;
    next.set_chess960(chess960_ || start.is_chess960());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!next.is_legal(moves[i]))
            return "move " + std::to_string(i + 1) + " '" + move_squares(moves[i]) +
                   "' is illegal in " + next.fen();
        next.make_move(moves[i]);
        ++moves_applied_;
    }
    pos_ = std::move(next);
    return std::nullopt;
}

std::optional<std::string> Engine::play(Move m) {
    if (!pos_.is_legal(m)) return "move '" + move_squares(m) + "' is illegal in " + pos_.fen();
    pos_.make_move(m);
    ++moves_applied_;
    return std::nullopt;
}

TbLoad Engine::set_syzygy_path(const std::string& path) {
    stop();
    wait();
    TbLoad load = tablebases_.set_path(path);
    // Table scores in the transposition table belong to the tables that gave them.
    tt_.clear();
    return load;
}

void Engine::new_game() {
    stop();
    wait();
    tt_.clear();
    pool_.clear();
}

bool Engine::set_hash(std::size_t mib) {
    stop();
    wait();
    return tt_.resize(mib);
}

void Engine::set_threads(int n) {
    stop();
    wait();
    pool_.set_count(n);
}

void Engine::set_weights(const EvalWeights& weights) {
    stop();
    wait();
    weights_ = weights;
    weights_.params.seal(); // the pawn caches key on the signature
    tt_.clear();
    pool_.clear();
}

void Engine::set_chess960(bool on) {
    chess960_ = on;
    pos_.set_chess960(on || pos_.is_chess960());
}

void Engine::go(const SearchLimits& limits, const std::vector<Move>& searchmoves,
                SearchCallbacks callbacks) {
    stop();
    wait();
    time_.start(limits, pos_.side_to_move(), move_overhead_, pos_.game_ply());
    {
        std::lock_guard lock(mutex_);
        searching_ = true;
        signals_.stop = false;
        signals_.pondering = limits.ponder;
        job_ = Job{limits, searchmoves, std::move(callbacks)};
    }
    if (!worker_.joinable()) worker_ = std::thread(&Engine::worker_loop, this);
    job_cv_.notify_one();
}

void Engine::search_thread(SearchLimits limits, std::vector<Move> searchmoves,
                           SearchCallbacks cb) {
    SearchReport last;
    auto report = [&](const SearchReport& r) {
        if (r.multipv == 1) last = r;
        if (cb.on_report) cb.on_report(r);
    };
    const SearchResult result = pool_.run(pos_, limits, time_, searchmoves, multipv_, report,
                                          &weights_.params);

    // In infinite and ponder searches the bestmove waits for stop (or ponderhit).
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] {
            return signals_.stop.load() || (!limits.infinite && !signals_.pondering.load());
        });
    }
    if (result.best) {
        // The last info line always carries the move played first in its PV.
        last.nodes = result.nodes;
        last.time_ms = time_.search_elapsed_ms();
        last.hashfull = tt_.hashfull();
        last.multipv = 1;
        // A helper that went deeper, or found another move, speaks for the search.
        if (last.pv.empty() || last.pv[0] != result.best || result.depth > last.depth) {
            last.pv = result.pv.empty() ? std::vector<Move>{result.best} : result.pv;
            last.score = result.score;
            last.bound = BOUND_EXACT;
            last.depth = std::max(last.depth, result.depth);
            last.seldepth = std::max(last.seldepth, last.depth);
        }
        if (cb.on_report) cb.on_report(last);
    } else {
        // No legal move: mated or stalemate.
        SearchReport r;
        r.score = pos_.in_check() ? -SCORE_MATE : SCORE_DRAW;
        if (cb.on_report) cb.on_report(r);
    }
    if (cb.on_bestmove) cb.on_bestmove(result.best, result.ponder);
    std::lock_guard lock(mutex_);
    searching_ = false;
    cv_.notify_all();
}

void Engine::stop() {
    std::lock_guard lock(mutex_);
    if (!searching_) return;
    signals_.stop = true;
    signals_.pondering = false;
    cv_.notify_all();
}

void Engine::ponderhit() {
    std::lock_guard lock(mutex_);
    if (!searching_ || !signals_.pondering) return;
    time_.restart();
    signals_.pondering = false;
    cv_.notify_all();
}

void Engine::wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return !searching_; });
}

bool Engine::searching() const {
    std::lock_guard lock(mutex_);
    return searching_;
}

SearchResult Engine::search_sync(const SearchLimits& limits,
                                 const std::function<void(const SearchReport&)>& report) {
    stop();
    wait();
    signals_.stop = false;
    signals_.pondering = false;
    time_.start(limits, pos_.side_to_move(), move_overhead_, pos_.game_ply());
    return pool_.run(pos_, limits, time_, {}, multipv_, report, &weights_.params);
}

} // namespace horizon
