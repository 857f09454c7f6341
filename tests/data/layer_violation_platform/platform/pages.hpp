// A fixture for the layering check (never compiled): the ground floor includes nothing of
// Horizon's, not even the core's types.
#pragma once

#include "core/types.hpp"
#include "platform/other.hpp"
