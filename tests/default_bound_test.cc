// The default bound's sizes around the blocks (DESIGN.md, "Bounded verification"): they go to
// the dimension that feeds a masked index, at BLOCK - 1, BLOCK + 1 and 2 * BLOCK + 1; a flattened
// index varies its innermost size; a size written as an expression is a dimension like any other;
// configurations past the element cap are named, not run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "verify/bound_sizes.h"
#include "verify/verify.h"

namespace keq::verify {
namespace {

namespace fs = std::filesystem;

// A reference and a candidate written to a fresh folder.
struct Files {
  fs::path dir, ref, cand;
  Files(const std::string& name, const std::string& ref_text, const std::string& cand_text)
      : dir(fs::temp_directory_path() / ("keq_default_bound_" + name)),
        ref(dir / "ref.py"),
        cand(dir / "cand.py") {
    fs::create_directories(dir);
    std::ofstream(ref) << ref_text;
    std::ofstream(cand) << cand_text;
  }
  ~Files() { fs::remove_all(dir); }
  std::vector<Report> run() const { return verify_default_bound(ref.string(), cand.string(), {}); }
};

// What every candidate here starts with.
const std::string kTritonImports =
    "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n\n\n";

// A kernel that doubles n elements, BLOCK a program, the tail masked.
const std::string kTwiceKernel =
    "@triton.jit\ndef twice(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    m = offs < n\n"
    "    tl.store(y_ptr + offs, 2 * tl.load(x_ptr + offs, mask=m), mask=m)\n\n\n";

// The __init__ of models that GroupNorm their input over `channels` in `num_groups` groups.
const std::string kGroupNormInit =
    "    def __init__(self, channels, num_groups):\n        super().__init__()\n"
    "        self.gn = nn.GroupNorm(num_groups, channels)\n\n";

std::string row_sum_ref(const std::string& dims) {
  return "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
         "    def forward(self, x):\n        return x.sum(dim=1)\n\n\n" +
         dims + "\n\n\ndef get_inputs():\n    return [torch.randn(rows, cols)]\n";
}

// A row sum over `trips` blocks of BLOCK (for trips = "tl.cdiv(n_cols, BLOCK)" every block).
std::string row_sum_cand(const std::string& trips, int block) {
  return kTritonImports +
         "@triton.jit\ndef row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):\n"
         "    row = tl.program_id(0)\n    acc = 0.0\n    for i in range(" +
         trips +
         "):\n        offs = i * BLOCK + tl.arange(0, BLOCK)\n"
         "        acc += tl.sum(tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, "
         "other=0.0), axis=0)\n    tl.store(y_ptr + row, acc)\n\n\nclass ModelNew(nn.Module):\n"
         "    def forward(self, x):\n        rows, cols = x.shape\n"
         "        y = torch.empty(rows, device=x.device)\n"
         "        row_sum[(rows,)](x, y, cols, BLOCK=" +
         std::to_string(block) + ")\n        return y\n";
}

// A max-pooling of 2 over a row: its output length L // 2 is a limit no product of sizes makes.
// The candidate covers one block of 8 outputs, whatever the length.
std::string pool2_ref() {
  return "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
         "    def forward(self, x):\n"
         "        return nn.functional.max_pool1d(x.unsqueeze(1), kernel_size=2).squeeze(1)\n\n\n"
         "rows = 16\nlength = 64\n\n\ndef get_inputs():\n    return [torch.randn(rows, length)]\n";
}
std::string pool2_cand() {
  return kTritonImports +
         "@triton.jit\ndef pool2(x_ptr, y_ptr, n_in, n_out, BLOCK: tl.constexpr):\n"
         "    row = tl.program_id(0)\n    j = tl.arange(0, BLOCK)\n    m = j < n_out\n"
         "    a = tl.load(x_ptr + row * n_in + 2 * j, mask=m, other=0.0)\n"
         "    b = tl.load(x_ptr + row * n_in + 2 * j + 1, mask=m, other=0.0)\n"
         "    tl.store(y_ptr + row * n_out + j, tl.maximum(a, b), mask=m)\n\n\n"
         "class ModelNew(nn.Module):\n    def forward(self, x):\n        rows, n = x.shape\n"
         "        y = torch.empty(rows, n // 2, device=x.device)\n"
         "        pool2[(rows,)](x, y, n, n // 2, BLOCK=8)\n        return y\n";
}

std::vector<std::string> bounds(const std::vector<Report>& rs) {
  std::vector<std::string> out;
  for (const Report& r : rs) out.push_back(r.bound);
  return out;
}

// The first configuration found NOT_EQUIVALENT, or null.
const Report* first_refuted(const std::vector<Report>& rs) {
  for (const Report& r : rs)
    if (r.verdict == Verdict::NotEquivalent) return &r;
  return nullptr;
}

// The first configuration refuted was chosen for `why` (its bound line says so).
void expect_refuted_at(const std::vector<Report>& rs, const std::string& why,
                       const std::string& if_none) {
  const Report* wrong = first_refuted(rs);
  ASSERT_NE(wrong, nullptr) << if_none;
  EXPECT_NE(wrong->bound.find(why), std::string::npos) << wrong->bound;
}

// A report's notes, a line each.
std::string notes_of(const Report& r) {
  std::string out;
  for (const std::string& n : r.notes) out += n + "\n";
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& part) {
  return std::any_of(v.begin(), v.end(),
                     [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

TEST(DefaultBound, SizesAroundTheBlockGoToTheMaskedDimension) {
  // cols feeds the mask (offs < n_cols); rows only the grid. cols is written as an expression.
  Files f("masked", row_sum_ref("rows = 4096\ncols = 2 ** 14"),
          row_sum_cand("tl.cdiv(n_cols, BLOCK)", 4));
  std::vector<Report> rs = f.run();
  std::vector<std::string> b = bounds(rs);
  for (const Report& r : rs) EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << r.reason;
  EXPECT_TRUE(has(b, "rows=2,cols=5 (default bound, cols at BLOCK+1, BLOCK 4)")) << b.size();
  EXPECT_TRUE(has(b, "rows=2,cols=9 (default bound, cols at 2*BLOCK+1, BLOCK 4)"));
  EXPECT_FALSE(has(b, "rows at")) << "rows feeds no masked index";
  EXPECT_FALSE(has(b, "rows past")) << "rows feeds no masked index";
}

TEST(DefaultBound, ABugPastTwoBlocksIsFoundAtTwiceTheBlockPlusOne) {
  // Two blocks of 4 are summed whatever the width: right up to 8 columns, wrong from 9.
  Files f("two_blocks", row_sum_ref("rows = 16\ncols = 64"), row_sum_cand("2", 4));
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  const Report* wrong = first_refuted(rs);
  ASSERT_NE(wrong, nullptr) << "the third block is never read at BLOCK+1";
  EXPECT_NE(wrong->bound.find("cols at 2*BLOCK+1"), std::string::npos) << wrong->bound;
  ASSERT_TRUE(wrong->counterexample);
}

// A guard of the row against the row stride (the column count) instead of the row count: rows
// past it return early and are never stored. Every default size has fewer rows than columns, so
// the guard never fires; the bound then makes each size in turn larger than the others' product
// and keeps the one where the programs take the guard.
TEST(DefaultBound, AConditionNeverTakenGetsASizePastTheOthers) {
  std::string cand = row_sum_cand("tl.cdiv(n_cols, BLOCK)", 4);
  const std::string body = "    row = tl.program_id(0)\n";
  cand.replace(cand.find(body), body.size(), body + "    if row >= n_cols:\n        return\n");
  Files f("guard_vs_stride", row_sum_ref("rows = 2\ncols = 3"), cand);
  std::vector<Report> rs = f.run();
  expect_refuted_at(rs, "rows past the product of the other sizes",
                    "rows past the columns are never written");
}

// A host branch on the element count: small inputs take a right path, large ones a launch that
// drops the last column. No size around the block passes 64 elements; the bound doubles each
// size in turn until the candidate takes the host `if` its other way, and keeps that size.
// The row sum launched where the host's `condition` holds; elsewhere a launch that drops the
// last column.
std::string row_sum_right_only_if(const std::string& condition) {
  std::string cand = row_sum_cand("tl.cdiv(n_cols, BLOCK)", 4);
  const std::string launch = "        row_sum[(rows,)](x, y, cols, BLOCK=4)\n";
  cand.replace(cand.find(launch), launch.size(),
               "        if " + condition + ":\n    " + launch +
                   "        else:\n            row_sum[(rows,)](x, y, cols - 1, BLOCK=4)\n");
  return cand;
}

TEST(DefaultBound, AHostBranchOnTheSizesGetsASizeThatTakesItsOtherWay) {
  Files f("host_branch_on_size", row_sum_ref("rows = 2\ncols = 3"),
          row_sum_right_only_if("rows * cols <= 64"));
  std::vector<Report> rs = f.run();
  expect_refuted_at(rs, "doubled to", "the host branch for large inputs never ran");
}

// A 2 x 2 max pool whose programs each cover BLOCK outputs of one plane, masked by the lane's
// own offset (not the program's): past one block of outputs, the second program writes into
// the next plane. At the first sizes the outputs' 2 x 2 = 4 equal the height of 4, whose own
// bounds check confirmed that the limit 4 was the height's; the second sizes trace the output
// count again and reach 132 outputs (DLBlas L1 42).
TEST(DefaultBound, ALimitThatCoincidesWithASizeIsTracedAtTheOtherSizes) {
  Files f("coinciding_limit",
          "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
          "    def forward(self, x):\n        return nn.functional.max_pool2d(x, 2, 2)\n\n\n"
          "batch_size = 16\nchannels = 32\nheight = 128\nwidth = 128\n\n\n"
          "def get_inputs():\n    return [torch.randn(batch_size, channels, height, width)]\n",
          kTritonImports +
              "@triton.jit\ndef pool(x_ptr, y_ptr, H, W, OH, OW, BLOCK: tl.constexpr):\n"
              "    plane = tl.program_id(0)\n    offs = tl.arange(0, BLOCK)\n"
              "    mask = offs < OH * OW\n    idx = tl.program_id(1) * BLOCK + offs\n"
              "    oh = idx // OW\n    ow = idx % OW\n"
              "    best = tl.full((BLOCK,), float('-inf'), tl.float32)\n"
              "    for di in range(2):\n        for dj in range(2):\n"
              "            i = oh * 2 + di\n            j = ow * 2 + dj\n"
              "            m = mask & (i < H) & (j < W)\n"
              "            v = tl.load(x_ptr + plane * H * W + i * W + j, mask=m, "
              "other=float('-inf'))\n"
              "            best = tl.maximum(best, v)\n"
              "    tl.store(y_ptr + plane * OH * OW + oh * OW + ow, best, mask=mask)\n\n\n"
              "class ModelNew(nn.Module):\n    def forward(self, x):\n"
              "        n, c, h, w = x.shape\n        oh, ow = h // 2, w // 2\n"
              "        y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)\n"
              "        pool[(n * c, triton.cdiv(oh * ow, 128))](x, y, h, w, oh, ow, BLOCK=128)\n"
              "        return y\n");
  std::vector<Report> rs = f.run();
  expect_refuted_at(rs, "so a limit computed from it is at",
                    "the output count's limit was taken for the height's and never searched");
}

// A reference that asserts a size at its file's value, whose other inputs then make it too large
// to run (16 heads of 128 before a 2048 x 2048 projection): no sizes tried are accepted, and the
// notes name those left out past the element cap, so the UNKNOWN says where accepted sizes are.
TEST(DefaultBound, NoSizesAcceptedNameTheSizesLeftOut) {
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x, w):\n        assert x.shape[1] == 16 * 128\n"
      "        assert w.shape[1] == 8 * 128\n"
      "        return x @ w\n\n\nrows = 4\nhidden = 2048\nout = 1024\n\n\n"
      "def get_inputs():\n    return [torch.randn(rows, hidden), torch.randn(hidden, out)]\n";
  Files f("no_sizes_accepted", ref,
          kTritonImports +
              "class ModelNew(nn.Module):\n    def forward(self, x, w):\n"
              "        return x @ w\n");
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs[0].verdict, Verdict::Unknown);
  EXPECT_NE(rs[0].reason.find("no configuration both sides accept among the sizes tried"),
            std::string::npos)
      << rs[0].reason;
  bool named = false;
  for (const std::string& n : rs[0].notes)
    named |= n.find("past the 262144 it runs") != std::string::npos;
  EXPECT_TRUE(named) << "no note names the sizes past the element cap";
  for (const std::string& n : rs[0].notes)
    EXPECT_EQ(n.find("bound: skipped " + rs[0].bound + ":"), std::string::npos) << n;
}

// A host branch on two sizes being equal (a square path, or ResNet's block that builds its
// downsample only when the channels differ): the bound's sizes are distinct, so each size is
// also given each other's value, and kept where the candidate takes the `if` its other way.
TEST(DefaultBound, AHostBranchOnTwoSizesBeingEqualGetsThemEqual) {
  Files f("host_branch_on_equal_sizes", row_sum_ref("rows = 2\ncols = 3"),
          row_sum_right_only_if("rows != cols"));
  std::vector<Report> rs = f.run();
  expect_refuted_at(rs, "equal to", "the host branch for square inputs never ran");
}

// A reference whose output reads torch.empty memory it never wrote is as if it raised: ERROR
// naming the read, never a verdict against the candidate (the read was keq's own stop before).
TEST(DefaultBound, AReferenceReadingUnwrittenMemoryIsAnError) {
  Files f("ref_reads_unwritten",
          "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
          "    def forward(self, x):\n        y = torch.empty(x.shape[0], x.shape[1] + 1)\n"
          "        y[:, :x.shape[1]] = x\n        return y.sum(dim=1)\n\n\n"
          "rows = 2\ncols = 3\n\n\ndef get_inputs():\n    return [torch.randn(rows, cols)]\n",
          "import torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n"
          "    def forward(self, x):\n        return x.sum(dim=1)\n");
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  for (const Report& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::Error) << r.reason;
    EXPECT_NE(r.reason.find("ref.py:9:16: memory that nothing wrote"), std::string::npos)
        << r.reason;
  }
}

TEST(DefaultBound, AFlattenedIndexVariesItsInnermostSizeAndKeepsATail) {
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x):\n        return torch.relu(x)\n\n\nrows = 64\ncols = 64\n\n\n"
      "def get_inputs():\n    return [torch.randn(rows, cols)]\n";
  std::string cand =
      kTritonImports +
      "@triton.jit\ndef relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
      "    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)\n\n\n"
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        y = torch.empty_like(x)\n"
      "        n = x.numel()\n        relu[(triton.cdiv(n, 8),)](x, y, n, BLOCK=8)\n"
      "        return y\n";
  Files f("flattened", ref, cand);
  std::vector<Report> rs = f.run();
  bool flattened = false;
  for (const Report& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound;
    if (r.bound.find("a flattened index") == std::string::npos) continue;
    flattened = true;
    EXPECT_NE(r.bound.find("cols at"), std::string::npos) << r.bound;  // the innermost size
    int64_t elements = r.dims[0].second[0] * r.dims[1].second[0];
    EXPECT_NE(elements % 8, 0) << r.bound << ": no tail";
  }
  EXPECT_TRUE(flattened);
}

// A Linear's output is batch x out_features: its flattened index skips in_features, which
// lies between them in the file.
TEST(DefaultBound, AFlattenedIndexMayLeaveOutADimensionBetweenItsSizes) {
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def __init__(self, in_features, out_features):\n        super().__init__()\n"
      "        self.fc = nn.Linear(in_features, out_features)\n\n"
      "    def forward(self, x):\n        return torch.relu(self.fc(x))\n\n\n"
      "batch_size = 64\nin_features = 64\nout_features = 64\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, in_features)]\n\n\n"
      "def get_init_inputs():\n    return [in_features, out_features]\n";
  std::string cand =
      kTritonImports +
      "@triton.jit\ndef relu(x_ptr, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
      "    tl.store(x_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)\n\n\n"
      "class ModelNew(nn.Module):\n    def __init__(self, in_features, out_features):\n"
      "        super().__init__()\n        self.fc = nn.Linear(in_features, out_features)\n\n"
      "    def forward(self, x):\n        y = self.fc(x)\n"
      "        relu[(triton.cdiv(y.numel(), 8),)](y, y.numel(), BLOCK=8)\n        return y\n";
  Files f("linear", ref, cand);
  std::vector<Report> rs = f.run();
  for (const Report& r : rs) EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << r.reason;
  EXPECT_TRUE(has(bounds(rs), "out_features at BLOCK+1, BLOCK 8 (a flattened index)")) << rs.size();
}

TEST(DefaultBound, SizesPastTheElementCapAreNamedNotRun) {
  // One program per a over the flattened b * c: 131,071 elements need c = 43,691 (at a=2, b=3).
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x):\n        return x * 2.0\n\n\na = 8\nb = 8\nc = 8\n\n\n"
      "def get_inputs():\n    return [torch.randn(a, b, c)]\n";
  std::string cand =
      kTritonImports +
      "@triton.jit\ndef scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.arange(0, BLOCK)\n    base = tl.program_id(0) * n\n"
      "    x = tl.load(x_ptr + base + offs, mask=offs < n)\n"
      "    tl.store(y_ptr + base + offs, x * 2.0, mask=offs < n)\n\n\n"
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        y = torch.empty_like(x)\n"
      "        scale[(x.shape[0],)](x, y, x.shape[1] * x.shape[2], BLOCK=131072)\n"
      "        return y\n";
  Files f("cap", ref, cand);
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs.size(), 2u) << "only the two small configurations run";
  bool named = false;
  for (const std::string& n : rs[0].notes)
    named = named || (n.find("bound: skipped a=2,b=3,c=43691") != std::string::npos &&
                      n.find("past the 262144 it runs") != std::string::npos);
  EXPECT_TRUE(named);
}

