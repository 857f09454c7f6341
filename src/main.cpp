// horizon: with no arguments the UCI loop; otherwise a subcommand (tools/subcommands.hpp).
#include <iostream>

#include "core/attacks.hpp"
#include "tools/subcommands.hpp"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    horizon::init_tables();
    return horizon::horizon_main(argc, argv);
}
