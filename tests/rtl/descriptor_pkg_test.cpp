// rtl/collnet_descriptor_pkg.sv mirrors collectives/descriptor.hpp: parse the
// SystemVerilog package (its localparams and the field order of its packed
// struct) and compare every field with the C++ `descriptor_layout`.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "collectives/descriptor.hpp"

namespace {

struct Package {
  std::map<std::string, std::int64_t> params;  // localparam name -> value
  struct Member {
    std::string name;
    std::string width_param;  // e.g. "GapWidth" in `logic [GapWidth-1:0] gap;`
  };
  std::vector<Member> descriptor_t;  // most significant member first
};

std::int64_t sv_number(const std::string& text) {
  // 42, 2'd3, 3'b101, 8'hff
  const auto tick = text.find('\'');
  if (tick == std::string::npos) return std::stoll(text);
  const char base = static_cast<char>(std::tolower(static_cast<unsigned char>(text[tick + 1])));
  const std::string digits = text.substr(tick + 2);
  return std::stoll(digits, nullptr, base == 'b' ? 2 : base == 'h' ? 16 : base == 'o' ? 8 : 10);
}

Package parse_package() {
  std::ifstream file(std::string(COLLNET_SOURCE_DIR) + "/rtl/collnet_descriptor_pkg.sv");
  EXPECT_TRUE(file.good()) << "cannot open rtl/collnet_descriptor_pkg.sv";
  std::stringstream text;
  text << file.rdbuf();
  const std::string sv = text.str();

  Package pkg;
  const std::regex param(R"(localparam\s+(?:int\s+unsigned|logic\s*\[[^\]]*\])\s+(\w+)\s*=\s*([0-9'a-fA-FdhbDHB]+)\s*;)");
  for (auto it = std::sregex_iterator(sv.begin(), sv.end(), param); it != std::sregex_iterator(); ++it)
    pkg.params[(*it)[1]] = sv_number((*it)[2]);

  const std::regex body(R"(typedef\s+struct\s+packed\s*\{([^}]*)\}\s*descriptor_t\s*;)");
  std::smatch match;
  EXPECT_TRUE(std::regex_search(sv, match, body)) << "no `typedef struct packed {...} descriptor_t;`";
  const std::string members = match[1];
  const std::regex member(R"(logic\s*\[\s*(\w+)\s*-\s*1\s*:\s*0\s*\]\s*(\w+)\s*;)");
  for (auto it = std::sregex_iterator(members.begin(), members.end(), member); it != std::sregex_iterator(); ++it)
    pkg.descriptor_t.push_back({(*it)[2], (*it)[1]});
  return pkg;
}

struct CppField {
  const char* sv_prefix;  // SystemVerilog name stem: <stem>Lsb, <stem>Width
  const char* member;     // member of descriptor_t
  collnet::DescriptorField field;
};

std::vector<CppField> cpp_fields() {
  namespace L = collnet::descriptor_layout;
  return {{"Opcode", "opcode", L::opcode},       {"Controller", "controller", L::controller},
          {"Op", "op", L::op},                   {"Dtype", "dtype", L::dtype},
          {"RouteHint", "route_hint", L::route_hint}, {"Gap", "gap", L::gap},
          {"Slack", "slack", L::slack},          {"Dest", "dest", L::dest},
          {"SrcOffset", "src_offset", L::src_offset}, {"DstOffset", "dst_offset", L::dst_offset},
          {"Length", "length", L::length},       {"Tag", "tag", L::tag}};
}

}  // namespace

TEST(DescriptorPackage, LocalparamsMatchTheCppLayout) {
  const Package pkg = parse_package();
  for (const CppField& f : cpp_fields()) {
    const std::string stem = f.sv_prefix;
    ASSERT_TRUE(pkg.params.count(stem + "Lsb")) << stem << "Lsb missing";
    ASSERT_TRUE(pkg.params.count(stem + "Width")) << stem << "Width missing";
    EXPECT_EQ(pkg.params.at(stem + "Lsb"), f.field.lsb) << stem;
    EXPECT_EQ(pkg.params.at(stem + "Width"), f.field.width) << stem;
  }
  EXPECT_EQ(pkg.params.at("DescriptorWidth"), collnet::descriptor_layout::width);
  EXPECT_EQ(pkg.params.at("DescriptorUsedBits"), collnet::descriptor_layout::used_bits);
  EXPECT_EQ(pkg.params.at("ReservedLsb"), collnet::descriptor_layout::used_bits);
  EXPECT_EQ(pkg.params.at("ReservedLsb") + pkg.params.at("ReservedWidth"), collnet::descriptor_layout::width);
}

// The packed struct lists members most significant first: a member's lsb is
// the sum of the widths declared after it.
TEST(DescriptorPackage, PackedStructPlacesEveryFieldAtItsCppPosition) {
  const Package pkg = parse_package();
  ASSERT_EQ(pkg.descriptor_t.size(), cpp_fields().size() + 1) << "12 fields and `reserved` expected";
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> position;  // member -> (lsb, width)
  std::int64_t lsb = 0;
  for (auto it = pkg.descriptor_t.rbegin(); it != pkg.descriptor_t.rend(); ++it) {
    ASSERT_TRUE(pkg.params.count(it->width_param)) << it->width_param << " is not a package localparam";
    const std::int64_t width = pkg.params.at(it->width_param);
    position[it->name] = {lsb, width};
    lsb += width;
  }
  EXPECT_EQ(lsb, collnet::descriptor_layout::width);
  for (const CppField& f : cpp_fields()) {
    ASSERT_TRUE(position.count(f.member)) << f.member << " missing from descriptor_t";
    EXPECT_EQ(position.at(f.member).first, f.field.lsb) << f.member;
    EXPECT_EQ(position.at(f.member).second, f.field.width) << f.member;
  }
  ASSERT_TRUE(position.count("reserved"));
  EXPECT_EQ(position.at("reserved").first, collnet::descriptor_layout::used_bits);
}

TEST(DescriptorPackage, OpcodeAndReceiveOpValuesMatch) {
  const Package pkg = parse_package();
  using collnet::Opcode;
  using collnet::ReceiveOp;
  const std::map<std::string, int> expected = {
      {"OpcodeEnd", static_cast<int>(Opcode::end)},         {"OpcodeSend", static_cast<int>(Opcode::send)},
      {"OpcodeWait", static_cast<int>(Opcode::wait)},       {"OpcodeBarrier", static_cast<int>(Opcode::barrier)},
      {"OpCopy", static_cast<int>(ReceiveOp::copy)},        {"OpSum", static_cast<int>(ReceiveOp::sum)},
      {"OpProduct", static_cast<int>(ReceiveOp::product)}, {"OpMax", static_cast<int>(ReceiveOp::max)},
      {"OpMin", static_cast<int>(ReceiveOp::min)},         {"OpDivide", static_cast<int>(ReceiveOp::divide)}};
  for (const auto& [name, value] : expected) {
    ASSERT_TRUE(pkg.params.count(name)) << name << " missing";
    EXPECT_EQ(pkg.params.at(name), value) << name;
  }
}