TEST(DefaultBound, ALoopUnrolledOverBlocksGetsSizesAroundItsStep) {
  // Two blocks of 4 a trip: the bug (the second block's sum kept from the first trip only) shows
  // once a second trip has a second block, from 13 columns: the blocks' own sizes (5, 3, 9) never
  // get there, the step's 2 * 8 + 1 does.
  std::string cand =
      kTritonImports +
      "@triton.jit\ndef row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    acc = 0.0\n    acc2 = 0.0\n    offs = tl.arange(0, BLOCK)\n"
      "    for off in range(0, n_cols, 2 * BLOCK):\n"
      "        a = off + offs\n        b = off + BLOCK + offs\n"
      "        acc += tl.sum(tl.load(x_ptr + row * n_cols + a, mask=a < n_cols, other=0.0))\n"
      "        part = tl.sum(tl.load(x_ptr + row * n_cols + b, mask=b < n_cols, other=0.0))\n"
      "        acc2 = tl.where(off == 0, part, acc2)\n"
      "    tl.store(y_ptr + row, acc + acc2)\n\n\nclass ModelNew(nn.Module):\n"
      "    def forward(self, x):\n        rows, cols = x.shape\n"
      "        y = torch.empty(rows, device=x.device)\n"
      "        row_sum[(rows,)](x, y, cols, BLOCK=4)\n        return y\n";
  Files f("unrolled", row_sum_ref("rows = 16\ncols = 64"), cand);
  std::vector<Report> rs = f.run();
  std::vector<std::string> b = bounds(rs);
  EXPECT_TRUE(has(b, "cols at STEP-1, STEP 8")) << b.size();  // STEP + 1 is 2 * BLOCK + 1
  const Report* wrong = first_refuted(rs);
  ASSERT_NE(wrong, nullptr) << "no size gave the loop a second trip with a third block";
  EXPECT_NE(wrong->bound.find("cols at 2*STEP+1, STEP 8"), std::string::npos) << wrong->bound;
}

// A row mean whose blocks are counted by a loop over cdiv(cols, 8) blocks unrolled by 4: the
// unrolled trip counts 4 full blocks, wrong when the row ends inside them (an LLM-written
// LayerNorm, which testing at multiples of its block accepted). The block count is no product of
// sizes, and growing cols by 2 cols + 1 does not move it from 1: the bound grows the size until it
// does, then searches cols for a count of exactly one unrolled trip (STEP), which ends partial.
TEST(DefaultBound, AnUnrolledLoopOverACountOfBlocksGetsOneTripThatEndsPartial) {
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x):\n        return x.mean(dim=1)\n\n\nrows = 16\ncols = 64\n\n\n"
      "def get_inputs():\n    return [torch.randn(rows, cols)]\n";
  std::string cand =
      kTritonImports +
      "@triton.jit\ndef row_mean(x_ptr, y_ptr, n_cols, n_blocks, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    acc = 0.0\n    count = 0.0\n"
      "    for b in range(0, n_blocks, 4):\n"
      "        if b + 3 < n_blocks:\n"
      "            for j in range(4):\n"
      "                offs = (b + j) * BLOCK + tl.arange(0, BLOCK)\n"
      "                acc += tl.sum(tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, "
      "other=0.0))\n"
      "            count += 4.0 * BLOCK\n"
      "        else:\n"
      "            for j in range(b, n_blocks):\n"
      "                offs = j * BLOCK + tl.arange(0, BLOCK)\n"
      "                acc += tl.sum(tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, "
      "other=0.0))\n"
      "                count += tl.sum(tl.where(offs < n_cols, 1.0, 0.0))\n"
      "    tl.store(y_ptr + row, acc / count)\n\n\nclass ModelNew(nn.Module):\n"
      "    def forward(self, x):\n        rows, cols = x.shape\n"
      "        y = torch.empty(rows, device=x.device)\n"
      "        row_mean[(rows,)](x, y, cols, triton.cdiv(cols, 8), BLOCK=8)\n        return y\n";
  Files f("unrolled_count", ref, cand);
  expect_refuted_at(f.run(), "so a limit computed from it is at STEP, STEP 4",
                    "no size gave the unrolled loop a trip that ends partial");
}

