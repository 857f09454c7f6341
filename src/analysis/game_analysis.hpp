// Game analysis: every position of a game searched, every move judged by what it costs in
// expected result (the WDL model, not raw centipawns), and the game annotated in PGN with
// "[%eval ...]" comments, "?!" / "?" / "??" marks, the better line as a variation and a
// summary per player.
//
// A move's cost: the position before it is searched (score s0, best move b, side to move's
// view) and so is the position after it (score s1, the opponent's view). Its expected result
// before is E(s0) and after is E(-s1), E = win + draw / 2 from the WDL model at the position's
// material; the loss is E(s0) - E(-s1), at least 0, and 0 when the move played is b.
//
// With Syzygy tables set on the engine, each position they hold also gets their verdict, and
// it overrules the evaluation: a move that turns a table win into a draw or a loss, or a draw
// into a loss, for the side that moved is a blunder (the fifty-move rule honoured: a cursed
// win counts as a draw, a blessed loss too). Between positions of the same verdict, or where
// the tables hold only one of them, the evaluation judges as without tables.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.hpp"
#include "core/types.hpp"
#include "engine/engine.hpp"
#include "eval/tablebases.hpp"
#include "eval/wdl.hpp"
#include "notation/pgn.hpp"

namespace horizon {

enum class Judgement { GOOD, INACCURACY, MISTAKE, BLUNDER, COUNT };

// Expected result lost by a move, per mille of a point, from which it is marked.
struct JudgementThresholds {
    static constexpr int INACCURACY = 50; // ?!  a twentieth of a point
    static constexpr int MISTAKE = 100;   // ?   a tenth
    static constexpr int BLUNDER = 200;   // ??  a fifth
};

Judgement judge_loss(int loss_permille);
// "inaccuracy", "mistake", "blunder" ("" for GOOD), and the NAG: 6 (?!), 2 (?), 4 (??), 0.
const char* judgement_name(Judgement j);
int judgement_nag(Judgement j);

// Win + draw / 2, per mille (rounded down to a whole per mille).
int expected_permille(const Wdl& wdl);

// The expected result a move loses (at least 0): `before` and `after` are scores from the
// mover's point of view, each judged at the material of its own position.
int move_loss_permille(const WdlModel& model, Score before, int material_before, Score after,
                       int material_after);

// A table verdict as a result, the fifty-move rule honoured: 1 a win, 0 a draw (a cursed win
// and a blessed loss too), -1 a loss.
int tb_outcome(TbWdl wdl);

// The verdict of the engine's tables on `pos` (side to move's view), nullopt without tables
// or when they do not hold it.
std::optional<TbProbe> table_result(const Engine& engine, const Position& pos);

// "table: win, DTZ 17" (side to move's view): the verdict beside a position's best lines.
std::string table_note(const TbProbe& probe);

// The value of a move's "[%table ...]" comment: the verdict on the position the move leaves,
// for its side to move, "Black: draw, DTZ 0".
std::string table_command_value(const TbProbe& probe, Color side_to_move);

// A score for the loss in centipawns: mates count as this many centipawns.
constexpr int CP_LOSS_CAP = 1000;

// A searched position, from its side to move's point of view.
struct PositionEval {
    Score score = 0;
    Wdl wdl;
    int depth = 0; // 0: not searched (no legal move: checkmate or stalemate)
    std::uint64_t nodes = 0;
    std::vector<Move> pv;
    std::optional<TbProbe> table; // the tables' verdict, where they hold the position
};

struct MoveJudgement {
    Move played;
    Move best;        // the search's best move in the position before
    Score before = 0; // the mover's point of view, before and after the move
    Score after = 0;
    int loss_cp = 0;       // max(0, before - after), each capped at +-CP_LOSS_CAP
    int loss_permille = 0; // expected result lost
    Judgement judgement = Judgement::GOOD;
    // The tables judged it: their verdict got worse for the mover (loss_permille is then what
    // the tables say was lost: 500 a step, win to draw or draw to loss).
    bool by_table = false;
};

struct PlayerSummary {
    int moves = 0;
    std::int64_t loss_cp = 0;       // summed
    std::int64_t loss_permille = 0; // summed
    std::array<int, std::size_t(Judgement::COUNT)> counts{};

    double average_cp() const { return moves ? double(loss_cp) / moves : 0.0; }
    double average_permille() const { return moves ? double(loss_permille) / moves : 0.0; }
    PlayerSummary& operator+=(const PlayerSummary& o);
    // "average loss 23 cp (3.1% of a point), 2 inaccuracies, 1 mistake, 0 blunders"
    std::string text() const;
};

struct GameAnalysis {
    std::vector<PositionEval> positions; // one per position of the main line: moves + 1
    std::vector<MoveJudgement> moves;
    std::array<PlayerSummary, COLOR_NB> players{};
    double search_seconds = 0; // wall-clock time spent in searches
    // Per move, the words of its explanation ("" for none; empty: the game not explained),
    // written after the move's "[%eval]" by annotate_game.
    std::vector<std::string> explanations;
};

// Searches every position of the game's main line with `limits` (the engine's threads, hash
// and weights as set). `on_position(done, total)` follows each search. The engine is handed
// the start position once and then one move per ply (Engine::play): linear in the game's
// length.
std::vector<PositionEval> search_game(Engine& engine, const PgnGame& game,
                                      const SearchLimits& limits, double& search_seconds,
                                      const std::function<void(int, int)>& on_position = {});

// Judges the game's moves from its searched positions and their table verdicts (pure: no
// search).
GameAnalysis judge_game(const PgnGame& game, std::vector<PositionEval> positions,
                        const WdlModel& model);

// search_game and judge_game.
GameAnalysis analyze_game(Engine& engine, const PgnGame& game, const SearchLimits& limits,
                          const std::function<void(int, int)>& on_position = {});

// "0.25", "-1.30" (pawns, two decimals), "#3" (White mates in 3), "#-2", "#0" / "#-0"
// (Black / White is checkmated): the value of a "[%eval ...]" command, from White's view.
std::string eval_text(Score white_score);
// The same with a '+' before a positive score in pawns: "+1.20", "-0.35", "0.00", "#3" (the
// tables of `analyze` and `epd`).
std::string signed_eval_text(Score white_score);
// The inverse of eval_text, as far as a mate goes: "#3" reads as a mate score of that sign.
std::optional<Score> parse_eval_text(std::string_view text);

struct AnnotateOptions {
    std::string annotator; // the Annotator tag
    std::string limits;    // e.g. "100 ms a move", for the summary comment
    std::size_t better_line_plies = 10;
};

// Writes the analysis into the game: "[%eval]" before the first move (the start position)
// and after every move (the position it leaves), with "[%table ...]" beside it where the
// tables hold the position, the judgement's NAG (replacing any "!", "?"
// ... NAG the move had), the better line as the move's last variation, the Annotator tag and
// the per-player summary as the game's closing comment (which, read back, is the last move's
// comment when that move has no variation).
void annotate_game(PgnGame& game, const GameAnalysis& analysis, const AnnotateOptions& options);

// "White (Fischer, Robert James): average loss ..." for both players, one line each.
std::string summary_lines(const PgnGame& game, const GameAnalysis& analysis);

} // namespace horizon
