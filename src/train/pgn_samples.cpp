#include "train/pgn_samples.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>
#include <stdexcept>

#include "core/position.hpp"
#include "notation/pgn_reader.hpp"
#include "train/data_line.hpp"
#include "train/datagen.hpp"

namespace horizon {

std::optional<int> comment_score(std::string_view comment) {
    std::size_t i = 0;
    while (i < comment.size() && comment[i] == ' ')
        ++i;
    comment.remove_prefix(i);
    if (comment.empty() || (comment[0] != '+' && comment[0] != '-')) return std::nullopt;
    const bool negative = comment[0] == '-';
    comment.remove_prefix(1);
    double pawns = 0;
    const auto [end, ec] = std::from_chars(comment.data(), comment.data() + comment.size(), pawns,
                                           std::chars_format::fixed);
    if (ec != std::errc() || end == comment.data()) return std::nullopt;
    // The score ends at the depth ("/16"), a blank or the comment's end.
    if (end != comment.data() + comment.size() && *end != '/' && *end != ' ' && *end != ',')
        return std::nullopt;
    if (!std::isfinite(pawns) || pawns > 1000.0) return std::nullopt;
    const int cp = int(std::lround(pawns * 100.0));
    return negative ? -cp : cp;
}

namespace {

// The result as White's points in halves, or nullopt for "*".
std::optional<int> result_halves(std::string_view result) {
    if (result == "1-0") return 2;
    if (result == "0-1") return 0;
    if (result == "1/2-1/2") return 1;
    return std::nullopt;
}

bool normal_end(const PgnGame& game) {
    if (!game.has_tag("Termination")) return true;
    const std::string_view t = game.tag("Termination");
    return t == "normal" || t == "adjudication";
}

} // namespace

PgnSampleSummary pgn_samples(std::istream& in, std::ostream& out, const PgnSampleOptions& options,
                             std::uint64_t first_game) {
    PgnSampleSummary s;
    PgnReader reader(in, {.comments = true, .variations = false});
    PgnGame game;
    std::string block;
    while (reader.next(game)) {
        ++s.games;
        if (game.error) {
            ++s.unreadable;
            continue;
        }
        const auto result = result_halves(game.result);
        if (!result) {
            ++s.unfinished;
            continue;
        }
        if (!normal_end(game)) {
            ++s.abnormal;
            continue;
        }
        if (options.distinct) {
            std::string key = game.start.fen();
            key += ' ';
            key += std::to_string(*result);
            for (const PgnMove& m : game.moves.moves) {
                key += ' ';
                key += std::to_string(m.move.raw());
            }
            if (!options.distinct->insert(std::move(key)).second) {
                ++s.repeats;
                continue;
            }
        }
        block.clear();
        std::uint64_t written = 0;
        Position pos = game.start;
        int ply = 0;
        for (const PgnMove& m : game.moves.moves) {
            if (m.move == Move::null()) break; // a passed move: what follows is no game position
            if (ply >= options.skip_plies && !pos.has_insufficient_material()) {
                const auto score = comment_score(m.comment_after);
                if (score && std::abs(*score) <= options.max_score &&
                    is_quiet_sample(pos, m.move, *score)) {
                    const int white = pos.side_to_move() == WHITE ? *score : -*score;
                    append_data_line(block, pos.fen(), white, *result);
                    ++written;
                }
            }
            pos.make_move(m.move);
            ++ply;
        }
        if (!written) continue;
        append_game_end(block, first_game + s.used);
        out << block;
        ++s.used;
        s.positions += written;
    }
    return s;
}

PgnSampleSummary write_pgn_samples(const std::vector<std::string>& inputs, const std::string& out,
                                   int skip_plies, bool distinct_games,
                                   const PgnSampleFileReport& on_file) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(out, ec))
        throw std::invalid_argument(out + " exists; --from-pgn writes a new file");
    const std::string temporary = out + ".part";
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) throw std::invalid_argument("cannot write " + temporary);
    file << comment_line("horizon datagen --from-pgn, skip-plies " + std::to_string(skip_plies) +
                         (distinct_games ? ", distinct games" : ""))
         << "\n";
    std::set<std::string> seen;
    PgnSampleOptions options;
    options.skip_plies = skip_plies;
    if (distinct_games) options.distinct = &seen;
    PgnSampleSummary total;
    for (const std::string& path : inputs) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            file.close();
            fs::remove(temporary, ec);
            throw std::invalid_argument("cannot read " + path);
        }
        const PgnSampleSummary s = pgn_samples(in, file, options, total.used);
        if (on_file) on_file(path, s);
        total.games += s.games;
        total.used += s.used;
        total.unreadable += s.unreadable;
        total.unfinished += s.unfinished;
        total.abnormal += s.abnormal;
        total.repeats += s.repeats;
        total.positions += s.positions;
    }
    file.close();
    if (!file) {
        fs::remove(temporary, ec);
        throw std::runtime_error("cannot write " + temporary);
    }
    fs::rename(temporary, out);
    return total;
}

} // namespace horizon