TEST(DefaultBound, ALimitComputedFromASizeIsSearchedForItsTail) {
  // The masked limit is a pooling's output length, L // 2: no product of sizes, so only a search
  // over L puts it past the one block of 8 the kernel covers (L = 18); L = 9 (L at BLOCK + 1)
  // leaves 4 outputs, where the kernel is right.
  std::string ref = pool2_ref(), cand = pool2_cand();
  Files f("computed_limit", ref, cand);
  expect_refuted_at(f.run(), "length so a limit computed from it is at BLOCK+1, BLOCK 8",
                    "no size put the output length past one block");
}

TEST(DefaultBound, AComputedLimitNoSizeReachesExactlyGetsTheNearestTail) {
  // The masked limit is 4 L (a concatenation's length): never 33 = BLOCK + 1 for BLOCK 32, so
  // the nearest past it (36, L = 9) is taken, where the one block the kernel covers leaves four
  // outputs unwritten.
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x):\n        return torch.cat([x, x, x, x], dim=1)\n\n\n"
      "rows = 16\nlength = 64\n\n\ndef get_inputs():\n    return [torch.randn(rows, length)]\n";
  std::string cand =
      kTritonImports +
      "@triton.jit\ndef cat4(x_ptr, y_ptr, n_in, n_out, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    j = tl.arange(0, BLOCK)\n    m = j < n_out\n"
      "    v = tl.load(x_ptr + row * n_in + j % n_in, mask=m, other=0.0)\n"
      "    tl.store(y_ptr + row * n_out + j, v, mask=m)\n\n\n"
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        rows, n = x.shape\n"
      "        y = torch.empty(rows, 4 * n, device=x.device)\n"
      "        cat4[(rows,)](x, y, n, 4 * n, BLOCK=32)\n        return y\n";
  Files f("nearest_limit", ref, cand);
  expect_refuted_at(f.run(),
                    "length so a limit computed from it is at 36 (the nearest to "
                    "BLOCK+1), BLOCK 32",
                    "no size put the output length past one block");
}

TEST(DefaultBound, TheSizeThatMovesAComputedLimitIsFoundBeforeOthersGrowLarge) {
  // A direct 3x3 convolution masks its output pixels at (H - 2) * (W - 2), a limit no product
  // of sizes makes. The search grew each size before it (batch, in_channels) eight times over
  // and again, to hundreds, before trying the height: with a loop over the input channels that
  // took the search's whole share, and the sizes around the block were never run.
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def __init__(self, cin, cout):\n        super().__init__()\n"
      "        self.conv = nn.Conv2d(cin, cout, 3, bias=False)\n\n"
      "    def forward(self, x):\n        return self.conv(x)\n\n\n"
      "batch_size = 16\nin_channels = 8\nheight = 64\nwidth = 64\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, in_channels, height, width)]\n\n\n"
      "def get_init_inputs():\n    return [in_channels, 4]\n";
  std::string cand =
      kTritonImports +
      "@triton.jit\ndef conv(x_ptr, w_ptr, y_ptr, C, H, W, CO, OH, OW, BLOCK: tl.constexpr):\n"
      "    nc = tl.program_id(0)\n    n = nc // CO\n    co = nc % CO\n"
      "    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)\n    m = offs < OH * OW\n"
      "    oh = offs // OW\n    ow = offs % OW\n    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"
      "    for ci in range(C):\n        for kh in tl.static_range(3):\n"
      "            for kw in tl.static_range(3):\n"
      "                xv = tl.load(x_ptr + ((n * C + ci) * H + oh + kh) * W + ow + kw, mask=m, "
      "other=0.0)\n"
      "                acc += xv * tl.load(w_ptr + ((co * C + ci) * 3 + kh) * 3 + kw)\n"
      "    tl.store(y_ptr + nc * OH * OW + offs, acc, mask=m)\n\n\n"
      "class ModelNew(nn.Module):\n    def __init__(self, cin, cout):\n"
      "        super().__init__()\n        self.conv = nn.Conv2d(cin, cout, 3, bias=False)\n\n"
      "    def forward(self, x):\n        N, C, H, W = x.shape\n"
      "        CO = self.conv.weight.shape[0]\n        OH, OW = H - 2, W - 2\n"
      "        y = torch.empty((N, CO, OH, OW), device=x.device)\n"
      "        grid = (N * CO, triton.cdiv(OH * OW, 32))\n"
      "        conv[grid](x, self.conv.weight, y, C, H, W, CO, OH, OW, BLOCK=32)\n        return "
      "y\n";
  Files f("conv_computed_limit", ref, cand);
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs[0].verdict, Verdict::Equivalent) << rs[0].reason;
  std::string all;
  for (const std::string& b : bounds(rs)) all += b + "\n";
  EXPECT_NE(all.find("height so a limit computed from it is at"), std::string::npos) << all;
  for (const std::string& n : rs[0].notes)
    EXPECT_EQ(n.find("the search for them stopped"), std::string::npos) << n;
}

TEST(DefaultBound, TheSearchForComputedLimitsStopsAtItsShareOfTheTimeout) {
  // The pooling of ALimitComputedFromASizeIsSearchedForItsTail with --timeout 0.01: the search
  // for sizes around its output length gets 1.25 ms, runs out, and says so in the notes.
  std::string ref = pool2_ref(), cand = pool2_cand();
  Files f("computed_limit_timeout", ref, cand);
  Options opt;
  opt.timeout_s = 0.01;
  std::vector<Report> rs = verify_default_bound(f.ref.string(), f.cand.string(), opt);
  ASSERT_FALSE(rs.empty());
  std::string notes;
  for (const std::string& n : rs[0].notes) notes += n + "\n";
  EXPECT_NE(notes.find("bound: skipped sizes around limits computed from sizes: the search for "
                       "them stopped at its share of the time budget (0.00 s)"),
            std::string::npos)
      << notes;
}

TEST(DefaultBound, TheSizeSearchStopsAtTheRunsDeadlineWhateverItsShare) {
  // A search begun near the end of --timeout has a share of it past the run's deadline: its
  // probes ran to the share's end (LLMKernel L3 50: 15 s past a 60 s --timeout, until the
  // watchdog stopped keq). The run's deadline bounds the probe's.
  std::string ref = pool2_ref(), cand = pool2_cand();
  Files f("probe_run_deadline", ref, cand);
  const auto now = std::chrono::steady_clock::now();
  internal::LimitProbe within(f.ref.string(), f.cand.string(), "ModelNew", 60,
                              now + std::chrono::hours(1), 0);
  EXPECT_NE(within.at({{"rows", {2}}, {"length", {6}}}), nullptr);
  internal::LimitProbe past(f.ref.string(), f.cand.string(), "ModelNew", 60, now, 0);
  EXPECT_EQ(past.at({{"rows", {2}}, {"length", {6}}}), nullptr);
  EXPECT_TRUE(past.out_of_time());
}

}  // namespace

// File sizes scaled down to the element budget leave 8 channels in 8 groups (an InstanceNorm,
// which hides a group bug): the bound doubles one size at a time and keeps the first sizes that
// keep 2 channels per group, naming the size it doubled; the flattening probes stop once both
// programs ran.
TEST(DefaultBound, SizesThatFlattenAGroupNormGetOneSizeDoubled) {
  const std::string sizes =
      "batch_size = 128\nchannels = 32\nnum_groups = 8\nheight = width = 64\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, channels, height, width)]\n\n\n"
      "def get_init_inputs():\n    return [channels, num_groups]\n";
  const std::string model =
      "class Model(nn.Module):\n    def __init__(self, channels, num_groups):\n"
      "        super().__init__()\n        self.norm = nn.GroupNorm(num_groups, channels)\n\n"
      "    def forward(self, x):\n        return self.norm(x)\n\n\n";
  Files f(
      "groupnorm_doubled", "import torch\nimport torch.nn as nn\n\n\n" + model + sizes,
      kTritonImports +
          "class ModelNew(nn.Module):\n    def __init__(self, channels, num_groups):\n"
          "        super().__init__()\n        self.norm = nn.GroupNorm(num_groups, channels)\n\n"
          "    def forward(self, x):\n        return self.norm(x)\n\n\n" +
          sizes);
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs[0].verdict, Verdict::Equivalent) << rs[0].reason;
  EXPECT_TRUE(rs[0].flattened.empty()) << rs[0].bound;
  EXPECT_NE(rs[0].bound.find("channels doubled to keep the structure"), std::string::npos)
      << rs[0].bound;
  bool named_skip = false;
  for (const std::string& n : rs[0].notes)
    named_skip |= n.find("it flattens") != std::string::npos &&
                  n.find("8 groups of 1 channels") != std::string::npos;
  EXPECT_TRUE(named_skip);

  // With the run's time spent before the bound starts, its sizes were neither accepted nor
  // rejected: the configuration says it was not run (it was listed as if verified).
  Options spent;
  spent.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  rs = verify_default_bound(f.ref.string(), f.cand.string(), spent);
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs[0].verdict, Verdict::Unknown);
  EXPECT_NE(rs[0].bound.find("not run: the --timeout was spent before it started"),
            std::string::npos)
      << rs[0].bound;
}

}  // namespace keq::verify

