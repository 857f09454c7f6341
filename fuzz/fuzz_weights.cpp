// Weights files (engine.json, EvalFile, --eval-file, tune's start): any text is refused with a
// message or loaded; weights loaded are written back to JSON that loads into the same weights,
// evaluate positions without overflow (UndefinedBehaviorSanitizer watches), and give a WDL
// model whose probabilities are proper at every score and material.
#include <string>

#include <nlohmann/json.hpp>

#include "core/position.hpp"
#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"
#include "fuzz_support.hpp"

using namespace horizon;

namespace {

// Positions with much and little material, quiet and sharp.
constexpr const char* FENS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "6k1/5ppp/8/3P4/8/8/5PPP/6K1 w - - 0 40",
    "8/8/4k3/8/8/3QK3/8/8 w - - 0 1",
    "r3k2r/1pp2ppp/p1n5/4q3/2B1P1b1/2N2N2/PPP2PPP/R2Q1RK1 b kq - 3 11",
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    const std::string text(fuzz_text(data, size));
    EvalWeights weights;
    const std::string before = weights.to_json().dump();
    if (auto err = EvalWeights::from_text(text, weights)) {
        FUZZ_CHECK(!err->empty(), text);
        FUZZ_CHECK(weights.to_json().dump() == before, text); // refused: nothing changed
        return 0;
    }
    const std::string written = weights.to_json().dump();
    EvalWeights again;
    const auto err = EvalWeights::from_text(written, again);
    FUZZ_CHECK(!err, written + "\n" + err.value_or(""));
    FUZZ_CHECK(again.to_json().dump() == written, written);

    for (const char* fen : FENS) {
        Position pos;
        FUZZ_CHECK(!pos.set_fen(fen), fen);
        const Score s = evaluate(pos, weights.params);
        FUZZ_CHECK(s >= -SCORE_EVAL_MAX && s <= SCORE_EVAL_MAX, text);
    }
    for (int material = 0; material <= 78; material += 3)
        for (Score score : {-SCORE_MATE, -3000, -400, -50, 0, 1, 50, 400, 3000, SCORE_MATE}) {
            const Wdl w = wdl_from_score(weights.wdl, score, material);
            FUZZ_CHECK(w.win >= 0 && w.draw >= 0 && w.loss >= 0, text);
            FUZZ_CHECK(w.win + w.draw + w.loss == 1000, text);
        }
    return 0;
}
