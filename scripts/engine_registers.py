#!/usr/bin/env python3
"""Renders the register maps of the schedule engines and the switch aggregator
(hls/engine_registers.yaml).

    engine_registers.py MAP.yaml OUT_DIR

writes, below OUT_DIR, the three renderings of the one description:
  hls/schedule_engine_registers.hpp  constexpr tables and per-engine constants
                                     (the HLS engines, driver/engine_loader.cpp)
  rtl/schedule_engine_regs_pkg.sv    one SystemVerilog package per engine
  docs/engine_registers.md           the register documentation (committed;
                                     tests/rtl/engine_registers_test.cpp
                                     compares it with this rendering)
A file whose text is unchanged is not rewritten (no rebuild follows). CMake
runs it at configure time (Verilator reads the packages then) and whenever
the map changes; scripts/rtl_sources.sh runs it for lint_rtl.sh and synth.sh.
A malformed map prints every problem, each naming the engine, the register
and the field, and exits 1 with nothing written.
"""
import os
import re
import sys

import yaml

ENGINE_FIELDS = {"block", "registers", "constants"}
REGISTER_FIELDS = {"name", "address", "count", "width", "meaning", "values", "flags", "prefix"}
CONSTANT_FIELDS = {"name", "value", "meaning"}
BLOCK_PREFIX = "schedule_engine_"
# A schedule engine (schedule_engine_NAME) or the switch's aggregation engine.
BLOCK_PATTERN = BLOCK_PREFIX + r"[a-z][a-z0-9_]*|switch_aggregator"


class MapError(Exception):
    pass


class Mapping(dict):
    """A YAML mapping with its line and the keys given twice in it."""
    line = 0
    twice = ()


class MapLoader(yaml.SafeLoader):
    pass


def construct_mapping(loader, node):
    data = Mapping()
    yield data
    lines, twice = {}, []
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        line = key_node.start_mark.line + 1
        if key in lines:
            twice.append(f"field '{key}' is given twice (lines {lines[key]} and {line})")
        lines.setdefault(key, line)
    data.update(loader.construct_mapping(node))
    data.line, data.twice = node.start_mark.line + 1, twice


MapLoader.add_constructor("tag:yaml.org,2002:map", construct_mapping)