namespace keq::verify {
namespace {

// A limit whose value another size happens to have: a conv's H_out * W_out is 2 * 3 = 6 at the
// default sizes, as are its out_channels. Sizes for the spatial block of 64 went to
// out_channels (63, 65, 129), where the group the kernel loops over never grew; the probe now
// sees that out_channels does not move that limit, and the search finds the height that does.
TEST(DefaultBound, ALimitThatEqualsAnotherSizeGoesToTheSizeThatMovesIt) {
  fs::path dir = fs::path(KEQ_SOURCE_DIR) / "tests/realworld/llm_style/conv_instance_norm_divide";
  Options opt;
  opt.timeout_s = 20;
  std::vector<Report> rs =
      verify_default_bound((dir / "ref.py").string(), (dir / "cand.py").string(), opt);
  std::string bounds;
  for (const Report& r : rs) bounds += r.bound + "\n";
  for (const std::string& n : rs[0].notes) bounds += n + "\n";
  EXPECT_NE(bounds.find("height so a limit computed from it is at BLOCK-1, BLOCK 64"),
            std::string::npos)
      << bounds;
  EXPECT_EQ(bounds.find("out_channels at BLOCK-1, BLOCK 64"), std::string::npos) << bounds;
}

// Channels that must divide into 4 groups: 9 (BLOCK + 1), 7 and 17 make the reference raise
// (GroupNorm's ValueError), so the tails around the channel block were never checked. The
// bound now runs the nearest sizes that leave the same tail and the reference accepts.
// A candidate that takes rows only in blocks of 128 (vLLM's fused SiLU-and-quantize asserts it)
// rejects every small size: the bound tries each size a power of two, the others kept small (an
// LLM-written cross entropy asserting `N_CLASS % 1024 == 0` was UNKNOWN at every size it tried),
// and the second configuration differs from the first.
TEST(DefaultBound, ACandidateRejectingSmallSizesGetsLargerOnes) {
  Files f("rows_of_128", row_sum_ref("rows = 256\ncols = 512"),
          kTritonImports +
              "@triton.jit\ndef row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):\n"
              "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK)\n"
              "    v = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)\n"
              "    tl.store(y_ptr + row, tl.sum(v, axis=0))\n\n\n"
              "class ModelNew(nn.Module):\n    def forward(self, x):\n"
              "        rows, cols = x.shape\n"
              "        assert rows % 128 == 0, \"rows come in blocks of 128\"\n"
              "        y = torch.empty(rows, device=x.device)\n"
              "        row_sum[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))\n"
              "        return y\n");
  std::vector<Report> rs = f.run();
  ASSERT_GE(rs.size(), 2u);
  std::set<std::string> configurations;
  for (const Report& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << ": " << r.reason;
    configurations.insert(r.bound);
    for (const auto& [name, sizes] : r.dims) {
      if (name == "rows") {
        EXPECT_EQ(sizes.at(0) % 128, 0) << r.bound;
      }
      if (name == "cols") {
        EXPECT_LT(sizes.at(0), 16) << r.bound;  // kept small
      }
    }
  }
  EXPECT_EQ(configurations.size(), rs.size()) << bounds(rs)[0] << "; " << bounds(rs)[1];
  EXPECT_NE(rs[0].bound.find("rows a power of two"), std::string::npos) << rs[0].bound;
}

// A reference asserting that its width divides into the file's 12 heads rejects every small
// size and every power of two: the bound took the file's proportions (LLMKernel L3 50's
// attention: a sequence of 64 over 4 heads' dimensions, which spent the whole --timeout), where
// a width of 12, the others small, is accepted.
TEST(DefaultBound, AReferenceAssertingAMultipleOfAConstantGetsThatMultiple) {
  Files f("multiple_of_heads",
          "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
          "    def __init__(self, n_embd, n_head):\n        super().__init__()\n"
          "        assert n_embd % n_head == 0\n\n"
          "    def forward(self, x):\n        return 2 * x\n\n\n"
          "batch = 16\nseq = 1024\nn_embd = 768\nn_head = 12\n\n\n"
          "def get_inputs():\n    return [torch.randn(batch, seq, n_embd)]\n\n\n"
          "def get_init_inputs():\n    return [n_embd, n_head]\n",
          kTritonImports + kTwiceKernel +
              "class ModelNew(nn.Module):\n    def __init__(self, n_embd, n_head):\n"
              "        super().__init__()\n\n"
              "    def forward(self, x):\n        y = torch.empty_like(x)\n"
              "        twice[(triton.cdiv(x.numel(), 64),)](x, y, x.numel(), BLOCK=64)\n"
              "        return y\n");
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs[0].verdict, Verdict::Equivalent) << rs[0].reason;
  EXPECT_EQ(dims_str(rs[0].dims), "batch=2,seq=3,n_embd=12") << rs[0].bound;
  EXPECT_NE(rs[0].bound.find("n_embd a multiple of the file's constant 12"), std::string::npos)
      << rs[0].bound;
}

// A width the reference's weights fix (2048, as written) beside a batch of the same value it
// does not need: every size at 2048 at once was past keq's limit, so the reference rejected every
// configuration and the run was an ERROR (a seeded LayerNorm task). One size at the file's value
// alone runs.
TEST(DefaultBound, OneSizeAtTheFileValueAloneWhereAllAtOnceArePastTheLimit) {
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def __init__(self):\n        super().__init__()\n"
      "        self.b = nn.Parameter(torch.randn(2048))\n\n"
      "    def forward(self, x):\n        return 2 * x + torch.zeros_like(x) * self.b\n\n\n"
      "M, D = 2048, 2048\n\n\ndef get_inputs():\n    return [torch.randn(M, D)]\n";
  std::string cand =
      kTritonImports + kTwiceKernel +
      "class ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
      "        self.b = nn.Parameter(torch.randn(2048))\n\n"
      "    def forward(self, x):\n        y = torch.empty_like(x)\n"
      "        twice[(triton.cdiv(x.numel(), 64),)](x, y, x.numel(), BLOCK=64)\n"
      "        return y\n";
  Files f("one_at_file_value", ref, cand);
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_NE(rs[0].verdict, Verdict::Error) << rs[0].reason;
  EXPECT_TRUE(std::any_of(rs.begin(), rs.end(), [](const Report& r) {
    return dims_str(r.dims) == "M=2,D=2048" && r.verdict == Verdict::Equivalent;
  })) << rs[0].bound;
}

// Where the reference raises at every size the bound chose and the file's own are past keq's
// limit, the file is not shown broken: UNKNOWN, no configuration both sides accept.
TEST(DefaultBound, AReferenceRaisingOnlyAtTheBoundsSizesIsUnknownNotError) {
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x):\n        return x.view(2048, 2048) * 2\n\n\n"
      "M, D = 2048, 2048\n\n\ndef get_inputs():\n    return [torch.randn(M, D)]\n";
  std::string cand = kTritonImports + kTwiceKernel +
                     "class ModelNew(nn.Module):\n    def forward(self, x):\n"
                     "        y = torch.empty_like(x)\n"
                     "        twice[(triton.cdiv(x.numel(), 64),)](x, y, x.numel(), BLOCK=64)\n"
                     "        return y\n";
  Files f("reference_raises_at_bound_sizes", ref, cand);
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs[0].verdict, Verdict::Unknown) << rs[0].reason;
  EXPECT_NE(rs[0].reason.find("no configuration both sides accept"), std::string::npos)
      << rs[0].reason;
}

TEST(DefaultBound, ASizeTheReferenceRejectsGoesToTheNearestWithTheSameTail) {
  Files f("groups_divide",
          "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
          "    def __init__(self, channels):\n        super().__init__()\n"
          "        self.gn = nn.GroupNorm(4, channels)\n\n"
          "    def forward(self, x):\n        return self.gn(x)\n\n\n"
          "batch = 16\nchannels = 64\n\n\ndef get_inputs():\n"
          "    return [torch.randn(batch, channels)]\n\n\n"
          "def get_init_inputs():\n    return [channels]\n",
          kTritonImports +
              "@triton.jit\ndef copy_rows(x_ptr, y_ptr, C, BLOCK_C: tl.constexpr):\n"
              "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK_C)\n"
              "    for start in range(0, C, BLOCK_C):\n        m = start + offs < C\n"
              "        v = tl.load(x_ptr + row * C + start + offs, mask=m)\n"
              "        tl.store(y_ptr + row * C + start + offs, v, mask=m)\n\n\n"
              "class ModelNew(nn.Module):\n    def __init__(self, channels):\n"
              "        super().__init__()\n        self.gn = nn.GroupNorm(4, channels)\n\n"
              "    def forward(self, x):\n        y = torch.empty_like(x)\n"
              "        copy_rows[(x.shape[0],)](x, y, x.shape[1], BLOCK_C=8)\n"
              "        return self.gn(y)\n");
  std::vector<Report> rs = f.run();
  std::set<int64_t> channels;
  for (const Report& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << ": " << r.reason;
    channels.insert(r.dims.at(1).second.at(0));
  }
  // 8: the second round's sizes that divide as the file's do (4 groups of 64 channels).
  EXPECT_EQ(channels, (std::set<int64_t>{64, 4, 8, 12, 20}));
  const std::string notes = notes_of(rs.at(0));
  EXPECT_NE(notes.find("channels=9 (channels at BLOCK+1, BLOCK 8): the reference raises"),
            std::string::npos)
      << notes;
}

// A reference that wants one size divisible by another (Mamba2's `seq_length % block_len ==
// 0`, KernelBench L3 48 and 49): the first sizes divide as the file's do (a chunk of 2 in a
// sequence of 4); a chunk of 9 or 17 around a block of 8 is rejected while the sequence stays 4,
// so the sequence becomes the next multiple of the chunk and the tail is checked.
TEST(DefaultBound, AReferenceWantingOneSizeDivisibleByAnotherGetsAMultiple) {
  Files f("chunks_divide",
          "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
          "    def __init__(self, seq, chunk):\n        super().__init__()\n"
          "        assert seq % chunk == 0\n\n"
          "    def forward(self, x):\n        return 2 * x\n\n\n"
          "batch = 1024\nseq = 64\nchunk = 16\n\n\n"
          "def get_inputs():\n    return [torch.randn(batch, seq)]\n\n\n"
          "def get_init_inputs():\n    return [seq, chunk]\n",
          kTritonImports +
              "@triton.jit\ndef twice_rows(x_ptr, y_ptr, C, BLOCK_C: tl.constexpr):\n"
              "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK_C)\n"
              "    for start in range(0, C, BLOCK_C):\n        m = start + offs < C\n"
              "        v = tl.load(x_ptr + row * C + start + offs, mask=m)\n"
              "        tl.store(y_ptr + row * C + start + offs, 2 * v, mask=m)\n\n\n"
              "class ModelNew(nn.Module):\n    def __init__(self, seq, chunk):\n"
              "        super().__init__()\n        self.chunk = chunk\n\n"
              "    def forward(self, x):\n        y = torch.empty_like(x)\n"
              "        twice_rows[(x.numel() // self.chunk,)](x, y, self.chunk, BLOCK_C=8)\n"
              "        return y\n");
  std::vector<Report> rs = f.run();
  std::set<std::string> sizes;
  for (const Report& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << ": " << r.reason;
    sizes.insert(dims_str(r.dims));
  }
  std::string all;
  for (const std::string& d : sizes) all += d + "; ";
  EXPECT_TRUE(sizes.count("batch=8,seq=4,chunk=2")) << all;
  EXPECT_TRUE(sizes.count("batch=8,seq=9,chunk=9")) << all;
  EXPECT_TRUE(sizes.count("batch=8,seq=17,chunk=17")) << all;
}

// Small sizes that divide as the file's do: a pooling window of 16 over 8192 features (and a
// batch of 1024 it divides too) gives a window of 2 over 12 (KernelAgent's L2 98, whose
// candidate asserts N % POOL == 0). Sizes where none divides another give none.
TEST(DefaultBound, SizesThatDivideAsTheFilesDo) {
  torch::Dims small = {
      {"batch_size", {2}}, {"in_features", {3}}, {"out_features", {4}}, {"pool", {5}}};
  torch::Dims file = {
      {"batch_size", {1024}}, {"in_features", {8192}}, {"out_features", {8192}}, {"pool", {16}}};
  auto tries = internal::divisible_as_the_file(small, file);
  ASSERT_EQ(tries.size(), 1u);
  EXPECT_EQ(dims_str(tries[0].first), "batch_size=4,in_features=8,out_features=12,pool=2");
  torch::Dims coprime = {{"a", {3}}, {"b", {5}}, {"c", {7}}};
  EXPECT_TRUE(internal::divisible_as_the_file(small, coprime).empty());
}

