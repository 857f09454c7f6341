// A fixture for the layering check (never compiled): uci reaching into cli must fail.
#pragma once

#include "engine/engine.hpp"
#include "cli/y.hpp"
