# For a cross build: the header-only libraries cxxopts and nlohmann-json from the build
# machine's Debian packages. Their headers are copied beside the build, so that the target's
# include path gets those two and no other header of the build machine (whose C library
# headers would shadow the target's).
set(horizon_host_include "/usr/include")
if(NOT EXISTS "${horizon_host_include}/cxxopts.hpp" OR
   NOT EXISTS "${horizon_host_include}/nlohmann/json.hpp")
  message(FATAL_ERROR "cxxopts and nlohmann-json headers not found in ${horizon_host_include}. "
                      "Install them with: ${HORIZON_APT_HINT}")
endif()
set(horizon_copied "${CMAKE_BINARY_DIR}/host-headers")
file(COPY "${horizon_host_include}/cxxopts.hpp" "${horizon_host_include}/nlohmann"
     DESTINATION "${horizon_copied}")

add_library(cxxopts::cxxopts INTERFACE IMPORTED)
target_include_directories(cxxopts::cxxopts SYSTEM INTERFACE "${horizon_copied}")
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${horizon_copied}")
