// The tree-bcast forwarding rule of a node (spec tree-broadcast, document
// 003): RTL of hls/tree_bcast_rule.hpp, register for register (same names);
// that header documents the rule and the port numbering.
// bench/verilator/tree_bcast_rule_bench.cpp checks that this module, the
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

`ifdef FORMAL
  // Formal properties (scripts/formal.sh; Yosys read_verilog -formal, proven
  // by induction with yosys-smtbmc). The rule is stated case by case as the
  // spec and hls/tree_bcast_rule.hpp word it, at any port p, not as the
  // mask formula above; f_* remembers the request whose answer is offered.
  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  initial assume (!rst_ni);

  logic       f_from_none;  // the offered answer's request: no sender
  logic [5:0] f_from_port;  //   and its arrival port
  always @(posedge clk_i) begin
    if (in_valid_i && in_ready_o) begin
      f_from_none <= from_none_i;
      f_from_port <= from_port_i;
    end
  end

  // Environment: the configuration is static (loaded once, before the
  // collective) and well formed (the parent link is not a child link); a
  // message arrives only on a tree link (the contract asserted above).
  always @(posedge clk_i) begin
    if (f_past_valid)
      assume (parent_port_i == $past(parent_port_i) && is_root_i == $past(is_root_i) &&
              child_mask_i == $past(child_mask_i));
    assume (is_root_i || !child_mask_i[parent_port_i]);
    if (in_valid_i && !from_none_i)
      assume (child_mask_i[from_port_i] || (!is_root_i && from_port_i == parent_port_i));
  end

  // R2..R5 are checked at one port f_port that the solver may choose freely
  // (a constant of the run): proven for every port at once.
  (* anyconst *) logic [5:0] f_port;

  logic f_is_leaf, f_from_parent;
  assign f_is_leaf     = child_mask_i == '0;
  assign f_from_parent = !f_from_none && !is_root_i && f_from_port == parent_port_i;

  // Every assertion is labelled with its property group (R1_..., H_...):
  // scripts/formal.sh checks that each group it lists has assertions and
  // names the group a failing assertion belongs to.
  always @(posedge clk_i) begin
    if (rst_ni && out_valid_o) begin
      // R1: never back to the port the message came from.
      if (!f_from_none) R1_not_back: assert (!out_mask_o[f_from_port]);
      // R2 physical root: every child but the sender, and nothing else.
      if (is_root_i)
        R2_root: assert (out_mask_o[f_port] == (child_mask_i[f_port] && (f_from_none || f_from_port != f_port)));
      // R3 from the parent: exactly the children.
      if (f_from_parent) R3_from_parent: assert (out_mask_o[f_port] == child_mask_i[f_port]);
      // R4 from a child: the parent and every other child.
      if (!f_from_none && !f_from_parent)
        R4_from_child: assert (out_mask_o[f_port] == ((child_mask_i[f_port] && f_from_port != f_port) ||
                                                      (!is_root_i && parent_port_i == f_port)));
      // R5 logical root: the parent (if any) and every child.
      if (f_from_none)
        R5_logical_root: assert (out_mask_o[f_port] == (child_mask_i[f_port] ||
                                                         (!is_root_i && parent_port_i == f_port)));
      // R6 leaves: a leaf forwards a message from its parent to nobody, and
      // as the logical root sends to its parent only.
      if (f_is_leaf && f_from_parent) R6_leaf_from_parent: assert (out_mask_o == '0);
      if (f_is_leaf && f_from_none && !is_root_i) R6_leaf_root: assert (out_mask_o == (64'd1 << parent_port_i));
    end
    // H: an offered answer stays offered and unchanged until taken; an
    // answer appears only for an accepted request.
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(out_valid_o && !out_ready_i))
      H_held: assert (out_valid_o && out_mask_o == $past(out_mask_o));
    if (f_past_valid && $past(rst_ni) && rst_ni && !$past(out_valid_o) && !$past(in_valid_i && in_ready_o))
      H_no_request: assert (!out_valid_o);
    if (rst_ni) H_ready: assert (in_ready_o == (!out_valid_o || out_ready_i));
  end

  // Covers (scripts/formal.sh checks that each is reached from reset within
  // its depth): every case of the rule answers, with a non-empty mask where
  // the case forwards, so that no assertion holds only because its case
  // never occurs.
  always @(posedge clk_i) begin
    if (rst_ni && out_valid_o) begin
      // R1: a message from a port whose answer forwards elsewhere.
      cover_R1_forwarded: cover (!f_from_none && out_mask_o != '0);
      // R2: the physical root answers a message from a child, to another child.
      cover_R2_root_from_child: cover (is_root_i && !f_from_none && out_mask_o != '0);
      // R3: a message from the parent goes to a child.
      cover_R3_from_parent: cover (f_from_parent && out_mask_o != '0);
      // R4: a message from a child goes up to the parent and to another child.
      cover_R4_from_child: cover (!f_from_none && !f_from_parent && !is_root_i && out_mask_o[parent_port_i] &&
                                  (out_mask_o & child_mask_i) != '0);
      // R5: the logical root (not the physical one) sends up and down.
      cover_R5_logical_root: cover (f_from_none && !is_root_i && out_mask_o[parent_port_i] &&
                                    (out_mask_o & child_mask_i) != '0);
      // R6: a leaf answers a message from its parent, and one as the logical root.
      cover_R6_leaf_from_parent: cover (f_is_leaf && f_from_parent);
      cover_R6_leaf_root: cover (f_is_leaf && f_from_none && !is_root_i);
      // H: an answer is not taken.
      cover_H_stall: cover (!out_ready_i);
    end
  end
`endif

endmodule
