// The programmable schedule engine: a descriptor sequencer that replays the
// program software has written into its descriptor memory, one descriptor
// per cycle, until END. RTL of hls/schedule_engine_programmable.hpp,
// register for register (same names); that header documents the loading,
// the register map and the timing.
// bench/verilator/schedule_engine_programmable_bench.cpp checks that this
// module, the HLS class and the reference programs emit the same words.
//
// Memory (one write port, one synchronous read port: block RAM): the
// descriptor memory, Depth x 128 bits. Depth is a parameter; the default is
// the map's constant program_entries (hls/engine_registers.yaml), which the
// HLS class and the loader use; scripts/synth.sh also synthesizes smaller
// memories.
//
// Register map: package schedule_engine_programmable_regs_pkg
// (schedule_engine_regs_pkg.sv, generated from hls/engine_registers.yaml into
// build/generated/rtl/); ports: schedule_engine_ports.svh; registers and
// output buffer: common/schedule_engine_skeleton.sv (instance and the shared
// formal properties: schedule_engine_skeleton.svh); closing states:
// schedule_engine_states.svh.
`include "schedule_engine_states.svh"

module schedule_engine_programmable #(
  /// Descriptors the memory holds, a power of two (program_entries = 4096).
  parameter int unsigned Depth = 4096
) (
`include "schedule_engine_ports.svh"
);

  localparam int unsigned PcWidth = $clog2(Depth);

  typedef enum logic [0:0] {StateIdle, StateRun} state_e;

  typedef struct packed {
    // configuration
    logic [PcWidth-1:0]   prog_addr;  // PROG_ADDR: write pointer
    logic [2:0][31:0]     data;       // PROG_DATA0..2, staged for the PROG_DATA3 write
    state_e               state;
    logic [PcWidth-1:0]   pc;         // the word in the read register
  } regs_t;
  regs_t r_d, r_q, regs_reset;
  logic  cfg_write;  // the configuration write of this cycle is taken
  logic  can_load;   // the output buffer has room (a register)

  // Plain vectors: Yosys 0.23 does not infer a memory from an array of the
  // packed descriptor struct.
  logic [127:0] program_mem [Depth];
  logic [127:0] read_q;  // program_mem[r_q.pc] while running

  // ---- next state ----
  logic mem_we, read_en, start;
  logic [PcWidth-1:0] read_addr;
  // PROG_DATA<k> decoded by equality with each address (no subtraction
  // before the memory's write enable)
  localparam logic [7:0] ProgData0 = schedule_engine_programmable_regs_pkg::RegProgData0;
  localparam logic [7:0] ProgData3 = ProgData0 + 8'd3;
  logic load;
  collnet_descriptor_pkg::descriptor_t load_word;

  always_comb begin
    r_d = r_q;
    regs_reset = '0;
    load = 1'b0;
    load_word = '0;
    mem_we = 1'b0;
    start = 1'b0;

    // configuration port
    if (cfg_write) begin
      unique case (cfg_addr_i)
        schedule_engine_programmable_regs_pkg::RegControl: begin
          if (cfg_wdata_i[0]) begin
            start = 1'b1;
            r_d.state = StateRun;
            r_d.pc = '0;
          end
        end
        schedule_engine_programmable_regs_pkg::RegProgAddr: r_d.prog_addr = cfg_wdata_i[PcWidth-1:0];
        // PROG_DATA0..2 are staged, PROG_DATA3 stores the word and advances PROG_ADDR
        ProgData0: r_d.data[0] = cfg_wdata_i;
        ProgData0 + 8'd1: r_d.data[1] = cfg_wdata_i;
        ProgData0 + 8'd2: r_d.data[2] = cfg_wdata_i;
        ProgData3: begin
          mem_we = 1'b1;
          r_d.prog_addr = r_q.prog_addr + PcWidth'(1);
        end
        default: ;
      endcase
    end

    unique case (r_q.state)
      StateRun: begin
        if (can_load) begin
          // the word as read (END is the zero word); the program counter
          // advances past END too, so that the read address does not wait
          // for the END check of the word
          load = 1'b1;
          load_word = read_q;
          r_d.pc = r_q.pc + PcWidth'(1);
          if (read_q == '0) r_d.state = StateIdle;  // END loaded: the engine is idle after it
        end
      end
      `SCHEDULE_ENGINE_IDLE_STATES
    endcase
  end

  // The read port reads the word at the next program counter while the
  // engine runs and in the start cycle (the cycle of an END too: the word
  // after it, unused); the write port writes only while it is idle (cfg_write).
  assign read_en = start || r_q.state == StateRun;
  assign read_addr = r_d.pc;

  // ---- memory: one write port, one synchronous read port ----
  always_ff @(posedge clk_i) begin
    if (mem_we) program_mem[r_q.prog_addr] <= {cfg_wdata_i, r_q.data[2], r_q.data[1], r_q.data[0]};
  end
  always_ff @(posedge clk_i) begin
    if (read_en) read_q <= program_mem[read_addr];
  end

`ifndef SYNTHESIS
  // Contract: the program ends with END within the memory (the program
  // counter does not wrap).
  always_ff @(posedge clk_i) begin
    if (rst_ni && r_q.state == StateRun && can_load && read_q != '0)
      assert (r_q.pc != PcWidth'(Depth - 1))
        else $error("schedule_engine_programmable: the program runs past the end of the descriptor memory without END");
  end
`endif

`ifdef FORMAL
  // E5 (formal, besides the shared properties below): the memory is not
  // written while busy.
  always @(posedge clk_i) if (rst_ni && busy_o) E5_no_memory_write: assert (!mem_we);
`endif

  // The skeleton instance (running: the state is not idle) and the formal
  // properties every engine shares (E5 on the registers the
  // configuration port writes; covers of a program's events: yes, END is
  // taken 4 steps after reset).
`define SCHEDULE_ENGINE_RUNNING r_q.state != StateIdle
`define SCHEDULE_ENGINE_REGS_PKG schedule_engine_programmable_regs_pkg
`define SCHEDULE_ENGINE_CONFIG_REGS {r_q.prog_addr, r_q.data}
`define SCHEDULE_ENGINE_COVER_PROGRAM 1'b1
`include "schedule_engine_skeleton.svh"

endmodule