def load(path):
    """The engines of the map at `path`, checked; raises MapError listing every problem."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        root = yaml.load(text, Loader=MapLoader)
    except yaml.YAMLError as e:
        raise MapError(f"{path}: malformed YAML: {e}") from e
    problems = []
    engines = check_map(root, problems)
    if problems:
        raise MapError("\n".join(f"{path} {p}" for p in problems))
    return engines


def place(item, what):
    """'line 31: engine schedule_engine_a2a, register NCT' (the line where the item starts)."""
    return f"line {getattr(item, 'line', '?')}: {what}"


def check_fields(item, allowed, required, where, problems):
    """Problems of one mapping: not a mapping, a key given twice, unknown or missing fields."""
    if not isinstance(item, dict):
        problems.append(f"{where}: must be a map of fields ({', '.join(sorted(allowed))})")
        return False
    problems += [f"{where}: {t}" for t in item.twice]
    for field in sorted(set(item) - allowed, key=str):
        problems.append(f"{where}: unknown field '{field}'; accepted fields: {', '.join(sorted(allowed))}")
    for field in required:
        if field not in item:
            problems.append(f"{where}: field '{field}' is missing")
    return True


def number(item, field, low, high, where, problems):
    value = item.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append(f"{where}: field '{field}' is {value!r}; accepted values: integers {low}..{high}")
        return None
    return value


def identifier(value, pattern, field, where, problems):
    if not isinstance(value, str) or not re.fullmatch(pattern, value):
        problems.append(f"{where}: field '{field}' is {value!r}; accepted values: names matching {pattern}")
        return False
    return True


def text(item, field, where, problems):
    """The one-line text of `field` (a missing field is reported by check_fields)."""
    value = item.get(field)
    if field in item and (not isinstance(value, str) or not value.strip()):
        problems.append(f"{where}: field '{field}' must be a non-empty line of text")
        return None
    return " ".join(value.split()) if value is not None else None


def check_register(r, block, used, problems):
    where = place(r, f"engine {block}, register {r.get('name', '?') if isinstance(r, dict) else '?'}")
    if not check_fields(r, REGISTER_FIELDS, ("name", "address", "width", "meaning"), where, problems):
        return None
    ok = identifier(r.get("name"), r"[A-Z][A-Z0-9_]*", "name", where, problems) if "name" in r else False
    address = number(r, "address", 0, 255, where, problems)
    count = number(r, "count", 1, 256, where, problems) if "count" in r else 1
    width = number(r, "width", 1, 32, where, problems)
    meaning = text(r, "meaning", where, problems)
    if None in (address, count, width, meaning) or not ok:
        return None
    for k in range(count):
        if address + k > 255:
            problems.append(f"{where}: field 'address': {r['name']}{k if count > 1 else ''} at "
                            f"0x{address + k:02X} is beyond the 8-bit cfg_addr")
        elif address + k in used:
            problems.append(f"{where}: field 'address': 0x{address + k:02X} is also {used[address + k]}'s address")
        else:
            used[address + k] = r["name"]
    prefix = r.get("prefix", r["name"].lower())
    if "prefix" in r:
        identifier(prefix, r"[a-z][a-z0-9_]*", "prefix", where, problems)
    named = []  # (C++ name, C++ value, register: "ALGORITHM" or "OPTIONS bit 0")
    for field, limit, render in (("values", (1 << width) - 1, str), ("flags", width - 1, lambda b: f"1u << {b}")):
        entries = r.get(field)
        if entries is None:
            continue
        if not isinstance(entries, dict) or not entries:
            problems.append(f"{where}: field '{field}' must be a map of name: number")
            continue
        for name, value in entries.items():
            if not identifier(name, r"[a-z][a-z0-9_]*", field, where, problems):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
                problems.append(f"{where}: field '{field}': {name} is {value!r}; accepted values: 0..{limit} "
                                f"(width {width})")
                continue
            named.append((f"{prefix}_{name}", render(value), r["name"] + (f" bit {value}" if field == "flags" else "")))
    return {"name": r["name"], "address": address, "count": count, "width": width,
            "meaning": meaning, "named": named}


def check_map(root, problems):
    if not check_fields(root, {"engines"}, ("engines",), place(root, "the map"), problems):
        return []
    if not isinstance(root.get("engines"), list) or not root["engines"]:
        problems.append("the map: field 'engines' must be a list of engines")
        return []
    engines = []
    blocks = set()
    for e in root["engines"]:
        block = e.get("block", "?") if isinstance(e, dict) else "?"
        where = place(e, f"engine {block}")
        if not check_fields(e, ENGINE_FIELDS, ("block", "registers"), where, problems):
            continue
        if "block" in e and not identifier(block, BLOCK_PATTERN, "block", where, problems):
            continue
        if block in blocks:
            problems.append(f"{where}: field 'block': the engine is described twice")
        blocks.add(block)
        if not isinstance(e.get("registers"), list) or not e["registers"]:
            problems.append(f"{where}: field 'registers' must be a list of registers")
            continue
        used, names, registers = {}, set(), []
        for r in e["registers"]:
            reg = check_register(r, block, used, problems)
            if reg is None:
                continue
            if reg["name"] in names:
                problems.append(place(r, f"engine {block}, register {reg['name']}: field 'name': the register is described "
                                  "twice"))
            names.add(reg["name"])
            registers.append(reg)
        if registers and (registers[0]["name"] != "CONTROL" or registers[0]["address"] != 0):
            problems.append(place(e["registers"][0], f"engine {block}, register {registers[0]['name']}: field "
                                  "'name': the first register must be CONTROL at address 0x00"))
        constants = []
        for c in e.get("constants") or []:
            cwhere = place(c, f"engine {block}, constant {c.get('name', '?') if isinstance(c, dict) else '?'}")
            if not check_fields(c, CONSTANT_FIELDS, ("name", "value", "meaning"), cwhere, problems):
                continue
            if not identifier(c.get("name"), r"[a-z][a-z0-9_]*", "name", cwhere, problems):
                continue
            value = number(c, "value", 0, (1 << 32) - 1, cwhere, problems)
            meaning = text(c, "meaning", cwhere, problems)
            if value is not None and meaning is not None:
                constants.append((c["name"], value, meaning))
        declared = {}  # C++ name -> what declares it, in the engine's namespace
        for what, name in ([(f"register {r['name']}", cpp_address_name(r)) for r in registers] +
                           [(f"register {r['name']}", n[0]) for r in registers for n in r["named"]] +
                           [(f"constant {c[0]}", c[0]) for c in constants]):
            if name in declared:
                problems.append(place(e, f"engine {block}, {what}: C++ name '{name}' is also declared by "
                                         f"{declared[name]}"))
            declared.setdefault(name, what)
        # schedule_engine_NAME: NAME_engine_registers, NAME_engine_reg; another block: BLOCK_registers, BLOCK_reg
        stem = block[len(BLOCK_PREFIX):] + "_engine" if block.startswith(BLOCK_PREFIX) else block
        engines.append({"block": block, "table": f"{stem}_registers", "namespace": f"{stem}_reg",
                        "package": f"{block}_regs_pkg", "registers": registers, "constants": constants})
    return engines


# ---------------------------------------------------------------- renderings

def cpp_address_name(r):
    """The C++ constant of a register's (first) address: control, size0."""
    return r["name"].lower() + ("0" if r["count"] > 1 else "")