// The sizes tried instead of a rejected one leave the same partial block, sharing the most
// factors with the size the reference accepted (64: divisible by 4 groups), then nearest.
TEST(DefaultBound, SizesWithTheSameTailShareFactorsWithTheAcceptedOne) {
  EXPECT_EQ(internal::same_tail(9, 1, 8, 9, 64), (std::vector<int64_t>{12, 10, 14}));
  EXPECT_EQ(internal::same_tail(7, 1, 8, 7, 64), (std::vector<int64_t>{4, 6, 2}));
  EXPECT_EQ(internal::same_tail(17, 1, 8, 17, 64), (std::vector<int64_t>{20, 18, 22}));
  EXPECT_EQ(internal::same_tail(3, 3, 8, 9, 6), (std::vector<int64_t>{4, 5}));  // 12, 15 of rest 3
  EXPECT_TRUE(internal::same_tail(8, 1, 8, 8, 64).empty());  // a loop's step: only itself
}

// A size around a block whose configuration passes the cap on elements halves the other sizes
// (a conv's batch of 8 with 8 channels of 8 x 8 put out_channels 65 past it), never the sizes
// that make the limit.
TEST(DefaultBound, ASizePastTheCapHalvesTheOtherSizes) {
  torch::Dims dims = {{"batch", {8}}, {"out", {65}}, {"in", {8}}, {"h", {8}}, {"w", {8}}};
  auto fewer = internal::others_halved(dims, {1}, int64_t{1} << 18);
  ASSERT_TRUE(fewer.has_value());
  EXPECT_EQ(fewer->at(0).second.at(0), 4);
  EXPECT_EQ(fewer->at(1).second.at(0), 65);
  EXPECT_FALSE(internal::others_halved(dims, {0, 1, 2, 3, 4}, int64_t{1} << 18).has_value());
  EXPECT_FALSE(internal::others_halved(dims, {}, int64_t{1} << 18).has_value());
  torch::Dims small = {{"a", {2}}, {"n", {65}}, {"b", {3}}};
  EXPECT_FALSE(internal::others_halved(small, {1}, 100).has_value());  // none may go below 2
}

// Halving the other sizes of out = 2 * 64 + 1 takes the largest, the width, to 4, which the
// reference's window 7 wide rejects (a conv's kernel: LLMKernel L1 56): the width is kept and
// the height halved instead. Before, every size of that tail was rejected alike, and the grid
// capped at two programs went unchecked (EQUIVALENT).
TEST(DefaultBound, SizesHalvedPastTheCapKeepThoseTheReferenceNeeds) {
  const std::string dims =
      "batch, channels, height, width, out = 8, 8, 8, 8, 64\n\n\n"
      "def get_inputs():\n"
      "    return [torch.randn(batch, channels, height, width), "
      "torch.randn(out)]\n";
  std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x, w):\n"
      "        assert x.shape[3] >= 7, 'a window 7 wide'\n"
      "        return 2 * w\n\n\n" +
      dims;
  std::string cand = kTritonImports + kTwiceKernel +
                     "class ModelNew(nn.Module):\n    def forward(self, x, w):\n"
                     "        y = torch.empty_like(w)\n        n = w.numel()\n"
                     "        twice[(min(triton.cdiv(n, 64), 2),)](w, y, n, BLOCK=64)\n"
                     "        return y\n\n\n" +
                     dims;
  Files f("halved_kept", ref, cand);
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs.back().verdict, Verdict::NotEquivalent);
  EXPECT_NE(rs.back().bound.find("out=129"), std::string::npos) << rs.back().bound;
  EXPECT_NE(rs.back().bound.find("width=9"), std::string::npos) << rs.back().bound;
}

// A pooling window of 16 in a file of 8192 features scales down with them to 1, the identity,
// where windows that start at every element instead of every 16th (a stride bug) are right.
// The sizes that divide as the file's do come first (a window of 2 over 12 features) and find
// the bug (KernelAgent's L2 98 spent its --timeout in the e-graph at the proportions).
TEST(DefaultBound, APoolingWindowScaledToOneIsPassedOver) {
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def __init__(self, features, pool):\n        super().__init__()\n"
      "        self.pool = nn.AvgPool1d(kernel_size=pool)\n\n"
      "    def forward(self, x):\n        return self.pool(x)\n\n\n"
      "batch_size = 1024\nfeatures = 8192\npool = 16\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, 1, features)]\n\n\n"
      "def get_init_inputs():\n    return [features, pool]\n";
  const std::string cand =
      kTritonImports +
      "@triton.jit\ndef avg_pool(x_ptr, y_ptr, L, L_out, K: tl.constexpr, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK)\n    m = offs < L_out\n"
      "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n    for k in tl.static_range(K):\n"
      "        acc += tl.load(x_ptr + row * L + offs + k, mask=m, other=0.0)\n"
      "    tl.store(y_ptr + row * L_out + offs, acc / K, mask=m)\n\n\n"
      "class ModelNew(nn.Module):\n    def __init__(self, features, pool):\n"
      "        super().__init__()\n        self.k = pool\n\n    def forward(self, x):\n"
      "        B, C, L = x.shape\n        y = torch.empty(B, C, L // self.k, device=x.device)\n"
      "        avg_pool[(B * C,)](x, y, L, L // self.k, K=self.k,\n"
      "                           BLOCK=triton.next_power_of_2(L // self.k))\n        return y\n";
  Files f("pool_window_one", ref, cand);
  std::vector<Report> rs = f.run();
  const Report* wrong = first_refuted(rs);
  ASSERT_NE(wrong, nullptr) << "the stride bug is invisible with a window of 1";
  EXPECT_EQ(wrong->bound.find("pool=1 "), std::string::npos) << wrong->bound;
  EXPECT_NE(wrong->bound.find("divisible as the file's sizes are"), std::string::npos)
      << wrong->bound;
}

// The sizes around a block start from sizes where no two are equal: a limit is traced to the
// sizes that make it by value. Here the small defaults are too short for the dilated window and
// the file's sizes scaled down are 1, 1, 1, 4096, where an out_channels limit of 1 names the batch
// as well (LLMKernel L1 76: the batch's runs there ran out of time and the channels past their
// block were never tried). The second round's distinct sizes are the base. The candidate
// computes the first block of 16 output channels only.
TEST(DefaultBound, SizesAroundABlockStartFromSizesThatAreDistinct) {
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def __init__(self, c_in, c_out):\n        super().__init__()\n"
      "        self.conv = nn.Conv1d(c_in, c_out, 3, dilation=4, bias=False)\n\n"
      "    def forward(self, x):\n        return self.conv(x)\n\n\n"
      "batch_size = 32\nin_channels = 32\nout_channels = 64\nlength = 262144\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, in_channels, length)]\n\n\n"
      "def get_init_inputs():\n    return [in_channels, out_channels]\n";
  const std::string cand =
      kTritonImports +
      "@triton.jit\ndef conv(x_ptr, w_ptr, y_ptr, L, L_out, C_in, C_out, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    b = row // L_out\n    p = row % L_out\n"
      "    c = tl.arange(0, BLOCK)\n    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
      "    for ci in range(C_in):\n        for k in tl.static_range(3):\n"
      "            xv = tl.load(x_ptr + (b * C_in + ci) * L + p + 4 * k)\n"
      "            acc += xv * tl.load(w_ptr + (c * C_in + ci) * 3 + k, mask=c < C_out, "
      "other=0.0)\n"
      "    tl.store(y_ptr + (b * C_out + c) * L_out + p, acc, mask=c < C_out)\n\n\n"
      "class ModelNew(nn.Module):\n    def __init__(self, c_in, c_out):\n"
      "        super().__init__()\n"
      "        self.conv = nn.Conv1d(c_in, c_out, 3, dilation=4, bias=False)\n\n"
      "    def forward(self, x):\n        B, C_in, L = x.shape\n        w = self.conv.weight\n"
      "        C_out = w.shape[0]\n        L_out = L - 8\n"
      "        y = torch.empty(B, C_out, L_out, device=x.device)\n"
      "        conv[(B * L_out,)](x, w, y, L, L_out, C_in, C_out, BLOCK=16)\n        return y\n";
  Files f("distinct_base", ref, cand);
  std::vector<Report> rs = f.run();
  expect_refuted_at(rs, "out_channels=17 (default bound, out_channels at BLOCK+1, BLOCK 16)",
                    "the channels past the first block are never computed");
  const Report* wrong = first_refuted(rs);
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->bound.find("batch_size=1,"), std::string::npos) << wrong->bound;
}

// A doubling of a rows x cols input by tiles of BLOCK_R x BLOCK_C, autotuned over `configs`
// (triton.Config(...) items), and its reference.
const std::string kDoubleRowsCols =
    "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
    "    def forward(self, x):\n        return x * 2\n\n\n"
    "rows = 4096\ncols = 4096\n\n\ndef get_inputs():\n    return [torch.randn(rows, cols)]\n";
std::string tiles_autotuned(const std::string& configs) {
  return kTritonImports + "@triton.autotune(configs=[" + configs + "], key=['R', 'C'])\n" +
         "@triton.jit\ndef twice(x_ptr, y_ptr, R, C, BLOCK_R: tl.constexpr, BLOCK_C: "
         "tl.constexpr):\n"
         "    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)\n"
         "    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)\n"
         "    m = (r[:, None] < R) & (c[None, :] < C)\n    at = r[:, None] * C + c[None, :]\n"
         "    tl.store(y_ptr + at, 2 * tl.load(x_ptr + at, mask=m), mask=m)\n\n\n"
         "class ModelNew(nn.Module):\n    def forward(self, x):\n        R, C = x.shape\n"
         "        y = torch.empty_like(x)\n"
         "        grid = lambda meta: (triton.cdiv(R, meta['BLOCK_R']), triton.cdiv(C, "
         "meta['BLOCK_C']))\n"
         "        twice[grid](x, y, R, C)\n        return y\n";
}

// A limit only a later autotune config has is traced in that config: the first config's runs
// have limits of the same block extent for the other dimension (BLOCK_C 32 beside the second's
// BLOCK_R 32), and read the predicted one as a coincidence (LLMKernel L1 10: its BLOCK_M 32
// configs never had M past 32).
TEST(DefaultBound, ALimitOfALaterAutotuneConfigGetsSizesAroundItsBlock) {
  Files f("later_config_limit", kDoubleRowsCols,
          tiles_autotuned("triton.Config({'BLOCK_R': 128, 'BLOCK_C': 32}), "
                          "triton.Config({'BLOCK_R': 32, 'BLOCK_C': 128})"));
  std::vector<Report> rs = f.run();
  std::vector<std::string> b = bounds(rs);
  for (const Report& r : rs) EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << r.reason;
  EXPECT_TRUE(has(b, "rows=33,cols=3 (default bound, rows at BLOCK+1, BLOCK 32)")) << b.size();
  EXPECT_TRUE(has(b, "rows=2,cols=129 (default bound, cols at BLOCK+1, BLOCK 128)"));
}

