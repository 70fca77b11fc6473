// The closing states of every schedule engine's program (rtl/schedule_engine_*.sv),
// written once. `include this file at the top of the engine; end its state
// case with
//   `SCHEDULE_ENGINE_END_STATES   StateEnd loads END (the zero descriptor, as
//                                 hls/schedule_engine.hpp's end_of_program) and
//                                 goes idle; then the idle states below
//   `SCHEDULE_ENGINE_IDLE_STATES  StateIdle holds (busy_o low); any other
//                                 state value goes idle
// Names the engine declares: r_d, load, can_load, StateEnd, StateIdle.
`ifndef SCHEDULE_ENGINE_STATES_SVH
`define SCHEDULE_ENGINE_STATES_SVH

`define SCHEDULE_ENGINE_IDLE_STATES \
      StateIdle: ; \
      default: r_d.state = StateIdle;

`define SCHEDULE_ENGINE_END_STATES \
      StateEnd: if (can_load) {load, r_d.state} = {1'b1, StateIdle}; \
      `SCHEDULE_ENGINE_IDLE_STATES

`endif  // SCHEDULE_ENGINE_STATES_SVH