def camel(name):
    """MESSAGE_WORDS -> MessageWords (the SystemVerilog parameter stem)."""
    return "".join(part[:1] + part[1:].lower() for part in name.split("_"))


def listed_name(r):
    """NAME, or NAME0..N-1 for a run."""
    return r["name"] + (f"0..{r['count'] - 1}" if r["count"] > 1 else "")


def bits(r):
    return "[0]" if r["width"] == 1 else f"[{r['width'] - 1}:0]"


def cpp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


GENERATED = "generated by scripts/engine_registers.py from hls/engine_registers.yaml; do not edit"


def cpp_header(engines):
    out = [f"// The register maps of the schedule engines, {GENERATED}.",
           "// One constexpr table per engine (EngineRegisterMap, hls/schedule_engine.hpp) and",
           "// the constants the engines and their loader (driver/engine_loader.cpp) take from it.",
           "#pragma once", "", "#include <cstdint>", "", '#include "hls/schedule_engine.hpp"', "",
           "namespace collnet::hls {"]
    for e in engines:
        out += ["", f"/// The configuration registers of {e['block']} (hls/{e['block']}.hpp).",
                f"inline constexpr EngineRegisterMap {e['table']}{{", f"    {cpp_string(e['block'])},"]
        rows = [f"{{{cpp_string(r['name'])}, 0x{r['address']:02X}, {r['count']}, {r['width']}, "
                f"{cpp_string(r['meaning'])}}}" for r in e["registers"]]
        out.append("    {" + ",\n     ".join(rows) + "}};")
        out += ["", f"/// {e['block']}: register addresses (NAME0 + i for a run), named values, table sizes.",
                f"namespace {e['namespace']} {{"]
        for r in e["registers"]:
            out.append(f"inline constexpr std::uint8_t {cpp_address_name(r)} = "
                       f"{e['table']}.address({cpp_string(r['name'])});")
        for r in e["registers"]:
            out += [f"inline constexpr std::uint32_t {name} = {value};  // {what}" for name, value, what in r["named"]]
        out += [f"inline constexpr unsigned {name} = {value};  // {meaning}" for name, value, meaning in e["constants"]]
        out.append(f"}}  // namespace {e['namespace']}")
    out += ["", "}  // namespace collnet::hls", ""]
    return "\n".join(out)


