// Time management: the limits a clock, increment, moves-to-go and Move Overhead produce.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "search/timeman.hpp"

using namespace horizon;

namespace {

SearchLimits clock_limits(std::int64_t wtime, std::int64_t btime, std::int64_t winc,
                          std::int64_t binc, int movestogo) {
    SearchLimits l;
    l.time[WHITE] = wtime;
    l.time[BLACK] = btime;
    l.inc[WHITE] = winc;
    l.inc[BLACK] = binc;
    l.movestogo = movestogo;
    return l;
}

} // namespace

TEST_CASE("timeman: no clock - no limit", "[timeman]") {
    TimeManager tm;
    SearchLimits depth_only;
    depth_only.depth = 10;
    tm.start(depth_only, WHITE, 30, 0);
    CHECK_FALSE(tm.has_limit());

    SearchLimits nodes_only;
    nodes_only.nodes = 1000;
    tm.start(nodes_only, BLACK, 30, 10);
    CHECK_FALSE(tm.has_limit());
}

TEST_CASE("timeman: infinite has no limit - whatever else is given", "[timeman]") {
    TimeManager tm;
    SearchLimits l = clock_limits(1000, 1000, 10, 10, 0);
    l.infinite = true;
    tm.start(l, WHITE, 30, 0);
    CHECK_FALSE(tm.has_limit());
    l.movetime = 100;
    tm.start(l, BLACK, 30, 0);
    CHECK_FALSE(tm.has_limit());
    // A limited search before must not leak into the next one.
    tm.start(clock_limits(1000, 1000, 0, 0, 0), WHITE, 30, 0);
    REQUIRE(tm.has_limit());
    SearchLimits inf;
    inf.infinite = true;
    tm.start(inf, WHITE, 30, 0);
    CHECK_FALSE(tm.has_limit());
    CHECK_FALSE(tm.fixed());
}

TEST_CASE("timeman: movetime is the hard limit - less Move Overhead", "[timeman]") {
    TimeManager tm;
    for (std::int64_t movetime : {31, 100, 500, 1000, 60000}) {
        for (int overhead : {0, 10, 30}) {
            INFO("movetime " << movetime << " overhead " << overhead);
            SearchLimits l;
            l.movetime = movetime;
            tm.start(l, WHITE, overhead, 0);
            CHECK(tm.has_limit());
            CHECK(tm.fixed());
            CHECK(tm.hard_ms() == movetime - overhead);
            CHECK(tm.soft_ms() <= tm.hard_ms());
        }
    }
    // Overhead larger than the time: still a positive limit.
    SearchLimits l;
    l.movetime = 10;
    tm.start(l, WHITE, 30, 0);
    CHECK(tm.has_limit());
    CHECK(tm.hard_ms() >= 1);
    CHECK(tm.hard_ms() <= 10);
    // movetime wins over a clock given with it.
    SearchLimits both = clock_limits(100000, 100000, 0, 0, 0);
    both.movetime = 200;
    tm.start(both, WHITE, 30, 0);
    CHECK(tm.hard_ms() == 170);
}

TEST_CASE("timeman: soft <= hard <= time - overhead for every clock", "[timeman]") {
    TimeManager tm;
    int checked = 0;
    for (std::int64_t time :
         {1, 5, 30, 31, 50, 100, 250, 1000, 3000, 10000, 60000, 600000, 10800000})
        for (std::int64_t inc : {0, 1, 10, 100, 1000, 5000, 30000})
            for (int mtg : {0, 1, 2, 3, 4, 5, 10, 40, 100})
                for (int overhead : {0, 10, 30, 100, 1000})
                    for (int ply : {0, 1, 40, 150, 600})
                        for (Color us : {WHITE, BLACK}) {
                            const std::int64_t other = time * 3 + 7;
                            const auto l = us == WHITE ? clock_limits(time, other, inc, 0, mtg)
                                                       : clock_limits(other, time, 0, inc, mtg);
                            tm.start(l, us, overhead, ply);
                            INFO("time " << time << " inc " << inc << " movestogo " << mtg
                                         << " overhead " << overhead << " ply " << ply);
                            REQUIRE(tm.has_limit());
                            CHECK_FALSE(tm.fixed());
                            CHECK(tm.soft_ms() >= 1);
                            CHECK(tm.soft_ms() <= tm.hard_ms());
                            CHECK(tm.hard_ms() >= 1);
                            // Never plan to spend what the clock (less overhead) does not
                            // hold, however large the increment.
                            if (time - overhead >= 1)
                                CHECK(tm.hard_ms() <= time - overhead);
                            else
                                CHECK(tm.hard_ms() == 1);
                            ++checked;
                        }
    CHECK(checked == 13 * 7 * 9 * 5 * 5 * 2);
}

