// Text of scenario values: the boolean spellings every input accepts, and
// the near-miss suggestions ("did you mean 'vcs'?") of error messages.
// Implemented in params.cpp, whose Params::boolean and Params::choice use them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace collnet {

/// The one set of boolean spellings every input accepts (scenario files,
/// `--set`, sweep axes and the sweep file's `zip`): true/false, yes/no,
/// on/off and 1/0, in any case (so YAML's True, TRUE, Yes, ON... too).
/// nullopt for anything else.
std::optional<bool> parse_boolean(std::string_view text);
/// What parse_boolean accepts, for messages and documentation.
inline constexpr const char* kBooleanSpellings = "true/false, yes/no, on/off or 1/0 (any case)";

/// Damerau-Levenshtein distance (optimal string alignment: insertions,
/// deletions, substitutions and swaps of two neighbours each cost 1).
std::size_t edit_distance(std::string_view a, std::string_view b);
/// The candidate nearest to `word` when it is a near miss (distance 1..2, or
/// up to a third of the word's length for long words; ties: the first);
/// "" when none is.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates);
/// "; did you mean 'X'?" for the nearest candidate, "" when none is near.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace collnet
