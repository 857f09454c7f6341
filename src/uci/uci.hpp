// The UCI loop: reads commands from an istream, answers on an ostream.
#pragma once

#include <iosfwd>
#include <string>

#include "core/position.hpp"

namespace horizon {

class UciLoop {
public:
    UciLoop(std::istream& in, std::ostream& out);
    // Runs until `quit` or end of input.
    void run();
    // Handles one line; false when the loop should end.
    bool handle(const std::string& line);

private:
    void send(const std::string& line);
    void cmd_position(const std::string& args);
    void cmd_go(const std::string& args);

    std::istream& in_;
    std::ostream& out_;
    Position pos_;
    bool chess960_ = false;
};

} // namespace horizon
