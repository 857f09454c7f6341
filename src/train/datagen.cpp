#include "train/datagen.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/position.hpp"
#include "core/random.hpp"
#include "engine/engine.hpp"
#include "movegen/movegen.hpp"
#include "train/data_line.hpp"

namespace horizon {

namespace {

using Clock = std::chrono::steady_clock;

// Openings: this many uniformly random plies (the lower bound or one more), then a short
// search that must find the position roughly level.
constexpr int OPENING_PLIES_MIN = 8;
constexpr int OPENING_MAX_ATTEMPTS = 100000;

// Positions of the first plies (from the start position) are not written.
constexpr int FIRST_WRITTEN_PLY = 16;

// Adjudication, scores from White's point of view.
constexpr Score WIN_SCORE = 1000;
constexpr int WIN_PLIES = 4;
constexpr int DRAW_FROM_PLY = 80;
constexpr Score DRAW_SCORE = 10;
constexpr int DRAW_PLIES = 10;
constexpr int MAX_GAME_PLIES = 400;

constexpr std::string_view HEADER_TITLE = "horizon datagen";

// ---------------------------------------------------------------------------------------
// Random numbers: splitmix64, so that what a game draws depends on (seed, game number) alone
// and is the same on every platform. A game draws from two streams: its opening, and which of
// its candidate positions are written (--per-game); neither changes the other.

enum class Stream { OPENING, SAMPLES };

class Rng {
public:
    Rng(std::uint64_t seed, std::uint64_t game, Stream stream) {
        std::uint64_t s = seed;
        std::uint64_t mixed = splitmix64(s) ^ game;
        state_ = splitmix64(mixed);
        if (stream == Stream::SAMPLES) {
            std::uint64_t apart = state_ ^ 1;
            state_ = splitmix64(apart);
        }
    }
    std::uint64_t next() { return splitmix64(state_); }
    // Uniform in [0, n), n > 0 (the bias of a 64-bit modulo is negligible here).
    std::size_t below(std::size_t n) { return std::size_t(next() % n); }

private:
    std::uint64_t state_ = 0;
};

// ---------------------------------------------------------------------------------------
// One game.

using Sample = std::pair<std::string, Score>; // FEN, White's score

struct GameRecord {
    std::uint64_t number = 0;
    std::vector<Sample> positions;
    int result = 1; // 2 White won, 1 draw, 0 Black won
    GameEnd end = GameEnd::PLY_CAP;
    int plies = 0;
    std::uint64_t searches = 0, search_nodes = 0, max_search_nodes = 0;
};

// Keeps `k` of `samples` in their order, each choice of k equally likely (selection sampling:
// the i-th of n is kept with chance (still wanted) / (n - i)); all of them when k is 0 or they
// are no more than k.
void keep_random(std::vector<Sample>& samples, std::uint64_t k, Rng& rng) {
    if (k == 0 || samples.size() <= k) return;
    const std::size_t n = samples.size();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n && kept < k; ++i) {
        if (rng.below(n - i) >= k - kept) continue;
        if (kept != i) samples[kept] = std::move(samples[i]);
        ++kept;
    }
    samples.resize(kept);
}

bool has_legal_move(const Position& pos) {
    MoveList list;
    generate<GenType::ALL>(pos, list);
    return !list.empty();
}

// The engine's position: `pos` as the first position of a game, without the moves that led to
// it (the random opening plies are no part of what the engine searches from).
void start_game_at(Engine& engine, const Position& pos) {
    Position start = pos;
    start.forget_history();
    if (auto err = engine.set_position(start))
        throw std::logic_error("datagen: the engine refused its own position: " + *err);
}

SearchResult search_nodes(Engine& engine, std::uint64_t nodes) {
    SearchLimits limits;
    limits.nodes = nodes;
    return engine.search_sync(limits, [](const SearchReport&) {});
}

// A random opening of 8 or 9 plies that a short search finds level; the engine is left
// with a fresh game at it (its table holds that short search). The position returned keeps
// the opening's moves, for the draw rules of the game.
Position balanced_opening(Engine& engine, Rng& rng, const DatagenOptions& options) {
    for (int attempt = 0; attempt < OPENING_MAX_ATTEMPTS; ++attempt) {
        Position pos;
        const int plies = OPENING_PLIES_MIN + int(rng.next() & 1);
        bool playable = true;
        for (int i = 0; i < plies && playable; ++i) {
            MoveList list;
            generate<GenType::ALL>(pos, list);
            if (list.empty())
                playable = false;
            else
                pos.make_move(list[rng.below(list.size())]);
        }
        if (!playable || !has_legal_move(pos)) continue;
        engine.new_game();
        start_game_at(engine, pos);
        const SearchResult r = search_nodes(engine, options.balance_nodes);
        if (std::abs(r.score) <= options.max_imbalance) return pos;
    }
    throw std::runtime_error("datagen: no balanced opening found");
}

// How the game stands before a move is searched: over (and how), or nullopt to play on.
std::optional<std::pair<GameEnd, int>> game_over(const Position& pos) {
    if (!has_legal_move(pos)) {
        if (!pos.in_check()) return std::pair{GameEnd::STALEMATE, 1};
        return std::pair{GameEnd::CHECKMATE, pos.side_to_move() == WHITE ? 0 : 2};
    }
    if (pos.is_fifty_move_draw()) return std::pair{GameEnd::FIFTY_MOVES, 1};
    if (pos.has_insufficient_material()) return std::pair{GameEnd::INSUFFICIENT_MATERIAL, 1};
    if (pos.is_repetition(0)) return std::pair{GameEnd::REPETITION, 1}; // third occurrence
    if (pos.game_ply() >= MAX_GAME_PLIES) return std::pair{GameEnd::PLY_CAP, 1};
    return std::nullopt;
}

// Plays game `number`; nullopt when `stop` was raised before it ended.
std::optional<GameRecord> play_game(Engine& engine, std::uint64_t number,
                                    const DatagenOptions& options, const std::atomic<bool>& stop) {
    Position pos = game_opening(engine, options, number);

    GameRecord game;
    game.number = number;
    // `pos` is the whole game, the opening's random plies included, for the draw rules; the
    // engine holds the same position from the opening on (balanced_opening left it there) and
    // is given each move played.
    int white_ahead = 0, black_ahead = 0, level = 0; // consecutive plies of each verdict
    std::map<std::string, std::size_t> sampled;      // FEN -> its index in game.positions

    for (;;) {
        if (stop.load(std::memory_order_relaxed)) return std::nullopt;
        if (const auto over = game_over(pos)) {
            game.end = over->first;
            game.result = over->second;
            break;
        }
        const SearchResult r = search_nodes(engine, options.nodes);
        if (!r.best) throw std::logic_error("datagen: the search found no move in " + pos.fen());
        ++game.searches;
        game.search_nodes += r.nodes;
        game.max_search_nodes = std::max(game.max_search_nodes, r.nodes);

        const Score white = pos.side_to_move() == WHITE ? r.score : -r.score;
        if (pos.game_ply() >= FIRST_WRITTEN_PLY)
            if (auto fen = sample_fen(pos, r, options.resolve)) {
                // Lines resolved from consecutive plies often end in the same position (an
                // exchange, searched before, during and after it): it is written once, with
                // the score of the search that started nearest to it, the last.
                const auto [at, added] = sampled.try_emplace(*fen, game.positions.size());
                if (added)
                    game.positions.emplace_back(std::move(*fen), white);
                else
                    game.positions[at->second].second = white;
            }

        white_ahead = white >= WIN_SCORE ? white_ahead + 1 : 0;
        black_ahead = white <= -WIN_SCORE ? black_ahead + 1 : 0;
        level = pos.game_ply() >= DRAW_FROM_PLY && std::abs(white) <= DRAW_SCORE ? level + 1 : 0;
        if (white_ahead >= WIN_PLIES || black_ahead >= WIN_PLIES) {
            game.end = GameEnd::ADJUDICATED_WIN;
            game.result = white_ahead >= WIN_PLIES ? 2 : 0;
            break;
        }
        if (level >= DRAW_PLIES) {
            game.end = GameEnd::ADJUDICATED_DRAW;
            game.result = 1;
            break;
        }

        if (auto err = engine.play(r.best))
            throw std::logic_error("datagen: the engine refused its own move: " + *err);
        pos.make_move(r.best);
    }
    game.plies = pos.game_ply();
    Rng rng(options.seed, number, Stream::SAMPLES);
    keep_random(game.positions, options.per_game, rng);
    return game;
}

std::string game_block(const GameRecord& game) {
    std::string text;
    for (const auto& [fen, score] : game.positions)
        append_data_line(text, fen, score, game.result);
    append_game_end(text, game.number);
    return text;
}

// ---------------------------------------------------------------------------------------
// The file: what a previous run left, and where it may be cut.

// The weights the games are played with, by signature: a file is only resumed with them.
std::string weights_tag(const DatagenOptions& o) {
    const std::uint64_t sig = (o.weights ? *o.weights : builtin_weights()).params.signature;
    char text[40];
    std::snprintf(text, sizeof text, ", weights %016llx", static_cast<unsigned long long>(sig));
    return text;
}

// The imbalance bound, when it is not the default (files made before it could be set have none).
std::string imbalance_tag(const DatagenOptions& o) {
    if (o.max_imbalance == DatagenOptions{}.max_imbalance) return "";
    return ", max-imbalance " + std::to_string(o.max_imbalance);
}

// Which positions of a game are written, when not every candidate (likewise: older files have
// none of it).
std::string sampling_tag(const DatagenOptions& o) {
    std::string tag;
    if (o.per_game) tag += ", per-game " + std::to_string(o.per_game);
    if (o.resolve == SampleResolve::PV) tag += ", resolve pv";
    return tag;
}

std::string header_line(const DatagenOptions& o) {
    return comment_line(std::string(HEADER_TITLE) + ": seed " + std::to_string(o.seed) +
                        ", nodes " + std::to_string(o.nodes) + ", balance-nodes " +
                        std::to_string(o.balance_nodes) + imbalance_tag(o) + ", hash " +
                        std::to_string(o.hash_mib) + " MiB" + weights_tag(o) + sampling_tag(o));
}

struct Existing {
    std::set<std::uint64_t> games;
    std::uint64_t positions = 0;
    std::uint64_t keep = 0; // bytes up to the end of the last complete game (or header)
    std::uint64_t size = 0;
    bool has_header = false;
};

Existing scan_existing(const std::string& path, const std::string& header) {
    Existing e;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return e;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    e.size = std::filesystem::file_size(path, ec);
    const auto refuse = [&](std::uint64_t line_no, const std::string& why) {
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + why +
                                 "; refusing to append to it (use another --out)");
    };