// Sizes around a limit run the autotune configs whose blocks make it (and the first), not every
// config: a conv's bounds checks give each config limits of its own, and LLMKernel L1 80's 28
// sizes ran all 5 configs each, past the 60 s. Rows at 63, below the block of 64, run configs 1
// and 3: that block is config 3's only.
TEST(DefaultBound, SizesAroundALimitRunTheConfigsThatMakeIt) {
  Files f("configs_around_limit", kDoubleRowsCols,
          tiles_autotuned("triton.Config({'BLOCK_R': 128, 'BLOCK_C': 32}), "
                          "triton.Config({'BLOCK_R': 32, 'BLOCK_C': 128}), "
                          "triton.Config({'BLOCK_R': 64, 'BLOCK_C': 64})"));
  std::vector<Report> rs = f.run();
  std::set<size_t> at_63;
  for (const Report& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << r.reason;
    if (r.bound.find("rows at BLOCK-1, BLOCK 64") != std::string::npos)
      at_63.insert(r.autotune_config);
  }
  EXPECT_EQ(at_63, (std::set<size_t>{0, 2}));
  bool noted = false;
  for (const std::string& n : rs[0].notes)
    noted |= n.find("runs of other configs left out") != std::string::npos;
  EXPECT_TRUE(noted);
}

// Autotune configs whose blocks cover the sizes alike build the same terms, and the first
// one's proof stands for the others (LLMKernel L3 42's GRU cell: three configs of 8 s each at
// the first sizes): here BLOCK_R rows a program, and a row of 64 or 128 lanes whose masked ones
// add zeros (left out in real semantics). A config that builds other terms (the row in blocks
// of 2, added up in two steps) is proved on its own.
TEST(DefaultBound, AutotuneConfigsBuildingTheSameTermsShareOneProof) {
  const std::string cand =
      kTritonImports +
      "@triton.autotune(configs=[triton.Config({'BLOCK_R': 1, 'BLOCK': 64}), "
      "triton.Config({'BLOCK_R': 2, 'BLOCK': 64}), triton.Config({'BLOCK_R': 1, 'BLOCK': 128}), "
      "triton.Config({'BLOCK_R': 1, 'BLOCK': 2})], key=['R'])\n"
      "@triton.jit\ndef row_sum(x_ptr, y_ptr, R, n_cols, BLOCK_R: tl.constexpr, "
      "BLOCK: tl.constexpr):\n"
      "    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)\n"
      "    acc = tl.zeros((BLOCK_R,), dtype=tl.float32)\n"
      "    for c0 in range(0, n_cols, BLOCK):\n"
      "        offs = c0 + tl.arange(0, BLOCK)\n"
      "        m = (r[:, None] < R) & (offs[None, :] < n_cols)\n"
      "        x = tl.load(x_ptr + r[:, None] * n_cols + offs[None, :], mask=m, other=0.0)\n"
      "        acc += tl.sum(x, axis=1)\n"
      "    tl.store(y_ptr + r, acc, mask=r < R)\n\n\n"
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        rows, cols = x.shape\n"
      "        y = torch.empty(rows, device=x.device)\n"
      "        grid = lambda meta: (triton.cdiv(rows, meta['BLOCK_R']),)\n"
      "        row_sum[grid](x, y, rows, cols)\n        return y\n";
  Files f("same_terms", row_sum_ref("rows = 16\ncols = 16"), cand);
  Options opt;
  opt.dims = {{"rows", {2}}, {"cols", {3}}};
  std::vector<Report> rs = verify_every_autotune_config(f.ref.string(), f.cand.string(), opt);
  ASSERT_EQ(rs.size(), 4u);
  for (const Report& r : rs) EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << r.reason;
  const std::string same = "both programs build the same terms as at autotune config 1";
  EXPECT_EQ(rs[0].reason.find(same), std::string::npos) << rs[0].reason;
  EXPECT_NE(rs[1].reason.find(same), std::string::npos) << rs[1].reason;
  EXPECT_NE(rs[2].reason.find(same), std::string::npos) << rs[2].reason;
  EXPECT_EQ(rs[3].reason.find("same terms"), std::string::npos) << rs[3].reason;
  for (const Report& r : rs) EXPECT_EQ(r.terms, nullptr);  // let go once the configs ran
}

// A kernel that replaces the first layer of a torch stack: the sweep proves its outputs equal to
// the reference's linear, puts them in their place, and the stack above is the reference's own
// terms (stage_sweep.cc). A kernel that drops the bias matches no reference node there, and the
// pair is refuted as before.
std::string linear_stack(bool model_new, bool bias) {
  std::string head = "import torch\nimport torch.nn as nn\n";
  std::string stack =
      "        for _ in range(3):\n"
      "            h = torch.softmax(self.norm(h), dim=-1) * h\n"
      "        return h\n\n\nbatch = 16\nn_in = 16\nn_out = 16\n\n\n"
      "def get_inputs():\n    return [torch.rand(batch, n_in)]\n\n\n"
      "def get_init_inputs():\n    return [n_in, n_out]\n";
  std::string init =
      "    def __init__(self, n_in, n_out):\n        super().__init__()\n"
      "        self.lin = nn.Linear(n_in, n_out)\n        self.norm = nn.LayerNorm(n_out)\n\n";
  if (!model_new)
    return head + "\n\nclass Model(nn.Module):\n" + init +
           "    def forward(self, x):\n        h = self.lin(x)\n" + stack;
  return kTritonImports +
         "@triton.jit\ndef linear(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, BLOCK: tl.constexpr):\n"
         "    m = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
         "    n = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)\n"
         "    k = tl.arange(0, BLOCK)\n"
         "    a = tl.load(x_ptr + m[:, None] * K + k[None, :], mask=(m[:, None] < M) & "
         "(k[None, :] < K), other=0.0)\n"
         "    w = tl.load(w_ptr + n[None, :] * K + k[:, None], mask=(n[None, :] < N) & "
         "(k[:, None] < K), other=0.0)\n"
         "    acc = tl.dot(a, w, input_precision='ieee')\n" +
         (bias ? "    acc += tl.load(b_ptr + n, mask=n < N, other=0.0)[None, :]\n" : "") +
         "    tl.store(y_ptr + m[:, None] * N + n[None, :], acc, mask=(m[:, None] < M) & "
         "(n[None, :] < N))\n\n\nclass ModelNew(nn.Module):\n" +
         init +
         "    def forward(self, x):\n        M, K = x.shape\n        N = self.lin.weight.shape[0]\n"
         "        h = torch.empty(M, N, device=x.device)\n"
         "        linear[(1, 1)](x, self.lin.weight, self.lin.bias, h, M, N, K, BLOCK=16)\n" +
         stack;
}

TEST(Sweep, AKernelReplacingTheFirstLayerOfATorchStackIsPutInItsPlace) {
  Files right("sweep_right", linear_stack(false, true), linear_stack(true, true));
  Options opt;
  opt.dims = {{"batch", {2}}, {"n_in", {3}}, {"n_out", {4}}};
  Report r = verify(right.ref.string(), right.cand.string(), opt);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.reason;
  bool swept = false;
  for (const std::string& n : r.notes)
    swept |= n.find("candidate subterms put in the place of the reference's") != std::string::npos;
  EXPECT_TRUE(swept);
  Files wrong("sweep_wrong", linear_stack(false, true), linear_stack(true, false));
  EXPECT_EQ(verify(wrong.ref.string(), wrong.cand.string(), opt).verdict, Verdict::NotEquivalent);
}

// A configuration with an autotune config the timeout stopped is dropped and named (a second
// round's larger sizes, or a size around a block, past its share of the time budget): the run's
// verdict stays the one of the configurations decided. One that found a counterexample stays.
TEST(DefaultBound, ASizeNotDecidedInItsShareIsDroppedAndNamed) {
  auto report = [](Verdict v, bool out_of_time) {
    Report r;
    r.verdict = v;
    r.out_of_time = out_of_time;
    return r;
  };
  std::vector<std::string> skipped;
  std::vector<Report> all = {report(Verdict::Equivalent, false), report(Verdict::Equivalent, false),
                             report(Verdict::Unknown, true)};
  EXPECT_TRUE(internal::drop_if_slow(all, 1, "n=256 (second round)", 15, skipped));
  EXPECT_EQ(all.size(), 1u);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0],
            "n=256 (second round): not decided within its share of the time budget "
            "(15.0 s)");
  all.push_back(report(Verdict::Unknown, false));  // UNKNOWN for another reason: kept
  EXPECT_FALSE(internal::drop_if_slow(all, 1, "n=5", 15, skipped));
  all.push_back(report(Verdict::NotEquivalent, false));
  all.push_back(report(Verdict::Unknown, true));
  EXPECT_FALSE(internal::drop_if_slow(all, 1, "n=5", 15, skipped));  // decided: kept
  EXPECT_EQ(all.size(), 4u);
}

// Where the reference couples sizes (a LayerNorm over `features` after an upsampling that makes
// the width 2 * length), distinct small sizes are rejected and the file's proportions run,
// halved: powers of two, where a block of next_power_of_2(width) lanes masks none off, and each
// size around a block alone is rejected too. With a mask never false, the proportions also run
// at three quarters of a halving (width 24, BLOCK 32), where the candidate's masked lanes,
// loaded as 1.0, enter its mean (LLMKernel L2 34's coupling). The sizes that divide as the
// file's do (a width of 12 = 2 * 6, BLOCK 16) come before the proportions now and find it
// first; the next test keeps the three-quarters try itself covered.
TEST(DefaultBound, ProportionalSizesAlsoRunAtThreeQuartersOfAHalving) {
  const std::string init =
      "    def __init__(self, channels, features):\n        super().__init__()\n"
      "        self.up = nn.ConvTranspose1d(channels, channels, 4, stride=2, padding=1)\n"
      "        self.norm = nn.LayerNorm(features)\n\n";
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n" + init +
      "    def forward(self, x):\n        return self.norm(self.up(x))\n\n\n"
      "batch_size = 16\nchannels = 32\nlength = 32\nfeatures = 64\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, channels, length)]\n\n\n"
      "def get_init_inputs():\n    return [channels, features]\n";
  const std::string cand =
      kTritonImports +
      "@triton.jit\ndef ln(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK)\n    m = offs < N\n"
      "    x = tl.load(x_ptr + row * N + offs, mask=m, other=1.0)\n"
      "    mean = tl.sum(x, axis=0) / N\n    d = tl.where(m, x - mean, 0.0)\n"
      "    var = tl.sum(d * d, axis=0) / N\n"
      "    y = d / tl.sqrt(var + eps) * tl.load(w_ptr + offs, mask=m) + tl.load(b_ptr + offs, "
      "mask=m)\n"
      "    tl.store(y_ptr + row * N + offs, y, mask=m)\n\n\n"
      "class ModelNew(nn.Module):\n" +
      init +
      "    def forward(self, x):\n        h = self.up(x).contiguous()\n        N = h.shape[-1]\n"
      "        y = torch.empty_like(h)\n"
      "        ln[(h.numel() // N,)](h, self.norm.weight, self.norm.bias, y, N, self.norm.eps,\n"
      "                              BLOCK=triton.next_power_of_2(N))\n        return y\n";
  Files f("three_quarters", ref, cand);
  std::vector<Report> rs = f.run();
  expect_refuted_at(rs, "divisible as the file's sizes are",
                    "the masked lanes' 1.0 enter the mean");
}

