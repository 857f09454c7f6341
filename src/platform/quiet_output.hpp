// Standard output and standard error sent to the null device for a while: for a library that
// writes to them itself (Fathom, while it loads and unloads tables), where the output is
// another writer's alone. The ground floor: nothing of Horizon is included.
#pragma once

namespace horizon {

class QuietOutput {
public:
    // Flushes both streams (C and C++), then points descriptors 1 and 2 at the null device.
    QuietOutput();
    // Flushes what was written meanwhile (to the null device) and gives both back.
    ~QuietOutput();
    QuietOutput(const QuietOutput&) = delete;
    QuietOutput& operator=(const QuietOutput&) = delete;

private:
    int saved_[2] = {-1, -1};
};

} // namespace horizon
