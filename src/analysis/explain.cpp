#include "analysis/explain.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "eval/evaluate.hpp"
#include "movegen/movegen.hpp"
#include "notation/san.hpp"

namespace horizon {

namespace {

constexpr const char* GROUP_NAMES[EVAL_GROUP_COUNT] = {
    "material",       "king safety", "pawn structure", "passed pawns",
    "piece activity", "space",       "threats",        "other"};
constexpr const char* KIND_NAMES[] = {"none", "mate", "table", "material", "threat", "groups"};
constexpr std::size_t MAX_EXCHANGE_PLIES = 4; // walked past max_plies while moves capture
constexpr int GROUPS_NAMED = 3;
constexpr std::size_t THREAT_PLIES = 4; // a created threat's line, before an exchange ends

const char* side_name(Color c) { return c == WHITE ? "White" : "Black"; }

// "12. Nd2" or "12... Nxe4": the move with its number, from `pos`.
std::string numbered_san(const Position& pos, Move m) { return moves_to_san(pos, {&m, 1}); }

std::string pawns_text(int cp) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", cp / 100.0);
    return text;
}

// The moves of `pv` legal one after another from `pos`, at most `plies`.
std::vector<Move> legal_prefix(Position pos, const std::vector<Move>& pv, std::size_t plies) {
    std::vector<Move> out;
    for (Move m : pv) {
        if (out.size() >= plies || !m.is_ok() || !pos.is_legal(m)) break;
        out.push_back(m);
        pos.make_move(m);
    }
    return out;
}

// The first `plies` moves of `line` from `pos`, and then more while the last one captured or
// gave check (at most MAX_EXCHANGE_PLIES more): an evaluation is not read in mid-exchange.
std::vector<Move> settled_prefix(Position pos, const std::vector<Move>& line, std::size_t plies) {
    std::vector<Move> out;
    bool unsettled = false;
    for (Move m : line) {
        if (out.size() >= plies + MAX_EXCHANGE_PLIES || (out.size() >= plies && !unsettled)) break;
        unsettled = pos.gives_check(m) || m.type() == EN_PASSANT ||
                    (m.type() != CASTLING && pos.piece_on(m.to()) != NO_PIECE);
        out.push_back(m);
        pos.make_move(m);
    }
    return out;
}

Position after_line(Position pos, const std::vector<Move>& moves) {
    for (Move m : moves)
        pos.make_move(m);
    return pos;
}

int mate_moves(Score s) { return (SCORE_MATE - std::abs(s) + 1) / 2; }

const char* outcome_word(int outcome) {
    return outcome > 0 ? "a win" : outcome < 0 ? "a loss" : "a draw";
}

// "the knight on g5 (3... Qxg5)" for each capture by `by`, joined by commas.
std::string captures_text(const LineMaterial& lm, Color by) {
    std::string out;
    for (const LineCapture& c : lm.captures) {
        if (c.by != by) continue;
        if (!out.empty()) out += ", ";
        if (c.taken != NO_PIECE_TYPE)
            out += std::string("the ") + piece_word(c.taken) + " on " + square_name(c.square);
        if (c.promotion != NO_PIECE_TYPE)
            out += std::string(c.taken != NO_PIECE_TYPE ? " and promotes to a "
                                                        : "a promotion to a ") +
                   piece_word(c.promotion);
        out += " (" + c.san + ")";
    }
    return out;
}

// "Black takes the knight on g5 (3... Qxg5)", and "; White takes ..." when `us` took back too.
std::string exchange_text(const LineMaterial& lm, Color them, Color us) {
    std::string out = side_name(them) + std::string(" takes ") + captures_text(lm, them);
    if (lm.won[us]) out += std::string("; ") + side_name(us) + " takes " + captures_text(lm, us);
    return out;
}

// What a threat line `t` of the opponent's wins, after its moves in a sentence: " (found by
// letting Black move twice), a net gain of 3 pawns' worth for Black: Black takes ...".
std::string threat_gain_text(const LineMaterial& t, Color them, Color us) {
    return std::string(" (found by letting ") + side_name(them) + " move twice), a net gain of " +
           worth_text(t.gain(them)) + " for " + side_name(them) + ": " +
           exchange_text(t, them, us) + ".";
}

// A piece of `victim` on `s` that cannot stay (attacked by a cheaper piece, or attacked and
// not defended) and has no move that SEE calls safe; `victim` is to move.
bool is_trapped(const Position& pos, Square s) {
    if (pos.in_check()) return false; // its moves are then few for another reason
    const Piece p = pos.piece_on(s);
    const Color victim = color_of(p);
    const Bitboard attackers = pos.attackers_to(s) & pos.pieces(~victim);
    if (!attackers) return false;
    const bool defended = (pos.attackers_to(s) & pos.pieces(victim)) != 0;
    bool cheaper = false;
    for (Bitboard b = attackers; b; b &= b - 1)
        cheaper |= plain_value(type_of(pos.piece_on(lsb(b)))) < plain_value(type_of(p));
    if (defended && !cheaper) return false;
    MoveList legal;
    generate<GenType::ALL>(pos, legal);
    for (Move m : legal)
        if (m.from() == s && pos.see_ge(m, 0)) return false;
    return true;
}

} // namespace

