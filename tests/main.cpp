#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "core/attacks.hpp"

int main(int argc, char* argv[]) {
    horizon::init_tables();
    return Catch::Session().run(argc, argv);
}