    std::string line;
    DataLine data;
    std::uint64_t offset = 0, line_no = 0, block_positions = 0;
    while (std::getline(in, line)) {
        ++line_no;
        const bool complete = !in.eof(); // ended by a newline
        offset += line.size() + (complete ? 1 : 0);
        if (!complete) {
            // A line cut short by a stopped run; it must still look like ours.
            if (line_no == 1 && header.compare(0, line.size(), line) != 0)
                refuse(line_no, "not a horizon datagen file");
            break;
        }
        if (line_no == 1) {
            if (line.rfind(comment_line(HEADER_TITLE), 0) != 0)
                refuse(line_no, "not a horizon datagen file");
            if (line != header)
                refuse(line_no,
                       "made with other settings ('" + line + "', this run: '" + header + "')");
            e.has_header = true;
            e.keep = offset;
            continue;
        }
        switch (line_kind(line)) {
        case LineKind::GAME_END: {
            std::uint64_t g = 0;
            if (auto err = read_game_end(line, g)) refuse(line_no, *err);
            e.games.insert(g);
            e.positions += block_positions;
            block_positions = 0;
            e.keep = offset;
            break;
        }
        case LineKind::POSITION:
            if (auto err = read_data_line(line, data))
                refuse(line_no, "unexpected line '" + line.substr(0, 80) + "' (" + *err + ")");
            ++block_positions;
            break;
        case LineKind::BLANK:
        case LineKind::COMMENT:
            break;
        }
    }
    return e;
}