EvalGroup term_group(Term t) {
    switch (t) {
    case Term::material:
    case Term::imbalance:
    case Term::knight_pawns:
    case Term::rook_pawns:
    case Term::bishop_pair:
        return EvalGroup::MATERIAL;
    case Term::pawn_shield:
    case Term::pawn_storm:
    case Term::king_open_file:
    case Term::king_semi_open:
    case Term::king_attackers:
    case Term::king_zone_attacks:
    case Term::safe_check:
    case Term::king_weak_squares:
    case Term::king_no_queen:
    case Term::king_danger_base:
    case Term::king_pawn_distance:
    case Term::pawnless_flank:
    case Term::king_flank_attacks:
    case Term::unsafe_check:
    case Term::king_blockers:
    case Term::knight_defender:
    case Term::psqt_king:
        return EvalGroup::KING_SAFETY;
    case Term::psqt_pawn:
    case Term::isolated_pawn:
    case Term::doubled_pawn:
    case Term::backward_pawn:
    case Term::phalanx_pawn:
    case Term::supported_pawn:
    case Term::weak_unopposed:
    case Term::blocked_pawn:
    case Term::doubled_isolated:
        return EvalGroup::PAWN_STRUCTURE;
    case Term::passed_pawn:
    case Term::passed_blocked:
    case Term::passed_free:
    case Term::passed_supported:
    case Term::passed_own_king:
    case Term::passed_their_king:
    case Term::candidate_passer:
    case Term::passed_file:
    case Term::rook_behind_passer:
        return EvalGroup::PASSED_PAWNS;
    case Term::psqt_knight:
    case Term::psqt_bishop:
    case Term::psqt_rook:
    case Term::psqt_queen:
    case Term::mobility_knight:
    case Term::mobility_bishop:
    case Term::mobility_rook:
    case Term::mobility_queen:
    case Term::knight_outpost:
    case Term::bishop_outpost:
    case Term::rook_open_file:
    case Term::rook_semi_open:
    case Term::rook_on_seventh:
    case Term::minor_behind_pawn:
    case Term::bad_bishop:
    case Term::rook_on_queen_file:
    case Term::bishop_long_diagonal:
    case Term::outpost_reachable:
    case Term::minor_king_distance:
    case Term::doubled_rooks:
    case Term::trapped_rook:
    case Term::queen_infiltration:
        return EvalGroup::ACTIVITY;
    case Term::space:
    case Term::restricted:
        return EvalGroup::SPACE;
    case Term::threat_by_pawn:
    case Term::threat_by_minor:
    case Term::threat_by_rook:
    case Term::hanging_piece:
    case Term::pawn_push_threat:
    case Term::threat_by_king:
    case Term::knight_on_queen:
    case Term::slider_on_queen:
    case Term::weak_queen:
        return EvalGroup::THREATS;
    case Term::tempo:
    case Term::mop_up_edge:
    case Term::mop_up_kings:
    case Term::mop_up_corner:
    case Term::complexity:
    case Term::COUNT:
        return EvalGroup::OTHER;
    }
    return EvalGroup::OTHER;
}

const char* eval_group_name(EvalGroup g) { return GROUP_NAMES[int(g)]; }

