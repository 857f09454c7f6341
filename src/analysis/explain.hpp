// Explanations of bad moves: what a move marked "?" or "??" (or "?!") allows or gives up, in
// plain words, built only from what the search and the evaluation found. Each sentence names
// only moves and pieces of the lines it prints, which stand in the comment beside it:
//
//   - the refutation (the search's line after the move played): a mate it finds, the table
//     verdict the move turned, the material it wins (which piece, on which square, by which
//     move), a piece it traps;
//   - the threat the move ignored: the opponent allowed to move twice (a null move in the
//     position before the move), what that line wins, when the refutation wins as much;
//   - the threat the move lets the opponent create: the refutation's first move, when it is
//     quiet, and what the opponent would win with a second move in a row after it;
//   - otherwise the evaluation groups (king safety, pawn structure, ...) that differ most
//     between the end of the line played and the end of the better line, with their sizes.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "analysis/game_analysis.hpp"
#include "core/position.hpp"
#include "engine/engine.hpp"
#include "eval/params.hpp"

namespace horizon {

// The groups the evaluation's terms are reported in. Every term of terms.def has one (a new
// term without one does not compile: see term_group).
enum class EvalGroup {
    MATERIAL,
    KING_SAFETY,
    PAWN_STRUCTURE,
    PASSED_PAWNS,
    ACTIVITY, // piece placement and mobility
    SPACE,
    THREATS,
    OTHER, // tempo, mop-up, complexity: never named in an explanation
    COUNT
};
constexpr int EVAL_GROUP_COUNT = int(EvalGroup::COUNT);

EvalGroup term_group(Term t);
// "king safety", "pawn structure", "passed pawns", "piece activity", ...
const char* eval_group_name(EvalGroup g);

// Each group's part of the evaluation of `pos`, in centipawns from `view`'s side: the
// evaluation less the evaluation with that group's weights set to 0 (king danger and
// complexity are not linear, so the parts need not add up to the whole).
std::array<int, EVAL_GROUP_COUNT> group_parts(const Position& pos, const EvalParams& params,
                                              Color view);

// Material in centipawns for explanations: pawn 100, knight and bishop 300, rook 500, queen
// 900 (round figures a reader can check, not the tuned weights).
int plain_value(PieceType pt);
// "pawn", "knight", ..., "queen", "king".
const char* piece_word(PieceType pt);

// A capture (or promotion) in a line.
struct LineCapture {
    std::size_t ply = 0; // index of the move in the line
    Move move;
    Color by = WHITE;
    PieceType taken = NO_PIECE_TYPE; // NO_PIECE_TYPE for a promotion without capture
    Square square = A1;
    PieceType promotion = NO_PIECE_TYPE;
    std::string san; // numbered: "3... Qxg5"
};

// What a line does to the material: its captures and promotions, and the balance change for
// each side (plain values) after the whole line.
struct LineMaterial {
    std::vector<Move> moves; // the legal prefix of the line that was walked
    std::vector<LineCapture> captures;
    int gain(Color c) const;         // material gained by `c` net of what it lost
    std::array<int, COLOR_NB> won{}; // captured by each side, promotions included
};

// Walks `line` from `pos` (its legal prefix, at most `max_plies` moves, then on while moves
// capture so that an exchange is not cut in the middle, up to `max_plies` + 4).
LineMaterial line_material(const Position& pos, const std::vector<Move>& line,
                           std::size_t max_plies);

// "pawn's worth", "3 pawns' worth" for an amount of material.
std::string worth_text(int cp);

// What a piece trapped by a line looks like: the piece, on its square, attacked after the
// opponent's move at `ply`, with no move that keeps it (every move of it loses it by SEE,
// and it cannot stay). Found by trapped_piece.
struct TrappedPiece {
    PieceType piece = NO_PIECE_TYPE;
    Square square = A1;
    std::size_t ply = 0; // the opponent's move of the line after which it is trapped
};

// The piece of `victim` that the line's captures take and that was trapped first (see
// TrappedPiece), if any: a knight, bishop, rook or queen.
std::optional<TrappedPiece> trapped_piece(const Position& pos, const LineMaterial& line,
                                          Color victim);

enum class ExplanationKind { NONE, MATE, TABLE, MATERIAL, THREAT, GROUPS };
const char* explanation_kind_name(ExplanationKind k);

struct Explanation {
    std::string text;                             // the comment's words ("" for none)
    ExplanationKind kind = ExplanationKind::NONE; // what decides it (the first sentence)
    bool names_threat = false;                    // a sentence names an ignored threat
    std::string theme; // for puzzles: "mate", "material", "trapped piece", "king safety", ...
};

struct ExplainOptions {
    std::size_t line_plies = 8; // plies of each line walked and printed
    int group_min_cp = 10;      // a group named must differ by at least this much
    int material_min_cp = 100;  // material counts from a pawn's worth
};

// The inputs of one move's explanation: the position before it (its history as in the
// game), the move, the searches before and after it, and its judgement.
struct MoveContext {
    const Position* before = nullptr;
    Move played;
    const PositionEval* eval_before = nullptr;
    const PositionEval* eval_after = nullptr;
    const MoveJudgement* judgement = nullptr;
};

// The threat in `pos` for the side not to move: that side's best line after a null move,
// searched with `limits` (empty when `pos` is in check or the search finds no move).
std::vector<Move> threat_line(Engine& engine, const Position& pos, const SearchLimits& limits);

// The limits of a threat search: about a quarter of the analysis's (two plies less, a
// quarter of the nodes or of the time); a threat worth naming is a short tactic.
SearchLimits threat_limits(const SearchLimits& analysis);

// The threats of one move (either line may be empty): `ignored`, the opponent's line after a
// null move in the position before the move; `created`, the opponent's line after `reply` (the
// refutation's first move, when threatening_reply finds it) and a null move.
struct MoveThreats {
    std::vector<Move> ignored;
    Move reply = Move::none();
    std::vector<Move> created;
};

// The refutation's first move when it is quiet and gives no check: MoveThreats::reply, whose
// threat MoveThreats::created holds (Move::none() when there is none to look for).
Move threatening_reply(const Position& after, const std::vector<Move>& refutation);

// The explanation of one move from its context and its threats. Pure: no search.
Explanation explain_move(const MoveContext& ctx, const MoveThreats& threats,
                         const EvalParams& params, const ExplainOptions& options = {});

// Which moves get an explanation.
enum class ExplainMode { OFF, MISTAKES, ALL }; // ALL: inaccuracies (?!) too

// Called as moves are explained: `done` of `total` moves to explain in this game.
using ExplainProgress = std::function<void(std::size_t done, std::size_t total)>;

// Explains the moves of an analysed game that `mode` selects (one or two threat searches for
// each, with threat_limits(limits)): one explanation per move, empty for the others. Writes the
// texts into `analysis.explanations` for annotate_game; adds the time taken to `seconds`.
std::vector<Explanation> explain_game(Engine& engine, const PgnGame& game, GameAnalysis& analysis,
                                      const SearchLimits& limits, ExplainMode mode, double& seconds,
                                      const ExplainProgress& progress = {});

} // namespace horizon