// ---------------------------------------------------------------------------------------
// The run: workers claim game numbers, the writer puts finished games into the file in
// game-number order.

class Run {
public:
    Run(const DatagenOptions& options, Existing existing, std::ofstream& out)
        : options_(options), done_(std::move(existing.games)), out_(out),
          file_positions_(existing.positions) {
        summary_.resumed_games = done_.size();
        summary_.resumed_positions = existing.positions;
        skip_done(next_claim_);
        skip_done(next_write_);
        if (targets_met()) stop_ = true;
    }

    // The next game to play, or nullopt when there is nothing left to start.
    std::optional<std::uint64_t> claim() {
        std::lock_guard lock(mutex_);
        if (stop_ || !in_range(next_claim_)) return std::nullopt;
        const std::uint64_t g = next_claim_++;
        skip_done(next_claim_);
        return g;
    }

    // A finished game: written at once if it is next in order, else held until it is.
    void finish(GameRecord game) {
        std::lock_guard lock(mutex_);
        if (stop_) return;
        pending_.emplace(game.number, std::move(game));
        for (auto it = pending_.find(next_write_); it != pending_.end() && !stop_;
             it = pending_.find(next_write_)) {
            write(it->second);
            pending_.erase(it);
            ++next_write_;
            skip_done(next_write_);
            if (targets_met()) stop_ = true;
        }
        if (stop_) pending_.clear();
    }