std::array<int, EVAL_GROUP_COUNT> group_parts(const Position& pos, const EvalParams& params,
                                              Color view) {
    const EvalTrace trace = trace_evaluation(pos);
    const int whole = evaluate_trace(trace, params);
    std::array<int, EVAL_GROUP_COUNT> parts{};
    for (int g = 0; g < EVAL_GROUP_COUNT; ++g) {
        EvalParams without = params;
        for (int t = 0; t < TERM_COUNT; ++t)
            if (term_group(Term(t)) == EvalGroup(g))
                for (int i = TERM_OFFSETS[t]; i < TERM_OFFSETS[t + 1]; ++i)
                    without.weights[std::size_t(i)] = Weight{};
        const int part = whole - evaluate_trace(trace, without);
        parts[std::size_t(g)] = view == WHITE ? part : -part;
    }
    return parts;
}

int plain_value(PieceType pt) {
    static constexpr int VALUES[PIECE_TYPE_NB] = {0, 100, 300, 300, 500, 900, 0};
    return VALUES[pt];
}

const char* piece_word(PieceType pt) {
    static constexpr const char* WORDS[PIECE_TYPE_NB] = {"",     "pawn",  "knight", "bishop",
                                                         "rook", "queen", "king"};
    return WORDS[pt];
}

int LineMaterial::gain(Color c) const { return won[c] - won[~c]; }

LineMaterial line_material(const Position& start, const std::vector<Move>& line,
                           std::size_t max_plies) {
    LineMaterial lm;
    Position pos = start;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const Move m = line[i];
        if (!m.is_ok() || !pos.is_legal(m)) break;
        const bool capture =
            m.type() == EN_PASSANT || (m.type() != CASTLING && pos.piece_on(m.to()) != NO_PIECE);
        if (i >= max_plies && (!capture || i >= max_plies + MAX_EXCHANGE_PLIES)) break;
        LineCapture c;
        c.ply = i;
        c.move = m;
        c.by = pos.side_to_move();
        if (capture) {
            c.taken = m.type() == EN_PASSANT ? PAWN : type_of(pos.piece_on(m.to()));
            c.square = m.to();
        }
        if (m.type() == PROMOTION) {
            c.promotion = m.promotion_type();
            if (!capture) c.square = m.to();
        }
        if (capture || m.type() == PROMOTION) {
            c.san = numbered_san(pos, m);
            lm.won[c.by] += plain_value(c.taken);
            if (c.promotion != NO_PIECE_TYPE)
                lm.won[c.by] += plain_value(c.promotion) - plain_value(PAWN);
            lm.captures.push_back(c);
        }
        lm.moves.push_back(m);
        pos.make_move(m);
    }
    return lm;
}

std::string worth_text(int cp) {
    if (cp % 100 == 0 && std::abs(cp) == 100) return "a pawn's worth";
    char text[48];
    std::snprintf(text, sizeof text, "%g pawns' worth", std::abs(cp) / 100.0);
    return text;
}

std::optional<TrappedPiece> trapped_piece(const Position& start, const LineMaterial& line,
                                          Color victim) {
    struct Watched {
        TrappedPiece piece;
        Square now;
    };
    std::vector<Watched> watched;
    Position pos = start;
    for (std::size_t i = 0; i < line.moves.size(); ++i) {
        const Move m = line.moves[i];
        if (pos.side_to_move() == victim && i > 0) {
            for (Bitboard b = pos.pieces(victim) & ~pos.pieces(PAWN) & ~pos.pieces(KING); b;
                 b &= b - 1) {
                const Square s = lsb(b);
                const bool known = std::any_of(watched.begin(), watched.end(),
                                               [&](const Watched& w) { return w.now == s; });
                if (!known && is_trapped(pos, s))
                    watched.push_back({{type_of(pos.piece_on(s)), s, i - 1}, s});
            }
        }
        if (pos.side_to_move() == victim) {
            for (Watched& w : watched)
                if (w.now == m.from()) w.now = m.to();
        } else {
            for (const Watched& w : watched)
                if (w.now == m.to() && m.type() != CASTLING) return w.piece;
        }
        pos.make_move(m);
    }
    // Trapped at the end of the line, the victim to move: the line need not take it.
    if (pos.side_to_move() == victim && !line.moves.empty())
        for (Bitboard b = pos.pieces(victim) & ~pos.pieces(PAWN) & ~pos.pieces(KING); b; b &= b - 1)
            if (is_trapped(pos, lsb(b)))
                return TrappedPiece{type_of(pos.piece_on(lsb(b))), lsb(b), line.moves.size() - 1};
    return std::nullopt;
}

