// The tree-bcast forwarding rule of a node (spec tree-broadcast, document
// 003): RTL of hls/tree_bcast_rule.hpp, register for register (same names);
// that header documents the rule and the port numbering.
// testbench/verilator/tree_bcast_rule_bench.cpp checks that this module, the
// HLS class and the software reference (tree_bcast_targets) agree.
//
// Rule: send to every tree neighbour except the one the message came from,
//   send_mask = (child_mask | parent bit) & ~(sender bit).
//
// Handshake contract: a request is taken when in_valid_i && in_ready_o,
// in_ready_o = !out_valid_o || out_ready_i; the answer is registered (latency
// 1), out_valid_o does not depend on out_ready_i, and an answer offered and
// not taken stays offered and unchanged.
module tree_bcast_rule (
  /// Clock; every register samples on its rising edge.
  input  logic        clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic        rst_ni,
  /// Configuration (static during the collective): port of the parent link.
  input  logic [5:0]  parent_port_i,
  /// Configuration: 1 at the physical root (no parent; parent_port_i ignored).
  input  logic        is_root_i,
  /// Configuration: bit p set when port p leads to a child.
  input  logic [63:0] child_mask_i,
  /// Request side: a message arrived (or the logical root starts).
  input  logic        in_valid_i,
  /// Request side: the request is taken in this cycle when in_valid_i.
  output logic        in_ready_o,
  /// Request side: 1 at the logical root (the message has no sender).
  input  logic        from_none_i,
  /// Request side: the port the message came from (from_none_i = 0).
  input  logic [5:0]  from_port_i,
  /// Answer side: an answer is offered.
  output logic        out_valid_o,
  /// Answer side: the consumer takes the answer in this cycle.
  input  logic        out_ready_i,
  /// Answer side: the ports to forward the message to.
  output logic [63:0] out_mask_o
);

  logic        out_valid_d, out_valid_q;
  logic [63:0] out_mask_d, out_mask_q;
  logic [63:0] parent_bit, from_bit, send_mask;

  assign in_ready_o = !out_valid_q || out_ready_i;

  // spec tree-broadcast: every tree neighbour except the sender.
  assign parent_bit = is_root_i ? 64'd0 : (64'd1 << parent_port_i);
  assign from_bit   = from_none_i ? 64'd0 : (64'd1 << from_port_i);
  assign send_mask  = (child_mask_i | parent_bit) & ~from_bit;

  always_comb begin
    out_valid_d = out_valid_q;
    out_mask_d  = out_mask_q;
    if (in_valid_i && in_ready_o) begin
      out_valid_d = 1'b1;
      out_mask_d  = send_mask;
    end else if (out_ready_i) begin
      out_valid_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_mask_q  <= '0;
    end else begin
      out_valid_q <= out_valid_d;
      out_mask_q  <= out_mask_d;
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_mask_o  = out_mask_q;

`ifndef SYNTHESIS
  // A message arrives only on a link of the tree.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (in_valid_i && in_ready_o && !from_none_i) |->
        (child_mask_i[from_port_i] || (!is_root_i && from_port_i == parent_port_i)))
    else $error("tree_bcast_rule: message from port %0d, which is not a tree link", from_port_i);

  // Answer contract: an offered answer stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_mask_o)))
    else $error("tree_bcast_rule: answer dropped or changed before out_ready_i");
`endif

endmodule