def sv_packages(engines):
    out = [f"// The register maps of the schedule engines, one package per engine, {GENERATED}.",
           "/* verilator lint_off DECLFILENAME */"]
    for e in engines:
        out += ["", f"// {e['block']}: the table {e['table']}.", f"package {e['package']};",
                "  /* verilator lint_off UNUSEDPARAM */"]
        for r in e["registers"]:
            stem = "Reg" + camel(r["name"])
            out.append(f"  /// {listed_name(r)} {bits(r)}: {r['meaning']}")
            out.append(f"  localparam logic [7:0] {stem}{'0' if r['count'] > 1 else ''} = 8'h{r['address']:02X};")
            if r["count"] > 1:
                out.append(f"  localparam int unsigned {stem}Count = {r['count']};")
            out.append(f"  localparam int unsigned {stem}Width = {r['width']};")
        out += ["  /* verilator lint_on UNUSEDPARAM */", "endpackage"]
    return "\n".join(out) + "\n"


def documentation(engines):
    out = ["# Schedule engine register maps", "",
           "Generated from `hls/engine_registers.yaml` by `scripts/engine_registers.py`, which",
           "the build runs whenever the map changes; it renders this page, the C++ header",
           "`hls/schedule_engine_registers.hpp` and the SystemVerilog packages",
           "`rtl/schedule_engine_regs_pkg.sv` into `build/generated/` (do not edit this page:",
           "`tests/rtl/engine_registers_test.cpp` fails when it differs from",
           "`build/generated/docs/engine_registers.md`; copy that file here). Every engine",
           "has the ports of `hls/schedule_engine.hpp` (`rtl/schedule_engine_ports.svh`): an",
           "8-bit `cfg_addr`, a 32-bit `cfg_wdata`, write-only, a write is taken only while",
           "`busy` is 0; a register keeps bits `[width-1:0]` of the write. The software",
           "loader (`driver/engine_loader.cpp`) computes the writes of a scenario, CONTROL last.",
           "The switch's aggregation engine (`switch_aggregator`, last) has the same",
           "configuration port; its writes are taken only while it is idle (no slot in use,",
           "nothing in flight)."]
    for e in engines:
        out += ["", f"## {e['block']}", "",
                f"{'Engine' if e['block'].startswith(BLOCK_PREFIX) else 'Block'} `hls/{e['block']}.hpp`, "
                f"`rtl/{e['block']}.sv`; package `{e['package']}`.", "",
                "| address | register | bits | meaning |", "|---|---|---|---|"]
        for r in e["registers"]:
            last = r["address"] + r["count"] - 1
            address = f"0x{r['address']:02X}" + (f"..0x{last:02X}" if r["count"] > 1 else "")
            out.append(f"| {address} | {listed_name(r)} | {bits(r)} | {r['meaning']} |")
        named = [f"- `{name}`: {what}" if "<<" in value else f"- `{name}` = {value}: {what}"
                 for r in e["registers"] for name, value, what in r["named"]]
        named += [f"- `{name}` = {value}: {meaning}" for name, value, meaning in e["constants"]]
        if named:
            out += ["", f"Named values and table sizes (C++, namespace `collnet::hls::{e['namespace']}`):", ""] + named
    return "\n".join(out) + "\n"


RENDERINGS = (("hls/schedule_engine_registers.hpp", cpp_header), ("rtl/schedule_engine_regs_pkg.sv", sv_packages),
              ("docs/engine_registers.md", documentation))


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main(argv):
    if len(argv) != 3:
        print("usage: engine_registers.py MAP.yaml OUT_DIR", file=sys.stderr)
        return 2
    try:
        engines = load(argv[1])
    except (MapError, OSError) as e:
        print(f"engine_registers.py: {e}", file=sys.stderr)
        return 1
    for path, render in RENDERINGS:
        write_if_changed(os.path.join(argv[2], path), render(engines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