// The proportions at three quarters of a halving can flatten the structure (16 groups of 2 become
// 1 group of 3 at 4,096 elements): those are passed over, named, for the next budget's (3
// groups of 2 at 16,384), where the row of 6 leaves 2 of 8 lanes masked off.
TEST(DefaultBound, ThreeQuartersThatFlattenAGroupNormArePassedOver) {
  const std::string& init = kGroupNormInit;
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n" + init +
      "    def forward(self, x):\n        z = self.gn(x)\n        z = z + z.transpose(1, 2)\n"
      "        return z + z.sum(-1, keepdim=True)\n\n\n"
      "batch_size = 1024\nchannels = 32\nlength = 32\nnum_groups = 16\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, channels, length)]\n\n\n"
      "def get_init_inputs():\n    return [channels, num_groups]\n";
  const std::string cand =
      kTritonImports +
      "@triton.jit\ndef add_row_sum(z_ptr, out_ptr, L, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK)\n    m = offs < L\n"
      "    v = tl.load(z_ptr + row * L + offs, mask=m, other=1.0)\n"
      "    tl.store(out_ptr + row * L + offs, v + tl.sum(v, axis=0), mask=m)\n\n\n"
      "class ModelNew(nn.Module):\n" +
      init +
      "    def forward(self, x):\n        z = self.gn(x)\n"
      "        z = (z + z.transpose(1, 2)).contiguous()\n        L = z.shape[-1]\n"
      "        out = torch.empty_like(z)\n"
      "        add_row_sum[(z.numel() // L,)](z, out, L, BLOCK=triton.next_power_of_2(L))\n"
      "        return out\n";
  Files f("three_quarters_flat", ref, cand);
  std::vector<Report> rs = f.run();
  expect_refuted_at(rs, "three quarters", "the masked lanes' 1.0 enter the row sums");
  const Report* wrong = first_refuted(rs);
  ASSERT_NE(wrong, nullptr);
  EXPECT_NE(wrong->bound.find("num_groups=3"), std::string::npos) << wrong->bound;
  const std::string notes = notes_of(rs.at(0));
  EXPECT_NE(notes.find("(three quarters of a halving): it flattens"), std::string::npos) << notes;
}

// The second round's distinct sizes pass the elements the bound runs anywhere (5 to 11 over
// seven dimensions: 1,663,200): named in the notes and not run, as sizes around a block past
// it are (a conv3d reference spent the round's whole share on such sizes before rejecting them).
TEST(DefaultBound, DistinctSizesPastTheElementCapAreNamedNotRun) {
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x):\n        return x * 2\n\n\n"
      "a = 2\nb = 2\nc = 2\nd = 2\ne = 2\nf = 2\ng = 64\n\n\n"
      "def get_inputs():\n    return [torch.randn(a, b, c, d, e, f, g)]\n";
  const std::string cand =
      kTritonImports + kTwiceKernel +
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        y = torch.empty_like(x)\n"
      "        twice[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)\n"
      "        return y\n";
  Files f("distinct_past_cap", ref, cand);
  std::vector<Report> rs = f.run();
  for (const Report& r : rs) EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound;
  const std::string notes = notes_of(rs.at(0));
  EXPECT_NE(notes.find("a=5,b=6,c=7,d=8,e=9,f=10,g=11: 1663200 elements, past the 262144 it runs"),
            std::string::npos)
      << notes;
  EXPECT_FALSE(has(bounds(rs), "a=5,"));
}

// The cap is for distinct sizes: the file's proportions are scaled to a budget of input elements
// already, and the product of every size overstates them where a size is no tensor's extent
// (512 channels in 256 groups: 2 x 512 x 2 x 256 = 524,288). Capped, every budget's proportions
// were passed over for the last try, the largest (LLMKernel L2 88's GEMM at 128 x 1024 x 1024,
// the whole --timeout spent building it). The same sizes hung the search for sizes around the
// block: 2 x 512 x 2 elements over a block of 1,024, where the sizes other than the last one
// fed (2 x 512) fill whole blocks and no value of it leaves a tail.
TEST(DefaultBound, TheFilesProportionsAreNotCappedLikeDistinctSizes) {
  const std::string& init = kGroupNormInit;
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n" + init +
      "    def forward(self, x):\n        return self.gn(x) * 2\n\n\n"
      "batch_size = 2\nchannels = 512\nlength = 2\nnum_groups = 256\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, channels, length)]\n\n\n"
      "def get_init_inputs():\n    return [channels, num_groups]\n";
  const std::string cand =
      kTritonImports + kTwiceKernel + "class ModelNew(nn.Module):\n" + init +
      "    def forward(self, x):\n        z = self.gn(x)\n        y = torch.empty_like(z)\n"
      "        twice[(triton.cdiv(z.numel(), 1024),)](z, y, z.numel(), BLOCK=1024)\n"
      "        return y\n";
  Files f("proportions_uncapped", ref, cand);
  std::vector<Report> rs = f.run();
  for (const Report& r : rs) EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound;
  const std::string notes = notes_of(rs.at(0));
  EXPECT_EQ(notes.find("channels=512,length=2,num_groups=256: 524288 elements"), std::string::npos)
      << notes;
  EXPECT_TRUE(has(bounds(rs),
                  "channels=512,length=2,num_groups=256 (default bound, the file's "
                  "sizes scaled down)"))
      << notes;
}
// Equal sizes in the file's proportions (features and channels both 64) make one limit name two
// sizes. Both masks here have blocks of 32, so a probe at features = 33 finds the predicted limit
// (the row loop's) and cannot tell that the group mask is fed by channels: each size the limit
// names gets sizes around the block. Channels at 48 leave a group of 24, which this candidate's
// `tl.arange(0, C // G)` cannot compile (LLMKernel L2 88's group block, found only by chance
// before, by the three-quarters try). The sizes that divide as the file's do come first now: 12
// channels in 4 groups, a group of 3, which does not compile either.
TEST(DefaultBound, ALimitTwoEqualSizesMakeGetsSizesAroundTheBlockForEach) {
  const std::string& init = kGroupNormInit;
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n" + init +
      "    def forward(self, y, x):\n        return y * 2, self.gn(x) * 2\n\n\n"
      "batch_size = 2\nfeatures = 512\nchannels = 512\nnum_groups = 16\n\n\n"
      "def get_inputs():\n"
      "    return [torch.randn(batch_size, features), torch.randn(batch_size, channels)]\n\n\n"
      "def get_init_inputs():\n    return [channels, num_groups]\n";
  const std::string cand =
      kTritonImports +
      "@triton.jit\ndef twice_rows(y_ptr, out_ptr, K, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    for k0 in range(0, K, BLOCK):\n"
      "        offs = k0 + tl.arange(0, BLOCK)\n        m = offs < K\n"
      "        v = tl.load(y_ptr + row * K + offs, mask=m)\n"
      "        tl.store(out_ptr + row * K + offs, 2 * v, mask=m)\n\n\n"
      "@triton.jit\ndef twice_groups(z_ptr, out_ptr, C, GROUP: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    offs = tl.program_id(1) * GROUP + tl.arange(0, GROUP)\n"
      "    m = offs < C\n"
      "    tl.store(out_ptr + row * C + offs, 2 * tl.load(z_ptr + row * C + offs, mask=m), mask=m)"
      "\n\n\n"
      "class ModelNew(nn.Module):\n" +
      init +
      "    def forward(self, y, x):\n        z = self.gn(x)\n        a = torch.empty_like(z)\n"
      "        b = torch.empty_like(y)\n        B, C = z.shape\n        G = self.gn.num_groups\n"
      "        twice_groups[(B, G)](z, a, C, GROUP=C // G)\n"
      "        twice_rows[(B,)](y, b, y.shape[1], BLOCK=32)\n        return b, a\n";
  Files f("equal_sizes_one_limit", ref, cand);
  expect_refuted_at(f.run(), "divisible as the file's sizes are",
                    "a group of 3 channels cannot compile");
}
// A loop over a group's channels in blocks (a GroupNorm's statistics kernel, LLMKernel L2 62)
// runs C / G channels: past one block only where C is a multiple of G that the reference accepts
// (nn.GroupNorm raises otherwise), so BLOCK + 1 channels never run. A size multiplied (a
// multiple keeps what divides it) takes the loop to a second trip, where this candidate's
// accumulator, overwritten each trip instead of added to, is wrong.
TEST(DefaultBound, ALoopThatNeverRanTwiceGetsASizeMultipliedUntilItDoes) {
  const std::string& init = kGroupNormInit;
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n" + init +
      "    def forward(self, x):\n        B, C = x.shape\n        G = self.gn.num_groups\n"
      "        return x.view(B, G, C // G).sum(-1)\n\n\n"
      "batch_size = 2\nchannels = 512\nnum_groups = 32\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, channels)]\n\n\n"
      "def get_init_inputs():\n    return [channels, num_groups]\n";
  const std::string cand =
      kTritonImports +
      "@triton.jit\ndef group_sums(x_ptr, out_ptr, C, G, BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0)\n    g = tl.program_id(1)\n    gs = C // G\n"
      "    acc = 0.0\n    for k0 in range(0, gs, BLOCK):\n"
      "        offs = k0 + tl.arange(0, BLOCK)\n"
      "        v = tl.load(x_ptr + row * C + g * gs + offs, mask=offs < gs, other=0.0)\n"
      "        acc = tl.sum(v, axis=0)\n"
      "    tl.store(out_ptr + row * G + g, acc)\n\n\n"
      "class ModelNew(nn.Module):\n" +
      init +
      "    def forward(self, x):\n        B, C = x.shape\n        G = self.gn.num_groups\n"
      "        out = torch.empty(B, G, device=x.device)\n"
      "        group_sums[(B, G)](x, out, C, G, BLOCK=64)\n        return out\n";
  Files f("loop_second_trip", ref, cand);
  expect_refuted_at(f.run(), "runs several trips there", "the accumulator is overwritten");
}

