// The skeleton instance of every schedule engine (rtl/schedule_engine_*.sv):
// rtl/common/schedule_engine_skeleton.sv with the engine's registers, the
// output buffer, busy and the configuration gate. `include it last in the
// module; it connects the names every engine declares:
//   regs_t r_d, r_q, regs_reset   the register struct: next, current, after reset
//   state_e r_q.state             StateIdle = not started (busy_o low)
//   load, load_word               load this descriptor into the output buffer
//   cfg_write, can_load           the skeleton's answers: the configuration
//                                 write is taken; the engine may load
  schedule_engine_skeleton #(.RegsWidth($bits(r_q))) u_skeleton (.clk_i, .rst_ni, .cfg_we_i, .out_ready_i,
      .out_valid_o, .out_desc_o, .busy_o, .running_i(r_q.state != StateIdle), .load_i(load), .load_word_i(load_word),
      .cfg_write_o(cfg_write), .can_load_o(can_load), .regs_d_i(r_d), .regs_reset_i(regs_reset), .regs_q_o(r_q));
