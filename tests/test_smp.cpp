// Lazy SMP coordination (src/search/smp.*): the breadcrumbs, and which depth a thread
// iterates next.
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>

#include "search/params.hpp"
#include "search/smp.hpp"

using namespace horizon;

TEST_CASE("lazy smp: a node is marked for the other threads while one searches it, and only then",
          "[search][smp]") {
    SearchSignals signals;
    signals.threads = 2;
    const std::uint64_t key = 0x9e3779b97f4a7c15ULL;
    const std::uint64_t same_slot = key + SearchSignals::CRUMBS; // another node, the same slot
    {
        const NodeMark held(signals, 0, key, 3);
        CHECK_FALSE(held.marked());
        {
            const NodeMark again(signals, 0, key, 5); // the holder itself, deeper in its line
            CHECK_FALSE(again.marked());
            const NodeMark other(signals, 1, key, 4);
            CHECK(other.marked());
            const NodeMark other_node(signals, 1, same_slot, 2);
            CHECK_FALSE(other_node.marked());
            const NodeMark too_deep(signals, 1, key, search_params::CRUMB_MAX_PLY);
            CHECK_FALSE(too_deep.marked());
        }
        const NodeMark still(signals, 1, key, 6); // none of those took the slot
        CHECK(still.marked());
    }
    {
        // Released when the search of the node ends: the next thread holds it in turn.
        const NodeMark next(signals, 1, key, 3);
        CHECK_FALSE(next.marked());
        const NodeMark first(signals, 0, key, 3);
        CHECK(first.marked());
    }
    signals.threads = 1; // one thread: nothing is marked
    const NodeMark a(signals, 0, key, 1);
    const NodeMark b(signals, 1, key, 1);
    CHECK_FALSE(b.marked());
}

TEST_CASE("lazy smp: the depth each thread iterates next, and whether it takes over a line",
          "[search][smp]") {
    SearchSignals signals;
    signals.threads = 3;
    SmpThread main(signals, 0), odd(signals, 1), even(signals, 2);
    for (SmpThread* t : {&main, &odd, &even})
        t->begin(1);
    // Odd helpers start one depth ahead.
    CHECK(main.first_depth() == 1);
    CHECK(odd.first_depth() == 2);
    CHECK(even.first_depth() == 1);
    const auto at = [](const SmpThread& t, int depth, int max_depth) {
        const auto next = t.next_iteration(depth, max_depth);
        REQUIRE(next);
        return std::pair{next->depth, next->adopt};
    };
    CHECK(at(main, 1, 10) == std::pair{1, false});
    CHECK(at(odd, 2, 10) == std::pair{2, false});

    signals.publish(5, 7, 30, {}); // some thread completed depth 5
    // Not ahead: the depth as it comes, taken over when another thread has completed it.
    CHECK(at(main, 3, 10) == std::pair{3, true});
    CHECK(at(even, 5, 10) == std::pair{5, true});
    CHECK(at(main, 6, 10) == std::pair{6, false});
    // Ahead: past the deepest completed depth, one further.
    CHECK(at(odd, 3, 10) == std::pair{7, false});
    // With no depth left to run ahead on, a helper joins the last one; the main thread stops.
    CHECK(at(odd, 3, 6) == std::pair{6, false});
    CHECK_FALSE(main.next_iteration(7, 6));
    // Overtaken: another thread has completed the depth being searched (never depth 1).
    CHECK(main.overtaken(5));
    CHECK_FALSE(main.overtaken(6));
    signals.publish(10, 12, 40, {});
    CHECK_FALSE(odd.next_iteration(3, 10)); // every depth done
    CHECK_FALSE(main.overtaken(1));

    // MultiPV: no line is shared, so none is taken over and nothing is overtaken; the threads
    // skip the depths completed.
    main.begin(3);
    CHECK(at(main, 3, 20) == std::pair{11, false});
    CHECK_FALSE(main.overtaken(5));
}