TEST_CASE("timeman: zero - negative and tiny clocks", "[timeman]") {
    TimeManager tm;
    for (std::int64_t time : {-1000000, -5, -1, 0, 1, 2, 29, 30}) {
        for (int mtg : {0, 1, 5}) {
            INFO("time " << time << " movestogo " << mtg);
            tm.start(clock_limits(time, time, 0, 0, mtg), WHITE, 30, 0);
            CHECK(tm.has_limit());
            CHECK(tm.hard_ms() >= 1);
            CHECK(tm.soft_ms() >= 1);
            CHECK(tm.soft_ms() <= tm.hard_ms());
            // Nothing usable on the clock: move as fast as possible.
            CHECK(tm.hard_ms() == 1);
        }
    }
    // 30 ms clock and no overhead: a few ms at most.
    tm.start(clock_limits(30, 30, 0, 0, 0), WHITE, 0, 0);
    CHECK(tm.hard_ms() <= 30);
}

TEST_CASE("timeman: a clock given for one side only", "[timeman]") {
    TimeManager tm;
    for (Color given : {WHITE, BLACK}) {
        for (Color us : {WHITE, BLACK}) {
            INFO("clock given for " << int(given) << ", searching for " << int(us));
            SearchLimits l;
            l.time[given] = 1000;
            tm.start(l, us, 30, 0);
            CHECK(tm.has_limit());
            CHECK(tm.soft_ms() >= 1);
            CHECK(tm.soft_ms() <= tm.hard_ms());
            CHECK(tm.hard_ms() <= 1000 - 30);
        }
    }
}

TEST_CASE("timeman: more time or increment never means less thinking", "[timeman]") {
    TimeManager tm;
    for (int mtg : {0, 1, 2, 10, 40}) {
        for (std::int64_t inc : {0, 100, 2000}) {
            std::int64_t prev_soft = 0, prev_hard = 0;
            for (std::int64_t time = 0; time <= 200000; time += time < 1000 ? 7 : 997) {
                INFO("time " << time << " inc " << inc << " movestogo " << mtg);
                tm.start(clock_limits(time, time, inc, inc, mtg), WHITE, 30, 20);
                CHECK(tm.soft_ms() >= prev_soft);
                CHECK(tm.hard_ms() >= prev_hard);
                prev_soft = tm.soft_ms();
                prev_hard = tm.hard_ms();
            }
        }
    }
    for (std::int64_t time : {100, 1000, 60000}) {
        std::int64_t prev_hard = 0;
        for (std::int64_t inc = 0; inc <= 20000; inc += 250) {
            INFO("time " << time << " inc " << inc);
            tm.start(clock_limits(time, time, inc, inc, 0), BLACK, 30, 20);
            CHECK(tm.hard_ms() >= prev_hard);
            prev_hard = tm.hard_ms();
        }
    }
}

TEST_CASE("timeman: a long clock is used - not hoarded", "[timeman]") {
    TimeManager tm;
    // One minute, sudden death: a move gets at least 1% of it, and no move risks half.
    tm.start(clock_limits(60000, 60000, 0, 0, 0), WHITE, 30, 0);
    CHECK(tm.soft_ms() >= 600);
    CHECK(tm.hard_ms() <= 30000);
    // The last move before the time control may use more than a share of a long series.
    tm.start(clock_limits(60000, 60000, 0, 0, 40), WHITE, 30, 0);
    const auto share40 = tm.soft_ms();
    tm.start(clock_limits(60000, 60000, 0, 0, 1), WHITE, 30, 0);
    CHECK(tm.soft_ms() > share40);
}

TEST_CASE("timeman: the first moves plan on a share of the clock that fits a game", "[timeman]") {
    // 10+0.1 at the start: planned on 24 moves still to play, a move is given at least a 25th
    // of the clock (planned on 36, it was given 352 ms and games ended with a third of the
    // clock unused); late in a long game the plan is 10 moves, never fewer.
    TimeManager tm;
    tm.start(clock_limits(10000, 10000, 100, 100, 0), WHITE, 10, 0);
    CHECK(tm.soft_ms() >= 10000 / 25);
    CHECK(tm.soft_ms() <= 10000 / 20);
    tm.start(clock_limits(2000, 2000, 100, 100, 0), WHITE, 10, 200);
    CHECK(tm.soft_ms() >= (2000 - 10) / 10 + 75 - 1);
    CHECK(tm.soft_ms() <= (2000 - 10) / 10 + 75);
}

TEST_CASE("timeman: restart moves the budget clock, not the search clock", "[timeman]") {
    TimeManager tm;
    SearchLimits l;
    l.movetime = 1000;
    tm.start(l, WHITE, 0, 0);
    CHECK(tm.elapsed_ms() >= 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK(tm.elapsed_ms() >= 30);
    CHECK(tm.search_elapsed_ms() >= 30);
    tm.restart(); // ponderhit: this move's budget starts now
    const auto since_restart = tm.elapsed_ms();
    const auto since_go = tm.search_elapsed_ms();
    // `info time` keeps counting from go, so that nodes / time stays the real speed.
    CHECK(since_go >= since_restart + 30);
    // A new search restarts both.
    tm.start(l, WHITE, 0, 0);
    CHECK(tm.search_elapsed_ms() <= since_go);
}
