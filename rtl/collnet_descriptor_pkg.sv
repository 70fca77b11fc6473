// The descriptor word in SystemVerilog: a mirror of the packed layout defined
// once in collectives/descriptor.hpp (docs/architecture.md, "the one interface
// everything shares"). tests/rtl/descriptor_pkg_test.cpp parses this file and
// checks every field position and width against the C++ `descriptor_layout`,
// so a change on one side without the other fails the build's tests.
//
// Written in the subset both Verilator 5.006 and Yosys 0.23 read: localparams,
// plain typedefs, one packed struct (no unions, no functions on structs) and
// the builders of the descriptors the engines emit, which return a plain
// vector filled at the field positions (Yosys 0.23 reads no member assignment
// to a function's struct result, and infers a latch for a struct result
// returned inside a branch of always_comb).
// The package defines every field for every block; a block uses only some,
// so unused-parameter lint is off inside the package only.
/* verilator lint_off UNUSEDPARAM */
package collnet_descriptor_pkg;

  /// Width of the packed descriptor word, and the bits that carry fields.
  localparam int unsigned DescriptorWidth = 128;
  localparam int unsigned DescriptorUsedBits = 125;

  // Field positions: <Field>Lsb is the least significant bit, <Field>Width
  // the number of bits (bit 0 = least significant bit of the word).
  localparam int unsigned OpcodeLsb = 0;
  localparam int unsigned OpcodeWidth = 2;
  localparam int unsigned ControllerLsb = 2;
  localparam int unsigned ControllerWidth = 3;
  localparam int unsigned OpLsb = 5;
  localparam int unsigned OpWidth = 3;
  localparam int unsigned DtypeLsb = 8;
  localparam int unsigned DtypeWidth = 1;
  localparam int unsigned RouteHintLsb = 9;
  localparam int unsigned RouteHintWidth = 8;
  localparam int unsigned GapLsb = 17;
  localparam int unsigned GapWidth = 8;
  localparam int unsigned SlackLsb = 25;
  localparam int unsigned SlackWidth = 8;
  localparam int unsigned DestLsb = 33;
  localparam int unsigned DestWidth = 16;
  localparam int unsigned SrcOffsetLsb = 49;
  localparam int unsigned SrcOffsetWidth = 20;
  localparam int unsigned DstOffsetLsb = 69;
  localparam int unsigned DstOffsetWidth = 20;
  localparam int unsigned LengthLsb = 89;
  localparam int unsigned LengthWidth = 20;
  localparam int unsigned TagLsb = 109;
  localparam int unsigned TagWidth = 16;
  localparam int unsigned ReservedLsb = 125;
  localparam int unsigned ReservedWidth = 3;

  /// Opcode values (C++ `Opcode`).
  localparam logic [OpcodeWidth-1:0] OpcodeEnd = 2'd0;
  localparam logic [OpcodeWidth-1:0] OpcodeSend = 2'd1;
  localparam logic [OpcodeWidth-1:0] OpcodeWait = 2'd2;
  localparam logic [OpcodeWidth-1:0] OpcodeBarrier = 2'd3;

  /// Receive operation values (C++ `ReceiveOp`).
  localparam logic [OpWidth-1:0] OpCopy = 3'd0;
  localparam logic [OpWidth-1:0] OpSum = 3'd1;
  localparam logic [OpWidth-1:0] OpProduct = 3'd2;
  localparam logic [OpWidth-1:0] OpMax = 3'd3;
  localparam logic [OpWidth-1:0] OpMin = 3'd4;
  localparam logic [OpWidth-1:0] OpDivide = 3'd5;

  typedef logic [GapWidth-1:0] gap_t;
  typedef logic [SlackWidth-1:0] slack_t;

  /// The packed word, most significant field first (so `tag` ends at bit 124
  /// and `opcode` starts at bit 0, as in the C++ header comment).
  typedef struct packed {
    logic [ReservedWidth-1:0]   reserved;
    logic [TagWidth-1:0]        tag;
    logic [LengthWidth-1:0]     length;
    logic [DstOffsetWidth-1:0]  dst_offset;
    logic [SrcOffsetWidth-1:0]  src_offset;
    logic [DestWidth-1:0]       dest;
    logic [SlackWidth-1:0]      slack;
    logic [GapWidth-1:0]        gap;
    logic [RouteHintWidth-1:0]  route_hint;
    logic [DtypeWidth-1:0]      dtype;
    logic [OpWidth-1:0]         op;
    logic [ControllerWidth-1:0] controller;
    logic [OpcodeWidth-1:0]     opcode;
  } descriptor_t;

  // The builders of Descriptor::send, ::wait and ::barrier (END is the zero
  // word). A field a builder does not take is zero: an engine that sets the
  // controller, route hint, pacing, receive operation or data type assigns
  // that member of the result.

  /// SEND `length` words from `src_offset` to `dst_offset` of endpoint `dest`, tagged `tag`.
  function automatic logic [DescriptorWidth-1:0] send_descriptor(input logic [DestWidth-1:0] dest,
      input logic [SrcOffsetWidth-1:0] src_offset, input logic [DstOffsetWidth-1:0] dst_offset,
      input logic [LengthWidth-1:0] length, input logic [TagWidth-1:0] tag);
    logic [DescriptorWidth-1:0] word;
    word = '0;
    word[OpcodeLsb +: OpcodeWidth] = OpcodeSend;
    word[DestLsb +: DestWidth] = dest;
    word[SrcOffsetLsb +: SrcOffsetWidth] = src_offset;
    word[DstOffsetLsb +: DstOffsetWidth] = dst_offset;
    word[LengthLsb +: LengthWidth] = length;
    word[TagLsb +: TagWidth] = tag;
    send_descriptor = word;
  endfunction

  /// WAIT until `count` messages tagged `tag` have arrived (the count travels in `length`).
  function automatic logic [DescriptorWidth-1:0] wait_descriptor(input logic [TagWidth-1:0] tag, input logic [LengthWidth-1:0] count);
    logic [DescriptorWidth-1:0] word;
    word = '0;
    word[OpcodeLsb +: OpcodeWidth] = OpcodeWait;
    word[LengthLsb +: LengthWidth] = count;
    word[TagLsb +: TagWidth] = tag;
    wait_descriptor = word;
  endfunction

  /// BARRIER number `tag`.
  function automatic logic [DescriptorWidth-1:0] barrier_descriptor(input logic [TagWidth-1:0] tag);
    logic [DescriptorWidth-1:0] word;
    word = '0;
    word[OpcodeLsb +: OpcodeWidth] = OpcodeBarrier;
    word[TagLsb +: TagWidth] = tag;
    barrier_descriptor = word;
  endfunction

endpackage
/* verilator lint_on UNUSEDPARAM */