    void fail(std::exception_ptr e) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = e;
        stop_ = true;
        progress_cv_.notify_all();
    }

    void worker_done() {
        std::lock_guard lock(mutex_);
        ++workers_done_;
        progress_cv_.notify_all();
    }

    const std::atomic<bool>& stop_flag() const { return stop_; }

    // Reports progress until every worker has returned (and once more then); then rethrows a
    // worker's error.
    void watch(int workers, const DatagenCallbacks& callbacks) {
        std::unique_lock lock(mutex_);
        for (bool finished = false; !finished;) {
            finished = progress_cv_.wait_for(lock, callbacks.interval,
                                             [&] { return workers_done_ >= workers; });
            const DatagenProgress now = progress();
            if (callbacks.on_progress) {
                lock.unlock();
                callbacks.on_progress(now);
                lock.lock();
            }
        }
        if (error_) std::rethrow_exception(error_);
    }

    DatagenSummary summary() {
        std::lock_guard lock(mutex_);
        summary_.seconds = elapsed();
        return summary_;
    }

private:
    bool in_range(std::uint64_t g) const { return !options_.games || g < options_.games; }

    void skip_done(std::uint64_t& g) const {
        while (done_.count(g))
            ++g;
    }

    bool targets_met() const {
        if (options_.games && next_write_ >= options_.games) return true;
        return options_.positions && file_positions_ >= options_.positions;
    }

    void write(const GameRecord& game) {
        out_ << game_block(game);
        out_.flush();
        if (!out_) throw std::runtime_error("cannot write " + options_.out);
        file_positions_ += game.positions.size();
        summary_.games += 1;
        summary_.positions += game.positions.size();
        summary_.plies += std::uint64_t(game.plies);
        summary_.ends[std::size_t(game.end)] += 1;
        (game.result == 2   ? summary_.white_wins
         : game.result == 1 ? summary_.draws
                            : summary_.black_wins) += 1;
        summary_.searches += game.searches;
        summary_.search_nodes += game.search_nodes;
        summary_.max_search_nodes = std::max(summary_.max_search_nodes, game.max_search_nodes);
    }

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

    DatagenProgress progress() const {
        DatagenProgress p;
        p.file_games = summary_.resumed_games + summary_.games;
        p.file_positions = file_positions_;
        p.games = summary_.games;
        p.positions = summary_.positions;
        p.elapsed = elapsed();
        return p;
    }

    const DatagenOptions& options_;
    const std::set<std::uint64_t> done_; // games already in the file
    std::ofstream& out_;
    std::mutex mutex_;
    std::condition_variable progress_cv_;
    std::atomic<bool> stop_{false};
    std::uint64_t next_claim_ = 0, next_write_ = 0;
    std::map<std::uint64_t, GameRecord> pending_;
    std::uint64_t file_positions_ = 0;
    DatagenSummary summary_;
    std::exception_ptr error_;
    int workers_done_ = 0;
    const Clock::time_point start_ = Clock::now();
};