const char* explanation_kind_name(ExplanationKind k) { return KIND_NAMES[int(k)]; }

SearchLimits threat_limits(const SearchLimits& analysis) {
    constexpr int LESS_DEPTH = 2, SHARE = 4;
    SearchLimits limits;
    if (analysis.depth) limits.depth = std::max(1, analysis.depth - LESS_DEPTH);
    if (analysis.nodes) limits.nodes = std::max<std::uint64_t>(1, analysis.nodes / SHARE);
    if (analysis.movetime) limits.movetime = std::max<std::int64_t>(1, analysis.movetime / SHARE);
    if (!limits.depth && !limits.nodes && !limits.movetime) limits.depth = 1;
    return limits;
}

std::vector<Move> threat_line(Engine& engine, const Position& pos, const SearchLimits& limits) {
    if (pos.in_check()) return {};
    Position passed = pos;
    passed.make_null_move();
    passed.forget_history();
    MoveList legal;
    generate<GenType::ALL>(passed, legal);
    if (legal.empty()) return {};
    if (engine.set_position(passed)) return {};
    const SearchResult r = engine.search_sync(limits, [](const SearchReport&) {});
    std::vector<Move> line = r.pv;
    if (line.empty() && r.best) line.push_back(r.best);
    return line;
}

Move threatening_reply(const Position& after, const std::vector<Move>& refutation) {
    if (refutation.empty() || after.in_check()) return Move::none();
    const Move reply = refutation[0];
    if (!reply.is_ok() || !after.is_legal(reply) || reply.type() == EN_PASSANT ||
        reply.type() == PROMOTION || after.gives_check(reply))
        return Move::none();
    if (reply.type() != CASTLING && after.piece_on(reply.to()) != NO_PIECE) return Move::none();
    return reply;
}

