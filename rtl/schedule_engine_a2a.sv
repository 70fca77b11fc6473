// Schedule engine for the all-to-all baselines of document 001 (a2a-spread,
// a2a-nd): expands one node's program into its descriptor stream, at most one
// descriptor per cycle. RTL of hls/schedule_engine_a2a.hpp, register for
// register (same names); that header documents the stream, the register map
// and the timing. testbench/verilator/schedule_engine_bench.cpp checks that
// this module, the HLS class and the software reference emit the same words.
//
// Register map (write-only, cfg_addr_i; writes are ignored while busy_o):
//   0x0 CONTROL bit 0 = start | 0x1 ALGORITHM (0 spread, 1 nd) | 0x2 NCT 1..4
//   0x3 MESSAGE_WORDS [19:0]  | 0x4..0x7 SIZE0..3 [15:0] (1 if unused)
//   0x8..0xB COORD0..3 [15:0] (0 if unused)
//
// Handshake contract (descriptor side, valid/ready): out_valid_o is a
// register output and does not depend on out_ready_i; a descriptor offered
// and not taken stays offered and unchanged. Initiation interval 1.
//
// Arrays are flat vectors (slot j at [j*W +: W]): Yosys 0.23 reads no packed
// multi-dimensional arrays. Slot j holds dimension 3 - j (slot 0 is the
// fastest digit of the offset odometer).
module schedule_engine_a2a (
  /// Clock; every register samples on its rising edge.
  input  logic                                clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                                rst_ni,
  /// Configuration port: write enable (one register per cycle).
  input  logic                                cfg_we_i,
  /// Configuration port: register address (map above).
  input  logic [3:0]                          cfg_addr_i,
  /// Configuration port: write data.
  input  logic [31:0]                         cfg_wdata_i,
  /// Descriptor side: a descriptor is offered.
  output logic                                out_valid_o,
  /// Descriptor side: the consumer takes the descriptor in this cycle.
  input  logic                                out_ready_i,
  /// Descriptor side: the descriptor (collectives/descriptor.hpp layout).
  output collnet_descriptor_pkg::descriptor_t out_desc_o,
  /// From start until END has been taken; configuration writes are ignored.
  output logic                                busy_o
);

  localparam int unsigned Dims = 4;
  localparam int unsigned SizeWidth = 16;   // n_d, c_d
  localparam int unsigned CountWidth = 17;  // node counts and strides, up to 65536
  localparam int unsigned AddrWidth = 20;   // word addresses
  localparam int unsigned GroupWidth = collnet_descriptor_pkg::TagWidth;

  localparam logic [3:0] RegControl = 4'h0;
  localparam logic [3:0] RegAlgorithm = 4'h1;
  localparam logic [3:0] RegNct = 4'h2;
  localparam logic [3:0] RegMessageWords = 4'h3;
  localparam logic [3:0] RegSize0 = 4'h4;
  localparam logic [3:0] RegCoord0 = 4'h8;
  localparam logic [3:0] RegGroupBarriers = 4'hC;
  localparam logic AlgorithmSpread = 1'b0;

  typedef enum logic [2:0] {
    StateIdle  = 3'd0,
    StateInit  = 3'd1,
    StateFirst = 3'd2,
    StateSend  = 3'd3,
    StateCopy  = 3'd4,
    StateEnd   = 3'd5,
    StateBarrier = 3'd6
  } state_e;

  // configuration
  logic                          algorithm_d, algorithm_q;
  logic [2:0]                    nct_d, nct_q;
  logic [AddrWidth-1:0]          message_words_d, message_words_q;
  logic [Dims*SizeWidth-1:0]     size_d, size_q;
  logic [Dims*SizeWidth-1:0]     coord_d, coord_q;
  state_e                        state_d, state_q;
  // stride computation
  logic [1:0]                    dim_d, dim_q;
  logic [CountWidth-1:0]         count_d, count_q;
  logic [CountWidth-1:0]         acc_d, acc_q;
  logic [AddrWidth-1:0]          macc_d, macc_q;
  logic [CountWidth-1:0]         stride_cur_d, stride_cur_q;
  logic [AddrWidth-1:0]          mstride_cur_d, mstride_cur_q;
  logic [CountWidth-1:0]         self_id_d, self_id_q;
  logic [AddrWidth-1:0]          self_m_d, self_m_q;
  logic [AddrWidth-1:0]          result_base_d, result_base_q;
  // odometer slots
  logic [Dims*CountWidth-1:0]    slot_size_d, slot_size_q;
  logic [Dims*CountWidth-1:0]    slot_stride_d, slot_stride_q;
  logic [Dims*AddrWidth-1:0]     slot_mstride_d, slot_mstride_q;
  logic [Dims*CountWidth-1:0]    slot_offset_d, slot_offset_q;
  logic [Dims*CountWidth-1:0]    slot_target_d, slot_target_q;
  logic [Dims*CountWidth-1:0]    slot_part_d, slot_part_q;
  logic [Dims*AddrWidth-1:0]     slot_mpart_d, slot_mpart_q;
  // grouping
  logic [1:0]                    controller_d, controller_q;
  logic [GroupWidth-1:0]         group_d, group_q;
  logic                          group_barriers_d, group_barriers_q;
  logic [GroupWidth-1:0]         barrier_tag_d, barrier_tag_q;       // the group whose BARRIER is next
  logic                          barrier_then_copy_d, barrier_then_copy_q;  // it follows the last send
  // output register
  logic                          out_valid_d, out_valid_q;
  collnet_descriptor_pkg::descriptor_t out_d, out_q;

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = out_q;
  assign busy_o      = (state_q != StateIdle) || out_valid_q;

  // The register map uses the low 20 bits of a write at most.
  logic unused_cfg_wdata;
  assign unused_cfg_wdata = ^cfg_wdata_i[31:AddrWidth];

  // ---- the odometer's next offset, from the registers (hls: advance()) ----
  logic [Dims-1:0]               adv_apply;  // slot j steps (carry into it)
  logic                          adv_done;   // carry out of the last slot
  logic [Dims*CountWidth-1:0]    adv_offset, adv_target, adv_part;
  logic [Dims*AddrWidth-1:0]     adv_mpart;

  always_comb begin
    logic carry;
    logic offset_wraps, target_wraps;
    carry = 1'b1;
    adv_apply = '0;
    adv_offset = slot_offset_q;
    adv_target = slot_target_q;
    adv_part = slot_part_q;
    adv_mpart = slot_mpart_q;
    for (int j = 0; j < Dims; j++) begin
      adv_apply[j] = carry;
      offset_wraps = (slot_offset_q[j*CountWidth +: CountWidth] + 1'b1) == slot_size_q[j*CountWidth +: CountWidth];
      target_wraps = (slot_target_q[j*CountWidth +: CountWidth] + 1'b1) == slot_size_q[j*CountWidth +: CountWidth];
      adv_offset[j*CountWidth +: CountWidth] =
          offset_wraps ? '0 : slot_offset_q[j*CountWidth +: CountWidth] + 1'b1;
      adv_target[j*CountWidth +: CountWidth] =
          target_wraps ? '0 : slot_target_q[j*CountWidth +: CountWidth] + 1'b1;
      adv_part[j*CountWidth +: CountWidth] = target_wraps ? '0 :
          slot_part_q[j*CountWidth +: CountWidth] + slot_stride_q[j*CountWidth +: CountWidth];
      adv_mpart[j*AddrWidth +: AddrWidth] = target_wraps ? '0 :
          slot_mpart_q[j*AddrWidth +: AddrWidth] + slot_mstride_q[j*AddrWidth +: AddrWidth];
      carry = carry && offset_wraps;
    end
    adv_done = carry;
  end

  // ---- the SEND to the current destination: dest = sum of parts ----
  logic [CountWidth-1:0] send_dest;
  logic [AddrWidth-1:0]  send_src;
  logic [AddrWidth-1:0]  own_area;  // N*m + rank*m: where every receiver stores our data
  always_comb begin
    send_dest = '0;
    send_src = '0;
    for (int j = 0; j < Dims; j++) begin
      send_dest = send_dest + slot_part_q[j*CountWidth +: CountWidth];
      send_src = send_src + slot_mpart_q[j*AddrWidth +: AddrWidth];
    end
    own_area = result_base_q + self_m_q;
  end

  // ---- next state ----
  logic       can_load;
  logic       load;
  collnet_descriptor_pkg::descriptor_t load_word;
  logic [1:0] slot;

  always_comb begin
    // every _d starts as its _q
    algorithm_d = algorithm_q;
    nct_d = nct_q;
    message_words_d = message_words_q;
    size_d = size_q;
    coord_d = coord_q;
    state_d = state_q;
    dim_d = dim_q;
    count_d = count_q;
    acc_d = acc_q;
    macc_d = macc_q;
    stride_cur_d = stride_cur_q;
    mstride_cur_d = mstride_cur_q;
    self_id_d = self_id_q;
    self_m_d = self_m_q;
    result_base_d = result_base_q;
    slot_size_d = slot_size_q;
    slot_stride_d = slot_stride_q;
    slot_mstride_d = slot_mstride_q;
    slot_offset_d = slot_offset_q;
    slot_target_d = slot_target_q;
    slot_part_d = slot_part_q;
    slot_mpart_d = slot_mpart_q;
    controller_d = controller_q;
    group_d = group_q;
    group_barriers_d = group_barriers_q;
    barrier_tag_d = barrier_tag_q;
    barrier_then_copy_d = barrier_then_copy_q;
    load = 1'b0;
    load_word = '0;
    can_load = !out_valid_q || out_ready_i;
    slot = 2'd3 - dim_q;

    // configuration port
    if (cfg_we_i && !busy_o) begin
      unique case (cfg_addr_i)
        RegControl: begin
          if (cfg_wdata_i[0]) begin
            state_d = StateInit;
            dim_d = '0;
            count_d = '0;
            acc_d = '0;
            macc_d = '0;
            stride_cur_d = CountWidth'(1);
            mstride_cur_d = message_words_q;
            self_id_d = '0;
            self_m_d = '0;
            controller_d = '0;
            group_d = '0;
          end
        end
        RegAlgorithm: algorithm_d = cfg_wdata_i[0];
        RegNct: nct_d = cfg_wdata_i[2:0];
        RegMessageWords: message_words_d = cfg_wdata_i[AddrWidth-1:0];
        RegGroupBarriers: group_barriers_d = cfg_wdata_i[0];
        default: begin
          for (int d = 0; d < Dims; d++) begin
            if (cfg_addr_i == RegSize0 + 4'(d)) size_d[d*SizeWidth +: SizeWidth] = cfg_wdata_i[SizeWidth-1:0];
            if (cfg_addr_i == RegCoord0 + 4'(d)) coord_d[d*SizeWidth +: SizeWidth] = cfg_wdata_i[SizeWidth-1:0];
          end
        end
      endcase
    end

    unique case (state_q)
      StateIdle: ;
      StateInit: begin
        // count runs 0..n_d with acc = count x stride_d (hls: init_step())
        if (count_q == CountWidth'(size_q[dim_q*SizeWidth +: SizeWidth])) begin
          for (int j = 0; j < Dims; j++) begin
            if (2'(j) == slot) begin
              slot_size_d[j*CountWidth +: CountWidth] = CountWidth'(size_q[dim_q*SizeWidth +: SizeWidth]);
              slot_stride_d[j*CountWidth +: CountWidth] = stride_cur_q;
              slot_mstride_d[j*AddrWidth +: AddrWidth] = mstride_cur_q;
              slot_offset_d[j*CountWidth +: CountWidth] = '0;
              slot_target_d[j*CountWidth +: CountWidth] = CountWidth'(coord_q[dim_q*SizeWidth +: SizeWidth]);
            end
          end
          stride_cur_d = acc_q;
          mstride_cur_d = macc_q;
          count_d = '0;
          acc_d = '0;
          macc_d = '0;
          if (dim_q == 2'd3) begin
            result_base_d = macc_q;  // N x m
            state_d = StateFirst;
            if (algorithm_q == AlgorithmSpread) begin
              // one dimension of size N at coordinate rank
              slot_size_d = {{(Dims-1)*CountWidth{1'b0}}, acc_q};
              for (int j = 1; j < Dims; j++) slot_size_d[j*CountWidth +: CountWidth] = CountWidth'(1);
              slot_stride_d = {{(Dims-1)*CountWidth{1'b0}}, CountWidth'(1)};
              slot_mstride_d = {{(Dims-1)*AddrWidth{1'b0}}, message_words_q};
              slot_offset_d = '0;
              slot_target_d = {{(Dims-1)*CountWidth{1'b0}}, self_id_q};
              slot_part_d = {{(Dims-1)*CountWidth{1'b0}}, self_id_q};
              slot_mpart_d = {{(Dims-1)*AddrWidth{1'b0}}, self_m_q};
            end
          end else begin
            dim_d = dim_q + 2'd1;
          end
        end else begin
          if (count_q == CountWidth'(coord_q[dim_q*SizeWidth +: SizeWidth])) begin
            self_id_d = self_id_q + acc_q;
            self_m_d = self_m_q + macc_q;
            for (int j = 0; j < Dims; j++) begin
              if (2'(j) == slot) begin
                slot_part_d[j*CountWidth +: CountWidth] = acc_q;
                slot_mpart_d[j*AddrWidth +: AddrWidth] = macc_q;
              end
            end
          end
          count_d = count_q + 1'b1;
          acc_d = acc_q + stride_cur_q;
          macc_d = macc_q + mstride_cur_q;
        end
      end
      StateFirst: begin
        // the zero offset is this node itself: step past it without a send
        for (int j = 0; j < Dims; j++) begin
          if (adv_apply[j]) begin
            slot_offset_d[j*CountWidth +: CountWidth] = adv_offset[j*CountWidth +: CountWidth];
            slot_target_d[j*CountWidth +: CountWidth] = adv_target[j*CountWidth +: CountWidth];
            slot_part_d[j*CountWidth +: CountWidth] = adv_part[j*CountWidth +: CountWidth];
            slot_mpart_d[j*AddrWidth +: AddrWidth] = adv_mpart[j*AddrWidth +: AddrWidth];
          end
        end
        state_d = adv_done ? StateCopy : StateSend;
      end
      StateSend: begin
        if (can_load) begin
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeSend;
          load_word.controller = collnet_descriptor_pkg::ControllerWidth'(controller_q);
          load_word.dest = send_dest[collnet_descriptor_pkg::DestWidth-1:0];
          load_word.src_offset = send_src;
          load_word.dst_offset = own_area;
          load_word.length = message_words_q;
          load_word.tag = group_q;
          if (({1'b0, controller_q} + 3'd1) == nct_q) begin
            controller_d = '0;
            group_d = group_q + 1'b1;
          end else begin
            controller_d = controller_q + 2'd1;
          end
          for (int j = 0; j < Dims; j++) begin
            if (adv_apply[j]) begin
              slot_offset_d[j*CountWidth +: CountWidth] = adv_offset[j*CountWidth +: CountWidth];
              slot_target_d[j*CountWidth +: CountWidth] = adv_target[j*CountWidth +: CountWidth];
              slot_part_d[j*CountWidth +: CountWidth] = adv_part[j*CountWidth +: CountWidth];
              slot_mpart_d[j*AddrWidth +: AddrWidth] = adv_mpart[j*AddrWidth +: AddrWidth];
            end
          end
          if (group_barriers_q && (({1'b0, controller_q} + 3'd1) == nct_q || adv_done)) begin
            state_d = StateBarrier;  // the group's BARRIER, then on
            barrier_tag_d = group_q;
            barrier_then_copy_d = adv_done;
          end else if (adv_done) begin
            state_d = StateCopy;
          end
        end
      end
      StateBarrier: begin
        if (can_load) begin
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeBarrier;
          load_word.tag = barrier_tag_q;
          state_d = barrier_then_copy_q ? StateCopy : StateSend;
        end
      end
      StateCopy: begin
        if (can_load) begin
          // the local copy D(self->self), tagged with the number of groups
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeSend;
          load_word.dest = self_id_q[collnet_descriptor_pkg::DestWidth-1:0];
          load_word.src_offset = self_m_q;
          load_word.dst_offset = own_area;
          load_word.length = message_words_q;
          load_word.tag = group_q + GroupWidth'(controller_q != 2'd0);
          state_d = StateEnd;
        end
      end
      StateEnd: begin
        if (can_load) begin
          load = 1'b1;  // END is the zero word
          state_d = StateIdle;
        end
      end
      default: state_d = StateIdle;
    endcase

    out_valid_d = out_valid_q;
    out_d = out_q;
    if (load) begin
      out_valid_d = 1'b1;
      out_d = load_word;
    end else if (out_ready_i) begin
      out_valid_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      algorithm_q     <= 1'b0;
      nct_q           <= 3'd1;
      message_words_q <= AddrWidth'(1);
      size_q          <= {Dims{SizeWidth'(1)}};
      coord_q         <= '0;
      state_q         <= StateIdle;
      dim_q           <= '0;
      count_q         <= '0;
      acc_q           <= '0;
      macc_q          <= '0;
      stride_cur_q    <= CountWidth'(1);
      mstride_cur_q   <= '0;
      self_id_q       <= '0;
      self_m_q        <= '0;
      result_base_q   <= '0;
      slot_size_q     <= '0;
      slot_stride_q   <= '0;
      slot_mstride_q  <= '0;
      slot_offset_q   <= '0;
      slot_target_q   <= '0;
      slot_part_q     <= '0;
      slot_mpart_q    <= '0;
      controller_q    <= '0;
      group_q         <= '0;
      group_barriers_q <= 1'b0;
      barrier_tag_q   <= '0;
      barrier_then_copy_q <= 1'b0;
      out_valid_q     <= 1'b0;
      out_q           <= '0;
    end else begin
      algorithm_q     <= algorithm_d;
      nct_q           <= nct_d;
      message_words_q <= message_words_d;
      size_q          <= size_d;
      coord_q         <= coord_d;
      state_q         <= state_d;
      dim_q           <= dim_d;
      count_q         <= count_d;
      acc_q           <= acc_d;
      macc_q          <= macc_d;
      stride_cur_q    <= stride_cur_d;
      mstride_cur_q   <= mstride_cur_d;
      self_id_q       <= self_id_d;
      self_m_q        <= self_m_d;
      result_base_q   <= result_base_d;
      slot_size_q     <= slot_size_d;
      slot_stride_q   <= slot_stride_d;
      slot_mstride_q  <= slot_mstride_d;
      slot_offset_q   <= slot_offset_d;
      slot_target_q   <= slot_target_d;
      slot_part_q     <= slot_part_d;
      slot_mpart_q    <= slot_mpart_d;
      controller_q    <= controller_d;
      group_q         <= group_d;
      group_barriers_q <= group_barriers_d;
      barrier_tag_q   <= barrier_tag_d;
      barrier_then_copy_q <= barrier_then_copy_d;
      out_valid_q     <= out_valid_d;
      out_q           <= out_d;
    end
  end

`ifndef SYNTHESIS
  // Output contract: an offered descriptor stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("schedule_engine_a2a: descriptor withdrawn or changed before out_ready_i");

  // Register map contract: NCT is 1..4 when a run starts.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StateInit) |-> (nct_q >= 3'd1 && nct_q <= 3'd4))
    else $error("schedule_engine_a2a: NCT must be 1..4");

  // Register map contract: every coordinate is below its size.
  for (genvar d = 0; d < Dims; d++) begin : g_coord_check
    assert property (@(posedge clk_i) disable iff (!rst_ni)
        (state_q == StateInit) |->
          (coord_q[d*SizeWidth +: SizeWidth] < size_q[d*SizeWidth +: SizeWidth]))
      else $error("schedule_engine_a2a: COORD%0d must be below SIZE%0d", d, d);
  end
`endif

endmodule
