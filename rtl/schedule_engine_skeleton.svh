// The end of every schedule engine (rtl/schedule_engine_*.sv), written once:
// the formal properties every engine shares (schedule_engine_formal.svh, for
// formal runs only) and the skeleton instance,
// rtl/common/schedule_engine_skeleton.sv with the engine's registers, the
// output buffer, busy and the configuration gate. `include it last in the
// module, after defining the engine's differences (this file undefines them):
//   `SCHEDULE_ENGINE_RUNNING        the engine's state is not idle (busy_o is
//                                   running or a descriptor offered):
//                                   r_q.state != StateIdle, or the idle bit's
//                                   inverse in an engine whose state is
//                                   one-hot (an expression in the port
//                                   connection, not a wire of its own: Yosys's
//                                   netlist stays that of the expression)
//   `SCHEDULE_ENGINE_REGS_PKG       the engine's register package (CONTROL's address)
//   `SCHEDULE_ENGINE_CONFIG_REGS    one concatenation of the registers the
//                                   configuration port writes (E5: unchanged while busy)
//   `SCHEDULE_ENGINE_COVER_PROGRAM  1'b1: cover a program's events (the
//                                   engines whose first descriptor leaves
//                                   within 10 steps of reset), else 1'b0
// It connects the names every engine declares:
//   regs_t r_d, r_q, regs_reset   the register struct: next, current, after reset
//   state_e r_q.state             StateIdle = not started
//   load, load_word               load this descriptor into the output buffer
//   cfg_write, can_load           the skeleton's answers: the configuration
//                                 write is taken; the engine may load
`ifdef FORMAL
`include "schedule_engine_formal.svh"
`endif

  // the registers, the output buffer, busy and the configuration gate
  schedule_engine_skeleton #(.RegsWidth($bits(r_q))) u_skeleton (.clk_i, .rst_ni, .cfg_we_i, .out_ready_i,
      .out_valid_o, .out_desc_o, .busy_o, .running_i(`SCHEDULE_ENGINE_RUNNING), .load_i(load),
      .load_word_i(load_word), .cfg_write_o(cfg_write), .can_load_o(can_load), .regs_d_i(r_d),
      .regs_reset_i(regs_reset), .regs_q_o(r_q));
`undef SCHEDULE_ENGINE_RUNNING
`undef SCHEDULE_ENGINE_REGS_PKG
`undef SCHEDULE_ENGINE_CONFIG_REGS
`undef SCHEDULE_ENGINE_COVER_PROGRAM
