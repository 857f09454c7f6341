# The sources, listed: horizon_core's room by room, lowest first, and the tests'. CMakeLists.txt
# refuses a .cpp under src/ or tests/ that no list names, and a listed file that is not there.
# src/main.cpp and the CPU check (src/platform/cpu_check.cpp) are built apart.
set(HORIZON_CORE_SOURCES
    # platform
    src/platform/memory_pages.cpp src/platform/quiet_output.cpp src/platform/subprocess.cpp
    src/platform/system.cpp
    # core
    src/core/attacks.cpp src/core/position.cpp src/core/zobrist.cpp
    # movegen
    src/movegen/movegen.cpp src/movegen/perft.cpp src/movegen/random_position.cpp
    # notation
    src/notation/epd.cpp src/notation/pgn.cpp src/notation/pgn_lexer.cpp
    src/notation/pgn_reader.cpp src/notation/pgn_writer.cpp src/notation/san.cpp
    src/notation/uci_move.cpp
    # eval
    src/eval/engine_file.cpp src/eval/evaluate.cpp src/eval/params.cpp src/eval/tablebases.cpp
    src/eval/wdl.cpp
    # search
    src/search/movepick.cpp src/search/root.cpp src/search/search.cpp src/search/smp.cpp
    src/search/strength.cpp src/search/threads.cpp src/search/timeman.cpp src/search/tt.cpp
    src/search/tunable.cpp
    # engine
    src/engine/bench.cpp src/engine/config.cpp src/engine/engine.cpp
    # train
    src/train/data_line.cpp src/train/datagen.cpp src/train/dataset.cpp src/train/gradient.cpp
    src/train/opening_book.cpp src/train/optimiser.cpp src/train/pgn_samples.cpp
    src/train/pool.cpp src/train/tune.cpp src/train/tuned_config.cpp src/train/wdl_fit.cpp
    # analysis
    src/analysis/best_lines.cpp src/analysis/epd_runner.cpp src/analysis/explain.cpp
    src/analysis/game_analysis.cpp src/analysis/pgn_analysis.cpp src/analysis/puzzles.cpp
    src/analysis/svg_plot.cpp
    # uci
    src/uci/options.cpp src/uci/uci.cpp
    # cli
    src/cli/analyze.cpp src/cli/bench.cpp src/cli/command_line.cpp src/cli/datagen.cpp
    src/cli/epd.cpp src/cli/eval.cpp src/cli/perft.cpp src/cli/pgn.cpp src/cli/progress.cpp
    src/cli/search_flags.cpp src/cli/subcommands.cpp src/cli/tbprobe.cpp src/cli/tune.cpp
    src/cli/tune_printer.cpp src/cli/uci_bench.cpp src/cli/uci_client.cpp)
set(HORIZON_TEST_SOURCES
    tests/main.cpp tests/test_analyze.cpp tests/test_attacks.cpp tests/test_cli.cpp
    tests/test_cpu_check.cpp tests/test_data_line.cpp tests/test_datagen.cpp
    tests/test_dataset.cpp tests/test_e2e.cpp tests/test_engine.cpp tests/test_eval.cpp
    tests/test_gradient.cpp tests/test_movegen.cpp tests/test_notation.cpp
    tests/test_pgn_samples.cpp tests/test_position.cpp tests/test_root.cpp tests/test_search.cpp
    tests/test_smp.cpp tests/test_strength.cpp tests/test_tablebases.cpp tests/test_timeman.cpp
    tests/test_tune.cpp tests/test_uci.cpp tests/test_wdl.cpp tests/test_wdl_fit.cpp)
