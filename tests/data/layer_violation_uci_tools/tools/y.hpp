// A fixture for the layering check (never compiled): the tools header uci/x.hpp includes.
#pragma once

#include "uci/x.hpp"
