// A fixture for the layering check (never compiled): uci reaching into tools must fail.
#pragma once

#include "engine/engine.hpp"
#include "tools/y.hpp"
