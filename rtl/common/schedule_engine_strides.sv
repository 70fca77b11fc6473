// The strides and the node's rank on a four-dimensional grid, by repeated
// addition (no multiplier), for the engines that start with them (a2a,
// hopgroup; hls: their init steps). Dimension by dimension, t runs from 0 to
// n_d, one value per cycle in which step_i is high, with
//   acc = t x stride_d and acc_m = t x stride_d x m,
// stride_0 = 1 and stride_{d+1} = n_d x stride_d (acc at t = n_d). At t = c_d
// the node's share is added to its rank (self_id = sum c_d x stride_d) and to
// its rank x m (self_m). The cycle with at_size_o and dim_o = 3 is the last
// one (done_o): acc_o is then N, acc_m_o is N x m, and self_id_o, self_m_o
// are final. The engine reads the outputs in each step's cycle and writes
// what it keeps of them (strides, the node's share per dimension, ...) into
// its own registers.
//
// In every cycle without step_i the module stands at dimension 0, t = 0,
// stride 1 and stride x m = words_i (m), ready for the engine's start; the
// rank and rank x m keep their values until the first step clears them. The
// counter steps only while the engine holds step_i (its state of the
// computation, entered at start), so it takes sum_d (n_d + 1) steps.
//
// Timing: the current dimension's n_d and c_d are registers (size_cur,
// coord_cur, with c_d - 1 and n_d - 2: dimension 0's in every cycle
// without step_i, so they are ready at start, and the next dimension's when
// the dimension moves on), and the compares t = c_d, t = n_d and t + 1 = n_d are
// registers set a step ahead (at_coord, at_size, at_last: from t = c_d - 1,
// the previous at_last and t = n_d - 2, or from the next dimension's n_d and
// c_d against 0 and 1), so
// no choice by dimension and no compare sits before the enables that the
// flags drive, here and in the engine. SIZE and COORD do not change while the
// engine steps (configuration writes are ignored while it is busy), so every
// dimension's n_d - 2, c_d - 1 and flags of t = 0 are registers too
// (dim_size_m2_q, ...: they follow SIZE and COORD a cycle later, and are first
// read at the first change of dimension, two cycles or more after the start
// write, which changes neither), and the change of dimension is a choice of
// registers by the current dimension, with neither step_i nor an adder before
// it.
module schedule_engine_strides #(
  /// Bits of a size n_d and of t.
  parameter int unsigned SizeWidth = 16,
  /// Bits of a coordinate c_d.
  parameter int unsigned CoordWidth = 16,
  /// Bits of node counts and strides (up to N).
  parameter int unsigned CountWidth = 17,
  /// Bits of word addresses (up to N x m).
  parameter int unsigned AddrWidth = 20
) (
  /// Clock; every register samples on its rising edge.
  input  logic                        clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                        rst_ni,
  /// m, the words of one message (read in the cycles without step_i).
  input  logic [AddrWidth-1:0]        words_i,
  /// Step to the next t (or the next dimension after t = n_d).
  input  logic                        step_i,
  /// n_d at [d*SizeWidth +: SizeWidth].
  input  logic [4*SizeWidth-1:0]      size_i,
  /// c_d at [d*CoordWidth +: CoordWidth].
  input  logic [4*CoordWidth-1:0]     coord_i,
  /// The dimension d of this step.
  output logic [1:0]                  dim_o,
  /// t.
  output logic [SizeWidth-1:0]        t_o,
  /// n_d, the size of dimension d.
  output logic [SizeWidth-1:0]        size_o,
  /// c_d, the coordinate in dimension d.
  output logic [CoordWidth-1:0]       coord_o,
  /// t x stride_d.
  output logic [CountWidth-1:0]       acc_o,
  /// t x stride_d x m.
  output logic [AddrWidth-1:0]        acc_m_o,
  /// stride_d.
  output logic [CountWidth-1:0]       stride_o,
  /// stride_d x m.
  output logic [AddrWidth-1:0]        mstride_o,
  /// t = c_d: acc_o, acc_m_o are the node's share of dimension d.
  output logic                        at_coord_o,
  /// t = n_d: acc_o, acc_m_o are stride_{d+1} and its multiple of m.
  output logic                        at_size_o,
  /// t + 1 = n_d: acc_o, acc_m_o are (n_d - 1) x stride_d and its multiple of m.
  output logic                        at_last_o,
  /// at_size_o in the last dimension: acc_o = N, acc_m_o = N x m.
  output logic                        done_o,
  /// The node's rank, sum c_d x stride_d over the dimensions passed.
  output logic [CountWidth-1:0]       self_id_o,
  /// The node's rank x m.
  output logic [AddrWidth-1:0]        self_m_o
);

  typedef struct packed {
    logic [1:0]             dim;
    logic [SizeWidth-1:0]   t;
    logic [CountWidth-1:0]  acc, stride, self_id;   // t x stride_d, stride_d, the rank
    logic [AddrWidth-1:0]   acc_m, mstride, self_m;  // each x m
    logic [SizeWidth-1:0]   size_cur;   // n_d
    logic [CoordWidth-1:0]  coord_cur;  // c_d
    logic [SizeWidth-1:0]   size_m2, coord_m1;  // n_d - 2 and c_d - 1: t + 2 = n_d and t + 1 = c_d, no adder
    logic                   at_coord, at_size, at_last;  // t = c_d, t = n_d, t + 1 = n_d
    logic                   first;  // the next step is the first (the rank starts at 0)
  } regs_t;
  regs_t r_d, r_q;

  // Every dimension's n_d - 2, c_d - 1 and the flags of t = 0 (c_d = 0,
  // n_d = 0, n_d = 1), a cycle after SIZE and COORD.
  logic [4*SizeWidth-1:0] dim_size_m2_q, dim_coord_m1_q;
  logic [3:0]             dim_coord_zero_q, dim_size_zero_q, dim_size_one_q;
  always_ff @(posedge clk_i) begin
    for (int d = 0; d < 4; d++) begin
      dim_size_m2_q[d*SizeWidth +: SizeWidth] <= size_i[d*SizeWidth +: SizeWidth] - SizeWidth'(2);
      dim_coord_m1_q[d*SizeWidth +: SizeWidth] <= SizeWidth'(coord_i[d*CoordWidth +: CoordWidth]) - SizeWidth'(1);
      dim_coord_zero_q[d] <= coord_i[d*CoordWidth +: CoordWidth] == '0;
      dim_size_zero_q[d] <= size_i[d*SizeWidth +: SizeWidth] == '0;
      dim_size_one_q[d] <= size_i[d*SizeWidth +: SizeWidth] == SizeWidth'(1);
    end
  end

  // The dimension after the current one (the last stays), which the
  // registers take when the dimension moves on, chosen from registers.
  logic [1:0]            dim_next;
  logic [SizeWidth-1:0]  size_next, size_m2_next, coord_m1_next;
  logic [CoordWidth-1:0] coord_next;
  logic [2:0]            flags_next;  // at_coord, at_size, at_last of t = 0
  assign dim_next = r_q.dim == 2'd3 ? 2'd3 : r_q.dim + 2'd1;
  assign size_next = size_i[dim_next*SizeWidth +: SizeWidth];
  assign coord_next = coord_i[dim_next*CoordWidth +: CoordWidth];
  assign size_m2_next = dim_size_m2_q[dim_next*SizeWidth +: SizeWidth];
  assign coord_m1_next = dim_coord_m1_q[dim_next*SizeWidth +: SizeWidth];
  assign flags_next = {dim_coord_zero_q[dim_next], dim_size_zero_q[dim_next], dim_size_one_q[dim_next]};

  // Dimension 0's, taken in every cycle without step_i (so that they are
  // ready at start): from SIZE0 and COORD0 themselves, which the cycle
  // before the start write may have written.
  logic [SizeWidth-1:0]  size0;
  logic [CoordWidth-1:0] coord0;
  assign size0 = size_i[SizeWidth-1:0];
  assign coord0 = coord_i[CoordWidth-1:0];

  assign at_coord_o = r_q.at_coord;
  assign at_size_o = r_q.at_size;
  assign at_last_o = r_q.at_last;
  assign done_o = r_q.at_size && r_q.dim == 2'd3;

  always_comb begin
    r_d = r_q;
    if (!step_i) begin
      // dimension 0 and the flags of t = 0 in it, ready at start
      r_d.size_cur = size0;
      r_d.coord_cur = coord0;
      r_d.size_m2 = size0 - SizeWidth'(2);
      r_d.coord_m1 = SizeWidth'(coord0) - SizeWidth'(1);
      {r_d.at_coord, r_d.at_size, r_d.at_last} = {coord0 == '0, size0 == '0, size0 == SizeWidth'(1)};
    end else if (r_q.at_size) begin
      // the next dimension and the flags of t = 0 in it: registers
      r_d.size_cur = size_next;
      r_d.coord_cur = coord_next;
      r_d.size_m2 = size_m2_next;
      r_d.coord_m1 = coord_m1_next;
      {r_d.at_coord, r_d.at_size, r_d.at_last} = flags_next;
    end
    r_d.first = !step_i;
    if (!step_i) begin
      // ready for the first step: dimension 0, t = 0, stride 1 (the rank
      // and its multiple of m are kept for the engine until then)
      {r_d.dim, r_d.t, r_d.acc, r_d.acc_m} = '0;
      r_d.stride = CountWidth'(1);
      r_d.mstride = words_i;
    end else begin
      if (r_q.first) {r_d.self_id, r_d.self_m} = '0;  // t = 0 in dimension 0: the share is 0
      if (r_q.at_size) begin
        // the next dimension's stride; t starts again
        r_d.stride = r_q.acc;
        r_d.mstride = r_q.acc_m;
        {r_d.t, r_d.acc, r_d.acc_m} = '0;
        r_d.dim = dim_next;  // step_i: the next dimension
      end else begin
        // the flags of t + 1
        r_d.at_coord = r_q.t == r_q.coord_m1;  // t + 1 = c_d
        r_d.at_size = r_q.at_last;
        r_d.at_last = r_q.t == r_q.size_m2;  // t + 2 = n_d
        if (r_q.at_coord && !r_q.first) begin
          r_d.self_id = r_q.self_id + r_q.acc;
          r_d.self_m = r_q.self_m + r_q.acc_m;
        end
        r_d.t = r_q.t + SizeWidth'(1);
        r_d.acc = r_q.acc + r_q.stride;
        r_d.acc_m = r_q.acc_m + r_q.mstride;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      r_q <= '0;
      r_q.stride <= CountWidth'(1);
    end else begin
      r_q <= r_d;
    end
  end

`ifdef FORMAL
  // Formal property (scripts/formal.sh, inside the engines that use the
  // module, where SIZE and COORD do not change while the engine steps):
  // S1: while the engine steps, the current dimension's n_d and c_d are
  // those of the inputs, n_d - 2 and c_d - 1 follow them, and the flags are
  // the compares they stand for; every dimension's registers of t = 0 are
  // those of its n_d and c_d.
  // Every assertion is labelled with its property group (S1_...):
  // scripts/formal.sh checks that each group it lists has assertions and
  // names the group a failing assertion belongs to.
  logic f_dims_follow;  // every dimension's registers of t = 0 are those of its n_d and c_d
  always_comb begin
    f_dims_follow = 1'b1;
    for (int d = 0; d < 4; d++)
      f_dims_follow &= dim_size_m2_q[d*SizeWidth +: SizeWidth] == size_i[d*SizeWidth +: SizeWidth] - SizeWidth'(2) &&
                       dim_coord_m1_q[d*SizeWidth +: SizeWidth] ==
                           SizeWidth'(coord_i[d*CoordWidth +: CoordWidth]) - SizeWidth'(1) &&
                       dim_coord_zero_q[d] == (coord_i[d*CoordWidth +: CoordWidth] == '0) &&
                       dim_size_zero_q[d] == (size_i[d*SizeWidth +: SizeWidth] == '0) &&
                       dim_size_one_q[d] == (size_i[d*SizeWidth +: SizeWidth] == SizeWidth'(1));
  end
  always @(posedge clk_i) begin
    if (rst_ni && step_i) begin
      S1_dims: assert (f_dims_follow);
      S1_current: assert (r_q.size_cur == size_i[r_q.dim*SizeWidth +: SizeWidth] &&
                          r_q.coord_cur == coord_i[r_q.dim*CoordWidth +: CoordWidth] &&
                          r_q.at_coord == (r_q.t == SizeWidth'(r_q.coord_cur)) &&
                          r_q.at_size == (r_q.t == r_q.size_cur) &&
                          r_q.at_last == (r_q.t + SizeWidth'(1) == r_q.size_cur) &&
                          r_q.size_m2 == r_q.size_cur - SizeWidth'(2) &&
                          r_q.coord_m1 == SizeWidth'(r_q.coord_cur) - SizeWidth'(1));
    end
  end

  // Covers (scripts/formal.sh checks that each is reached from reset within
  // the engine's cover depth): the engine steps, and the stride computation
  // moves on to the next dimension.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      cover_S1_step: cover (step_i && !r_q.first);
      cover_S1_next_dimension: cover (step_i && r_q.at_size && r_q.dim == 2'd0);
    end
  end
`endif

  assign dim_o = r_q.dim;
  assign t_o = r_q.t;
  assign size_o = r_q.size_cur;
  assign coord_o = r_q.coord_cur;
  assign acc_o = r_q.acc;
  assign acc_m_o = r_q.acc_m;
  assign stride_o = r_q.stride;
  assign mstride_o = r_q.mstride;
  assign self_id_o = r_q.self_id;
  assign self_m_o = r_q.self_m;

endmodule
