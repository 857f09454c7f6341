#include "eval/engine_file.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine_json.hpp"

namespace horizon {

namespace {

// "[json.exception.parse_error.101] parse error at line 3, column 7: ..." without the
// bracketed prefix.
std::string without_prefix(std::string why) {
    const auto close = why.find("] ");
    if (why.rfind("[json.exception", 0) == 0 && close != std::string::npos) why.erase(0, close + 2);
    return why;
}

// What a JSON parser lets through and engine.json-style text must not have: walks the text's
// events, keeping where it is (the keys and array places from the root), and stops at the first
// duplicate key, overflowing number or nesting too deep. Syntax errors stop it too, and it adds
// where they were.
class StrictChecker final : public nlohmann::json_sax<nlohmann::json> {
public:
    explicit StrictChecker(std::string_view text) : text_(text) {}

    const std::string& error() const { return error_; }

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t v, const string_t& text) override {
        // The parser refuses these itself (parse_error below); kept in case it ever does not.
        if (!std::isfinite(v)) return fail("number " + text + " is too large" + at(path(true)));
        return value();
    }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return fail("binary data" + at(path(true))); }

    bool start_object(std::size_t) override { return open(true); }
    bool key(string_t& key) override {
        Frame& f = frames_.back();
        if (!f.keys.insert(key).second) {
            const std::string where = path(false, frames_.size() - 1);
            return fail("duplicate key " + quoted_key(key) +
                        (where.empty() ? " at the top level" : " in " + where));
        }
        f.key = key;
        f.has_key = true;
        return true;
    }
    bool end_object() override {
        frames_.pop_back();
        return true;
    }
    bool start_array(std::size_t) override { return open(false); }
    bool end_array() override {
        frames_.pop_back();
        return true;
    }

    bool parse_error(std::size_t position, const std::string& token,
                     const nlohmann::json::exception& e) override {
        const std::string where = path(true);
        if (e.id == 406) {
            // "number overflow parsing '1e400'": it has no line of its own.
            const auto [line, column] = line_and_column(position);
            return fail("number " + token + " is too large (line " + std::to_string(line) +
                        ", column " + std::to_string(column) +
                        (where.empty() ? "" : ", at " + where) + ")");
        }
        return fail("not valid JSON: " + without_prefix(e.what()) + at(where));
    }

private:
    struct Frame {
        bool object = false;
        std::unordered_set<std::string> keys; // objects: the keys so far
        std::string key;                      // objects: the last key
        bool has_key = false;
        std::size_t next = 0;    // arrays: the index of the next value
        std::size_t current = 0; // arrays: the index of the value being read
    };

    // A value begins: in an array, it takes the next index.
    bool value() {
        if (!frames_.empty() && !frames_.back().object)
            frames_.back().current = frames_.back().next++;
        return true;
    }
    bool open(bool object) {
        value();
        if (int(frames_.size()) >= MAX_CONFIG_DEPTH)
            return fail("objects and arrays nested more than " + std::to_string(MAX_CONFIG_DEPTH) +
                        " deep" + at(path(false)));
        Frame f;
        f.object = object;
        frames_.push_back(std::move(f));
        return true;
    }
    bool fail(std::string why) {
        error_ = std::move(why);
        return false;
    }

    // Where the reader is, from the root: `"wdl"."a"[0]`. The innermost of `depth` frames is
    // an array either at the value it has begun or, `pending`, at the one it is about to read.
    std::string path(bool pending, std::size_t depth) const {
        std::string s;
        for (std::size_t i = 0; i < depth; ++i) {
            const Frame& f = frames_[i];
            if (f.object) {
                if (!f.has_key) break;
                // Appended piece by piece: GCC 12 (mingw) sees a false -Wrestrict overlap in
                // `"literal" + std::string&&`.
                if (!s.empty()) s.push_back('.');
                s.append(quoted_key(f.key));
            } else {
                const bool innermost = i + 1 == frames_.size();
                s.push_back('[');
                s.append(std::to_string(pending && innermost ? f.next : f.current));
                s.push_back(']');
            }
        }
        return s;
    }
    std::string path(bool pending) const { return path(pending, frames_.size()); }
    static std::string at(const std::string& where) {
        return where.empty() ? "" : " (at " + where + ")";
    }

    std::pair<std::size_t, std::size_t> line_and_column(std::size_t position) const {
        const std::string_view before = text_.substr(0, std::min(position, text_.size()));
        const std::size_t newline = before.rfind('\n');
        std::size_t lines = 1;
        for (char c : before)
            lines += c == '\n';
        return {lines,
                newline == std::string_view::npos ? before.size() : before.size() - newline - 1};
    }

    std::string_view text_;
    std::vector<Frame> frames_;
    std::string error_;
};

template <class Json> std::optional<std::string> parse_strict(std::string_view text, Json& out) {
    StrictChecker checker(text);
    bool ok = false;
    try {
        ok = nlohmann::json::sax_parse(text, &checker);
    } catch (const nlohmann::json::exception& e) {
        return "not valid JSON: " + without_prefix(e.what());
    }
    if (!ok) return checker.error().empty() ? std::string("not valid JSON") : checker.error();
    try {
        out = Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return "not valid JSON: " + without_prefix(e.what());
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> parse_config(std::string_view text, nlohmann::json& out) {
    return parse_strict(text, out);
}

std::optional<std::string> parse_config(std::string_view text, nlohmann::ordered_json& out) {
    return parse_strict(text, out);
}

std::optional<std::string> read_config_file(const std::string& path, std::string& text) {
    if (path.empty()) return std::string("no file name given");
    const std::string file = "'" + path + "'";
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) return file + ": no such file";
    if (ec) return file + ": cannot be read (" + ec.message() + ")";
    if (!std::filesystem::is_regular_file(status)) return file + ": not a regular file";
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return file + ": cannot be read (" + ec.message() + ")";
    if (size > MAX_CONFIG_FILE_BYTES)
        return file + ": " + std::to_string(size) + " bytes is too large for a weights file";
    std::ifstream in(path, std::ios::binary);
    if (!in) return file + ": cannot be opened for reading";
    std::ostringstream all;
    all << in.rdbuf();
    if (in.bad()) return file + ": read error";
    text = all.str();
    return std::nullopt;
}

std::string quoted_key(std::string_view key) {
    constexpr std::size_t SHOWN = 60;
    std::string s = nlohmann::json(std::string(key.substr(0, SHOWN)))
                        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (key.size() > SHOWN) s.insert(s.size() - 1, "...");
    return s;
}

const nlohmann::json& builtin_config() {
    static const nlohmann::json config = [] {
        nlohmann::json j;
        if (auto err = parse_config(ENGINE_JSON, j))
            throw std::runtime_error("engine.json: " + *err);
        return j;
    }();
    return config;
}

const nlohmann::ordered_json& builtin_config_ordered() {
    static const nlohmann::ordered_json config = [] {
        nlohmann::ordered_json j;
        if (auto err = parse_config(ENGINE_JSON, j))
            throw std::runtime_error("engine.json: " + *err);
        return j;
    }();
    return config;
}

} // namespace horizon
