// A fixture for the layering check (never compiled): eval reaching up into engine must fail.
#pragma once

#include "core/types.hpp"
#include "engine/engine.hpp"