void work(Run& run, const DatagenOptions& options) {
    try {
        const std::unique_ptr<Engine> owned = make_datagen_engine(options);
        Engine& engine = *owned;
        while (const auto g = run.claim()) {
            if (auto game = play_game(engine, *g, options, run.stop_flag()))
                run.finish(std::move(*game));
        }
    } catch (...) {
        run.fail(std::current_exception());
    }
    run.worker_done();
}

} // namespace

Position game_opening(Engine& engine, const DatagenOptions& options, std::uint64_t game) {
    Rng rng(options.seed, game, Stream::OPENING);
    return balanced_opening(engine, rng, options);
}

std::unique_ptr<Engine> make_datagen_engine(const DatagenOptions& options) {
    auto engine = std::make_unique<Engine>();
    if (options.weights) engine->set_weights(*options.weights);
    if (!engine->set_hash(std::size_t(options.hash_mib)))
        throw std::runtime_error("cannot allocate " + std::to_string(options.hash_mib) +
                                 " MiB of hash");
    return engine;
}

bool is_quiet_sample(const Position& pos, Move played, int score) {
    return !pos.in_check() && !pos.is_capture_or_promotion(played) && !is_mate_score(score);
}

std::optional<Position> resolve_pv(const Position& root, const std::vector<Move>& pv) {
    Position pos = root;
    for (std::size_t i = 0; i < pv.size() && int(i) < RESOLVE_MAX_PLIES; ++i) {
        const Move m = pv[i];
        if (!pos.is_legal(m)) return std::nullopt;
        const bool noisy = pos.in_check() || pos.is_capture_or_promotion(m) || pos.gives_check(m);
        if (!noisy) break;
        pos.make_move(m);
    }
    if (pos.in_check() || !has_legal_move(pos)) return std::nullopt;
    return pos;
}

std::optional<std::string> sample_fen(const Position& pos, const SearchResult& r,
                                      SampleResolve resolve) {
    switch (resolve) {
    case SampleResolve::NONE:
        if (!is_quiet_sample(pos, r.best, r.score)) return std::nullopt;
        return pos.fen();
    case SampleResolve::PV: {
        if (is_mate_score(r.score)) return std::nullopt;
        const auto end = resolve_pv(pos, r.pv.empty() ? std::vector<Move>{r.best} : r.pv);
        if (!end) return std::nullopt;
        return end->fen();
    }
    }
    return std::nullopt;
}

DatagenSummary run_datagen(const DatagenOptions& options, const DatagenCallbacks& callbacks) {
    if (options.out.empty()) throw std::runtime_error("no output file");
    if (options.threads < 1) throw std::runtime_error("threads must be at least 1");
    const std::string header = header_line(options);
    Existing existing = scan_existing(options.out, header);
    DatagenResume resume{existing.games.size(), existing.positions, 0};
    if (existing.keep < existing.size) {
        std::error_code ec;
        std::filesystem::resize_file(options.out, existing.keep, ec);
        if (ec) throw std::runtime_error("cannot truncate " + options.out + ": " + ec.message());
        resume.dropped_bytes = existing.size - existing.keep;
    }
    if (callbacks.on_resume) callbacks.on_resume(resume);

    std::ofstream out(options.out, std::ios::binary | std::ios::app);
    if (!out) throw std::runtime_error("cannot open " + options.out + " for writing");
    if (!existing.has_header) {
        out << header << '\n';
        out.flush();
        if (!out) throw std::runtime_error("cannot write " + options.out);
    }

    Run run(options, std::move(existing), out);
    std::vector<std::thread> workers;
    for (int i = 0; i < options.threads; ++i)
        workers.emplace_back([&run, &options] { work(run, options); });
    try {
        run.watch(options.threads, callbacks);
    } catch (...) {
        run.fail(std::current_exception()); // stops the workers, if a callback threw
        for (auto& t : workers)
            t.join();
        throw;
    }
    for (auto& t : workers)
        t.join();
    return run.summary();
}

} // namespace horizon
