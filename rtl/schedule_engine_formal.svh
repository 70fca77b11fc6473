// The formal properties every schedule engine shares (rtl/schedule_engine_*.sv),
// written once; scripts/formal.sh proves them with Yosys's SMT flow.
// schedule_engine_skeleton.svh `include-s it inside `ifdef FORMAL, with the
// engine's macros (SCHEDULE_ENGINE_REGS_PKG, SCHEDULE_ENGINE_CONFIG_REGS,
// SCHEDULE_ENGINE_COVER_PROGRAM: that file lists them) and the names every
// engine declares (r_q.state, StateIdle, cfg_write, load, can_load). An
// engine adds its own properties in an `ifdef FORMAL block of its own. f_*
// are the monitor's registers.
//
// E1 handshake: a descriptor offered and not taken stays offered and unchanged.
// E2 nothing is offered before the first start (a CONTROL write of bit 0 that
//    is taken), and the engine stays idle until then.
// E3 nothing is offered after END (the zero word) has been taken, until the
//    next start; END is offered only by an idle engine (its last word).
// E4 loads go only into the output buffer while it has room (it is not
//    full), and a write is taken only while not busy.
// E5 every register the configuration port writes keeps its value through a
//    cycle that starts busy (a write while busy is ignored).
// Every assertion is labelled with its group (E1_held, ...): scripts/formal.sh
// checks that each group it lists has assertions and names the group of a
// failing one.
  localparam logic [7:0] FormalControlAddr = `SCHEDULE_ENGINE_REGS_PKG::RegControl;
  localparam bit FormalCoverProgram = `SCHEDULE_ENGINE_COVER_PROGRAM;
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
      E1_held: assert (out_valid_o && out_desc_o == $past(out_desc_o));
    if (rst_ni) begin
      if (!f_started) E2_idle_before_start: assert (!out_valid_o && r_q.state == StateIdle);
      if (f_ended) E3_idle_after_end: assert (!out_valid_o && r_q.state == StateIdle);
      if (out_valid_o && out_desc_o == '0) E3_end_from_idle: assert (r_q.state == StateIdle);
      if (load) E4_load_room: assert (can_load);
      if (cfg_write) E4_write_idle: assert (!busy_o);
    end
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(busy_o))
      E5_unchanged: assert (`SCHEDULE_ENGINE_CONFIG_REGS == $past(`SCHEDULE_ENGINE_CONFIG_REGS));
  end

  // Covers (scripts/formal.sh checks that each is reached from reset within
  // the engine's cover depth): in every engine a start is taken and a
  // configuration write arrives while the engine runs (refused); the events
  // of a program (a descriptor not taken at once, a full output buffer, END
  // taken, a restart after it) in the engines that set FormalCoverProgram
  // (their first descriptor leaves within 10 steps of reset). In a2a the
  // first descriptor leaves 13 steps after reset, in hopgroup and twotree
  // more than 20: z3 takes minutes to reach it, too long for every test run.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      cover_E2_start: cover (f_start);
      cover_E4_write_refused: cover (cfg_we_i && busy_o);
      cover_E5_write_while_running: cover (f_started && r_q.state != StateIdle && cfg_we_i &&
                                           cfg_addr_i != FormalControlAddr);
    end
  end
  if (FormalCoverProgram) begin : g_cover_program
    always @(posedge clk_i) begin
      if (rst_ni) begin
        cover_E1_stall: cover (f_started && out_valid_o && !out_ready_i);
        cover_E4_full: cover (f_started && !can_load);
        cover_E3_end_taken: cover (f_end_taken);
        cover_E3_restart: cover (f_ended && f_start);
      end
    end
  end