// A row reduced in chunks of four blocks, each chunk's maximum combined by a second kernel
// (gpt-5's pair-reduced softmax): a second chunk needs a row past 256, 128 times the first
// sizes' 3 (the multiples used to stop at 64). This candidate's combine keeps the last chunk's
// maximum instead of the larger.
TEST(DefaultBound, ALoopOverChunksOfSeveralBlocksGetsItsSecondTrip) {
  const std::string ref =
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
      "    def forward(self, x):\n        return x.amax(dim=1)\n\n\n"
      "batch_size = 2\ndim = 3000\n\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, dim)]\n\n\n"
      "def get_init_inputs():\n    return []\n";
  const std::string cand =
      kTritonImports +
      "@triton.jit\ndef chunk_max(x_ptr, m_ptr, n, chunks, CHUNK: tl.constexpr, "
      "BLOCK: tl.constexpr):\n"
      "    row = tl.program_id(0) // chunks\n    c = tl.program_id(0) % chunks\n"
      "    m = tl.full((), -float('inf'), tl.float32)\n"
      "    for base in range(0, CHUNK, BLOCK):\n"
      "        offs = c * CHUNK + base + tl.arange(0, BLOCK)\n"
      "        v = tl.load(x_ptr + row * n + offs, mask=offs < n, other=-float('inf'))\n"
      "        m = tl.maximum(m, tl.max(v, axis=0))\n"
      "    tl.store(m_ptr + row * chunks + c, m)\n\n\n"
      "@triton.jit\ndef combine(m_ptr, out_ptr, chunks):\n    row = tl.program_id(0)\n"
      "    m = tl.full((), -float('inf'), tl.float32)\n    for c in range(0, chunks):\n"
      "        m = tl.load(m_ptr + row * chunks + c)\n    tl.store(out_ptr + row, m)\n\n\n"
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        B, N = x.shape\n"
      "        chunks = (N + 255) // 256\n"
      "        m = torch.empty(B * chunks, device=x.device)\n"
      "        out = torch.empty(B, device=x.device)\n"
      "        chunk_max[(B * chunks,)](x, m, N, chunks, CHUNK=256, BLOCK=64)\n"
      "        combine[(B,)](m, out, chunks)\n        return out\n";
  Files f("chunks_second_trip", ref, cand);
  expect_refuted_at(f.run(), "runs several trips there", "the combine keeps the last chunk");
}

// A reference and a candidate that run a 1x1x1 Conv3d and GroupNorm(8) over its channels, the
// module-level `sizes` naming batch_size, in_channels, out_channels, D, H and W.
Files conv3d_groupnorm(const std::string& name, const std::string& sizes) {
  const std::string model =
      "    def __init__(self, in_channels, out_channels):\n        super().__init__()\n"
      "        self.conv = nn.Conv3d(in_channels, out_channels, 1)\n"
      "        self.gn = nn.GroupNorm(8, out_channels)\n\n"
      "    def forward(self, x):\n        return self.gn(self.conv(x))\n\n\n";
  const std::string tail =
      "\n\ndef get_inputs():\n    return [torch.rand(batch_size, in_channels, D, H, W)]\n\n\n"
      "def get_init_inputs():\n    return [in_channels, out_channels]\n";
  return Files(
      name,
      "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n" + model + sizes + tail,
      kTritonImports + "class ModelNew(nn.Module):\n" + model + sizes + tail);
}

// The file's sizes scaled down with a floor of 32 (the bound's last try) can pass keq's element
// limit where smaller sizes ran: a conv3d + GroupNorm over a 16 x 64 x 32^3 volume is 33.6M
// elements. Those sizes are the bound's choice, not the user's: skipped and named, not an
// UNSUPPORTED verdict over configurations that were proved (KernelBench L2 61 against itself).
// Run at those sizes, the report says they pass keq's limits, which is how the bound skips
// sizes whose inputs fit and whose intermediates do not.
TEST(DefaultBound, SizesTheBoundChosePastKeqsLimitsAreSkippedWhereOthersRan) {
  // Six sizes: 8 each is the element cap, so no size doubled to keep 2 channels a group runs.
  Files f = conv3d_groupnorm(
      "past_limits", "batch_size = 16\nin_channels = 64\nout_channels = 128\nD = H = W = 32\n");
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  for (const Report& r : rs)
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << ": " << r.reason;
  const std::string floor32 = "batch_size=16,in_channels=32,out_channels=32,D=32,H=32,W=32";
  const std::string notes = notes_of(rs[0]);
  EXPECT_NE(notes.find("bound: skipped " + floor32 + ": "), std::string::npos) << notes;

  Options at_floor32;
  at_floor32.dims = {{"batch_size", {16}}, {"in_channels", {32}}, {"out_channels", {32}},
                     {"D", {32}},          {"H", {32}},           {"W", {32}}};
  Report past = verify(f.ref.string(), f.cand.string(), at_floor32);
  EXPECT_EQ(past.verdict, Verdict::Unsupported) << past.reason;
  EXPECT_TRUE(past.size_limited) << past.reason;
  EXPECT_NE(past.reason.find("elements (size limit"), std::string::npos) << past.reason;
}

// A floor of 32 keeps the file's proportions past the element cap: a conv3d + GroupNorm's inputs
// at 32 x 3 x 24 x 32 x 32 are 2.4M elements. Once a configuration has run, such a try is passed
// over, its inputs' product named (KernelBench L2 23 against itself spent its second round's
// whole share of --timeout on them, then dropped them).
TEST(DefaultBound, ProportionsWhoseInputsPassTheCapAreSkippedOnceAConfigurationRan) {
  Files f = conv3d_groupnorm("proportions_past_cap",
                             "batch_size = 128\nin_channels = 3\nout_channels = 24\n"
                             "D, H, W = 24, 32, 32\n");
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  for (const Report& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.bound << ": " << r.reason;
    EXPECT_EQ(r.bound.find("batch_size=32"), std::string::npos) << r.bound;
  }
  const std::string notes = notes_of(rs[0]);
  EXPECT_NE(notes.find("its inputs' sizes multiply to 2359296, past the 262144"), std::string::npos)
      << notes;
}

// LeNet's `view(-1, 16*5*5)` wants the 32 x 32 image its get_inputs writes: the reference
// rejects every smaller image, the file's proportions at floors of 1 and 8 as well, and with a
// floor of 32 the batch stayed 32 too (LLMKernel L3 4: running the programs there took the whole
// --timeout). The image is kept at the file's value and the other sizes small.
TEST(DefaultBound, SizesTheReferenceNeedsAtTheFileValueKeepItWithTheOthersSmall) {
  const std::string model =
      "    def __init__(self, num_classes):\n        super().__init__()\n"
      "        self.conv = nn.Conv2d(1, 2, 5)\n"
      "        self.fc = nn.Linear(2 * 28 * 28, num_classes)\n\n"
      "    def forward(self, x):\n"
      "        return self.fc(self.conv(x).view(-1, 2 * 28 * 28))\n\n\n"
      "batch_size = 4096\nnum_classes = 20\n\n\n"
      "def get_inputs():\n    return [torch.rand(batch_size, 1, 32, 32)]\n\n\n"
      "def get_init_inputs():\n    return [num_classes]\n";
  Files f("image_at_file_value",
          "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n" + model,
          kTritonImports + "class ModelNew(nn.Module):\n" + model);
  std::vector<Report> rs = f.run();
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs[0].verdict, Verdict::Equivalent) << rs[0].reason;
  EXPECT_NE(rs[0].bound.find("literal@20:39=32,literal@20:43=32,batch_size=4,"), std::string::npos)
      << rs[0].bound;
  EXPECT_NE(rs[0].bound.find("at the file's value"), std::string::npos) << rs[0].bound;
  for (const Report& r : rs) EXPECT_EQ(r.bound.find("batch_size=32,"), std::string::npos);
}

// Every autotune config's findings come before any config's proof: a grid sized for config 1's
// block of 2 leaves config 2's (a block of 1) every other output unwritten. Config 1's proof ran
// first, and over a LeNet its proof took the whole --timeout before config 2 ran (LLMKernel
// L3 4); the finding now decides the run with no proof spent.
TEST(DefaultBound, AnAutotuneConfigsFindingComesBeforeAnyProof) {
  Files f("config_finding_first",
          "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
          "    def forward(self, x):\n        return 2 * x\n\n\n"
          "n = 64\n\n\ndef get_inputs():\n    return [torch.rand(n)]\n\n\n"
          "def get_init_inputs():\n    return []\n",
          kTritonImports +
              "@triton.autotune(configs=[triton.Config({'BLOCK': 2}), "
              "triton.Config({'BLOCK': 1})], key=['n'])\n" +
              kTwiceKernel +
              "class ModelNew(nn.Module):\n    def forward(self, x):\n"
              "        y = torch.empty_like(x)\n"
              "        twice[(triton.cdiv(x.numel(), 2),)](x, y, x.numel())\n"
              "        return y\n\n\n"
              "n = 64\n");
  std::vector<Report> rs = f.run();
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].verdict, Verdict::NotEquivalent) << rs[0].reason;
  EXPECT_EQ(rs[0].autotune_config, 1u);
  EXPECT_NE(rs[0].bound.find("config 2 of 2"), std::string::npos) << rs[0].bound;
}

// Z3's time in one configuration is a slice of --timeout: the first sizes (4 columns, a power
// of two: no lane masked) leave Z3 a gelu(gelu(logsumexp)) it cannot prove, and it once spent
// the whole --timeout there; the next sizes, where the masked lanes' exp(0 - max) shows at once,
// now run (DLBlas L2 64). The first configuration is left UNKNOWN, marked for a second turn.
TEST(DefaultBound, ZsSliceOfOneConfigurationLeavesTheNextItsTurn) {
  fs::path dir = fs::path(KEQ_SOURCE_DIR) / "examples/logsumexp_gelu_pads_with_zero";
  std::vector<Report> rs =
      verify_default_bound((dir / "ref.py").string(), (dir / "cand.py").string(), {});
  ASSERT_GE(rs.size(), 2u);
  EXPECT_EQ(rs[0].verdict, Verdict::Unknown) << rs[0].reason;
  EXPECT_TRUE(rs[0].smt_deferred);
  EXPECT_EQ(rs[1].verdict, Verdict::NotEquivalent) << rs[1].reason;
}

// Where the reference rejects the first sizes (a view into the file's 4 groups), the second
// round's multiple of that constant differs from the first's: both once ran at 4 columns, groups
// of one column where no lane is masked, and proved a kernel whose masked lanes load 1.0.
TEST(DefaultBound, TheSecondRoundsMultipleOfAConstantDiffersFromTheFirsts) {
  fs::path dir = fs::path(KEQ_SOURCE_DIR) / "examples/group_rmsnorm_tail_loads_one";
  std::vector<Report> rs =
      verify_default_bound((dir / "ref.py").string(), (dir / "cand.py").string(), {});
  ASSERT_GE(rs.size(), 2u);
  EXPECT_NE(rs[0].bound.find("hidden=4 "), std::string::npos) << rs[0].bound;
  EXPECT_NE(rs[1].bound.find("hidden=12 "), std::string::npos) << rs[1].bound;
  EXPECT_EQ(rs[1].verdict, Verdict::NotEquivalent) << rs[1].reason;
}

}  // namespace
}  // namespace keq::verify
