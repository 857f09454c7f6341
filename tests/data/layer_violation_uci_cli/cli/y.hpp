// A fixture for the layering check (never compiled): the cli header uci/x.hpp includes.
#pragma once

#include "uci/x.hpp"
