// horizon: with no arguments the UCI loop; otherwise a subcommand (cli/subcommands.hpp).
#include <iostream>

#include "cli/subcommands.hpp"
#include "core/attacks.hpp"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    horizon::init_tables();
    return horizon::horizon_main(argc, argv);
}