Explanation explain_move(const MoveContext& ctx, const MoveThreats& threats,
                         const EvalParams& params, const ExplainOptions& options) {
    Explanation ex;
    const Position& before = *ctx.before;
    const Color us = before.side_to_move();
    const Color them = ~us;
    Position after = before;
    after.make_move(ctx.played);
    const std::string played_san = numbered_san(before, ctx.played);

    const std::size_t walked = options.line_plies + MAX_EXCHANGE_PLIES;
    const std::vector<Move> refutation = legal_prefix(after, ctx.eval_after->pv, walked);
    std::vector<Move> better = legal_prefix(before, ctx.eval_before->pv, walked);
    if (!better.empty() && better[0] == ctx.played) better.clear();
    const std::string better_san = better.empty() ? "" : numbered_san(before, better[0]);

    std::vector<std::string> sentences;
    const auto set_kind = [&](ExplanationKind k, const char* theme) {
        if (ex.kind == ExplanationKind::NONE) {
            ex.kind = k;
            ex.theme = theme;
        }
    };

    // A mate allowed, or one given up.
    const Score after_them = ctx.eval_after->score; // the opponent's view
    const Score before_us = ctx.eval_before->score;
    if (is_mate_score(after_them) && after_them > 0 && !refutation.empty()) {
        const std::string mate_line = moves_to_san(after, refutation);
        sentences.push_back("It allows mate in " + std::to_string(mate_moves(after_them)) + ": " +
                            mate_line + ".");
        set_kind(ExplanationKind::MATE, "mate");
    } else if (is_mate_score(before_us) && before_us > 0 && !better.empty() &&
               !(is_mate_score(after_them) && after_them < 0)) {
        sentences.push_back("It misses mate in " + std::to_string(mate_moves(before_us)) + ": " +
                            moves_to_san(before, better) + ".");
        set_kind(ExplanationKind::MATE, "mate");
    }

    // The tables' verdict turned.
    if (ctx.judgement->by_table && ctx.eval_before->table && ctx.eval_after->table) {
        const int was = tb_outcome(ctx.eval_before->table->wdl);
        const int now = -tb_outcome(ctx.eval_after->table->wdl);
        sentences.push_back(std::string("The tables: ") + outcome_word(was) + " for " +
                            side_name(us) + " before " + played_san + ", " + outcome_word(now) +
                            " after it.");
        set_kind(ExplanationKind::TABLE, "table");
    }

    // Material: the line played (the move and its refutation) against the better line, each
    // counted from the position before the move.
    std::vector<Move> played_moves{ctx.played};
    played_moves.insert(played_moves.end(), refutation.begin(), refutation.end());
    const LineMaterial played = line_material(before, played_moves, options.line_plies + 1);
    const LineMaterial kept = line_material(before, better, options.line_plies);
    const int given_up = kept.gain(us) - played.gain(us); // by playing the move, not the better
    const bool loses_material =
        played.gain(them) >= options.material_min_cp && given_up >= options.material_min_cp;
    if (loses_material) {
        const std::string taken = exchange_text(played, them, us);
        sentences.push_back("After " + moves_to_san(before, played.moves) + " " + taken +
                            ": a net gain of " + worth_text(played.gain(them)) + " for " +
                            side_name(them) + ".");
        set_kind(ExplanationKind::MATERIAL, "material");
    }
    // A piece the refutation traps (taken in the line or not).
    const LineMaterial lost = line_material(after, refutation, options.line_plies);
    if (const auto trapped = trapped_piece(after, lost, us)) {
        const std::vector<Move> upto(lost.moves.begin(),
                                     lost.moves.begin() + std::ptrdiff_t(trapped->ply + 1));
        sentences.push_back("After " + moves_to_san(after, upto) + " the " +
                            piece_word(trapped->piece) + " on " + square_name(trapped->square) +
                            " is trapped: it cannot stay, and every move of it loses it.");
        set_kind(ExplanationKind::MATERIAL, "trapped piece");
        if (ex.theme == "material") ex.theme = "trapped piece";
    }

    // The threat: what the opponent would win with two moves in a row, when the line played
    // gives up at least as much and the move left it standing (its first move is still there
    // after the move, taking what it took: a move that moved the piece threatened, or took or
    // blocked the attacker, did not ignore the threat, however badly it answered it).
    if (!threats.ignored.empty() && loses_material) {
        Position passed = before;
        passed.make_null_move();
        const Move first = threats.ignored[0];
        const bool standing =
            after.is_legal(first) && after.piece_on(first.to()) == passed.piece_on(first.to());
        const LineMaterial t = line_material(passed, threats.ignored, options.line_plies);
        if (standing && t.gain(them) >= options.material_min_cp &&
            played.gain(them) >= t.gain(them)) {
            sentences.push_back("It ignores the threat " + moves_to_san(passed, t.moves) +
                                threat_gain_text(t, them, us));
            ex.names_threat = true;
        }
    }

    // The threat the reply creates, when nothing above (a mate, material lost, a piece
    // trapped) already tells: what the opponent would win with a second move in a row after
    // the reply, over a short line.
    if (!threats.created.empty() && threats.reply && !loses_material &&
        ex.kind != ExplanationKind::MATE && ex.kind != ExplanationKind::MATERIAL) {
        Position passed = after;
        passed.make_move(threats.reply);
        passed.make_null_move();
        const LineMaterial t =
            line_material(passed, threats.created, std::min(options.line_plies, THREAT_PLIES));
        if (t.gain(them) >= options.material_min_cp) {
            sentences.push_back("It allows " + numbered_san(after, threats.reply) +
                                ", which threatens " + moves_to_san(passed, t.moves) +
                                threat_gain_text(t, them, us));
            ex.names_threat = true;
        }
    }

    // What the better move keeps or wins.
    if (!better.empty() && ex.kind != ExplanationKind::MATE) {
        const int gain = kept.gain(us);
        if (loses_material) {
            sentences.push_back(
                better_san +
                (gain >= 0 ? " keeps the material" : " gives up only " + worth_text(-gain)) + ": " +
                moves_to_san(before, kept.moves) + ".");
        } else if (gain >= options.material_min_cp && given_up >= options.material_min_cp) {
            sentences.push_back(
                "It misses " + moves_to_san(before, kept.moves) + ", where " + side_name(us) +
                " takes " + captures_text(kept, us) + ": a net gain of " + worth_text(gain) +
                ", against " +
                (played.gain(us) > 0 ? worth_text(played.gain(us)) : std::string("none")) +
                " over the line played.");
            set_kind(ExplanationKind::MATERIAL, "material");
        }
    }

    // No mate, table or material: the evaluation groups that differ most at the lines' ends.
    if (ex.kind == ExplanationKind::NONE && !better.empty()) {
        // Lines of one length, as far as both go (the better line as printed).
        std::vector<Move> played_line{ctx.played};
        played_line.insert(played_line.end(), refutation.begin(), refutation.end());
        const std::size_t plies = std::min(played_line.size(), kept.moves.size());
        played_line = settled_prefix(before, played_line, plies);
        better = settled_prefix(before, kept.moves, plies);
        const auto played_parts = group_parts(after_line(before, played_line), params, us);
        const auto better_parts = group_parts(after_line(before, better), params, us);
        std::vector<std::pair<int, EvalGroup>> worse;
        for (int g = 0; g < EVAL_GROUP_COUNT; ++g) {
            const EvalGroup group = EvalGroup(g);
            if (group == EvalGroup::MATERIAL || group == EvalGroup::OTHER) continue;
            const int diff = better_parts[std::size_t(g)] - played_parts[std::size_t(g)];
            if (diff >= options.group_min_cp) worse.emplace_back(diff, group);
        }
        std::sort(worse.begin(), worse.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        if (worse.size() > std::size_t(GROUPS_NAMED)) worse.resize(std::size_t(GROUPS_NAMED));
        if (!worse.empty()) {
            std::string groups;
            for (std::size_t i = 0; i < worse.size(); ++i) {
                if (i) groups += i + 1 == worse.size() ? " and " : ", ";
                groups += std::string(eval_group_name(worse[i].second)) + " (" +
                          pawns_text(worse[i].first) + ")";
            }
            sentences.push_back("After " + moves_to_san(before, played_line) + " " + side_name(us) +
                                " stands worse than after " + moves_to_san(before, better) +
                                " in " + groups + ".");
            ex.kind = ExplanationKind::GROUPS;
            ex.theme = eval_group_name(worse[0].second);
        }
    }

    // Nothing above names it: say what the search found and that the groups do not tell.
    if (sentences.empty()) {
        const int loss = std::max(0, std::clamp(before_us, -CP_LOSS_CAP, CP_LOSS_CAP) -
                                         std::clamp(-after_them, -CP_LOSS_CAP, CP_LOSS_CAP));
        sentences.push_back("The search scores it " + pawns_text(loss) + " below " +
                            (better_san.empty() ? std::string("its best move") : better_san) +
                            "; no material, mate or evaluation group at the lines' ends tells "
                            "the two apart by " +
                            pawns_text(options.group_min_cp) + " or more.");
    }

    for (const std::string& s : sentences) {
        if (!ex.text.empty()) ex.text += ' ';
        ex.text += s;
    }
    std::replace(ex.text.begin(), ex.text.end(), '}', ')');
    return ex;
}

std::vector<Explanation> explain_game(Engine& engine, const PgnGame& game, GameAnalysis& analysis,
                                      const SearchLimits& limits, ExplainMode mode, double& seconds,
                                      const ExplainProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<Explanation> out(analysis.moves.size());
    analysis.explanations.assign(analysis.moves.size(), std::string());
    if (mode == ExplainMode::OFF) return out;
    const Judgement least = mode == ExplainMode::ALL ? Judgement::INACCURACY : Judgement::MISTAKE;
    const auto selected = [&](const MoveJudgement& mj) { return int(mj.judgement) >= int(least); };
    const std::size_t total =
        std::size_t(std::count_if(analysis.moves.begin(), analysis.moves.end(), selected));
    std::size_t done = 0;
    const SearchLimits threat_search = threat_limits(limits);
    Position pos = game.start;
    for (std::size_t i = 0; i < analysis.moves.size(); ++i) {
        const MoveJudgement& mj = analysis.moves[i];
        if (selected(mj)) {
            MoveThreats threats;
            threats.ignored = threat_line(engine, pos, threat_search);
            Position after = pos;
            after.make_move(mj.played);
            threats.reply = threatening_reply(after, analysis.positions[i + 1].pv);
            if (threats.reply) {
                after.make_move(threats.reply);
                threats.created = threat_line(engine, after, threat_search);
            }
            const MoveContext ctx{&pos, mj.played, &analysis.positions[i],
                                  &analysis.positions[i + 1], &mj};
            out[i] = explain_move(ctx, threats, engine.weights().params);
            analysis.explanations[i] = out[i].text;
            if (progress) progress(++done, total);
        }
        pos.make_move(mj.played);
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace horizon
