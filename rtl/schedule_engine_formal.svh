// The formal properties every schedule engine shares (rtl/schedule_engine_*.sv),
// written once; scripts/formal.sh proves them with Yosys's SMT flow. An
// engine `include-s it inside `ifdef FORMAL, after declaring
//   localparam logic [7:0] FormalControlAddr   its CONTROL register's address
// and uses the names every engine declares (r_q.state, StateIdle, cfg_write,
// load, can_load). The engine adds the property on its own configuration
// registers (unchanged while busy). f_* are the monitor's registers.
//
// E1 handshake: a descriptor offered and not taken stays offered and unchanged.
// E2 nothing is offered before the first start (a CONTROL write of bit 0 that
//    is taken), and the engine stays idle until then.
// E3 nothing is offered after END (the zero word) has been taken, until the
//    next start; END is offered only by an idle engine (its last word).
// E4 loads go only into the output buffer while it has room (it is not
//    full), and a write is taken only while not busy.
  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  initial assume (!rst_ni);

  logic f_start, f_end_taken;
  logic f_started;  // a start was taken since reset
  logic f_ended;    // END was taken since the last start
  assign f_start     = cfg_write && cfg_addr_i == FormalControlAddr && cfg_wdata_i[0];
  assign f_end_taken = out_valid_o && out_ready_i && out_desc_o == '0;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_started <= 1'b0;
      f_ended   <= 1'b0;
    end else begin
      if (f_start) f_started <= 1'b1;
      if (f_start) f_ended <= 1'b0;
      else if (f_end_taken) f_ended <= 1'b1;
    end
  end

  always @(posedge clk_i) begin
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(out_valid_o && !out_ready_i))
      assert (out_valid_o && out_desc_o == $past(out_desc_o));                      // E1
    if (rst_ni) begin
      if (!f_started) assert (!out_valid_o && r_q.state == StateIdle);               // E2
      if (f_ended) assert (!out_valid_o && r_q.state == StateIdle);                  // E3
      if (out_valid_o && out_desc_o == '0) assert (r_q.state == StateIdle);         // E3
      if (load) assert (can_load);                                                   // E4
      if (cfg_write) assert (!busy_o);                                               // E4
    end
  end
