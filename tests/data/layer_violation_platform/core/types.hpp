// A fixture for the layering check (never compiled): a core header that may include platform.
#pragma once

#include "platform/pages.hpp"
