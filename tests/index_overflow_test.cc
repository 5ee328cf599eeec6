// int32 offsets at the file's own sizes (verify/index_overflow.h): a kernel whose offsets are
// int32 and span a buffer that has more than 2^31 - 1 elements at the sizes the file writes is
// reported, with the site; int64 offsets, a pointer advanced block by block, and files whose
// buffers fit are not. So is a product of two int arguments past int32 there.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "verify/verify.h"

namespace keq::verify {
namespace {

namespace fs = std::filesystem;

std::string reference(int64_t rows, int64_t cols) {
  return "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
         "    def forward(self, x):\n        return x * 2.0\n\n\nrows = " +
         std::to_string(rows) + "\ncols = " + std::to_string(cols) +
         "\n\n\ndef get_inputs():\n    return [torch.randn(rows, cols)]\n";
}

// `start` is the kernel's first line (the block's first offset), `step` how the loop advances.
std::string candidate(const std::string& body) {
  return "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n\n\n"
         "@triton.jit\ndef scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n" +
         body +
         "\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n"
         "        y = torch.empty_like(x)\n        n = x.numel()\n"
         "        scale[(triton.cdiv(n, 4),)](x, y, n, BLOCK=4)\n        return y\n";
}

const char* kInt32 =
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)\n";
const char* kInt64 =
    "    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)\n";
// One program walks the buffer, advancing 64-bit pointers by a small int32 step.
const char* kAdvanced =
    "    if tl.program_id(0) == 0:\n"
    "        xp = x_ptr + tl.arange(0, BLOCK)\n        yp = y_ptr + tl.arange(0, BLOCK)\n"
    "        left = n\n        while left > 0:\n"
    "            m = tl.arange(0, BLOCK) < left\n"
    "            tl.store(yp, tl.load(xp, mask=m) * 2.0, mask=m)\n"
    "            xp += BLOCK\n            yp += BLOCK\n            left -= BLOCK\n";

std::vector<std::string> findings(const std::string& ref, const std::string& cand,
                                  const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("keq_index_overflow_" + name);
  fs::create_directories(dir);
  std::ofstream(dir / "ref.py") << ref;
  std::ofstream(dir / "cand.py") << cand;
  Options opt;
  opt.dims = {{"rows", {4}}, {"cols", {5}}};  // 20 elements: more than a few blocks of 4
  opt.use_smt = false;
  Report r = verify((dir / "ref.py").string(), (dir / "cand.py").string(), opt);
  fs::remove_all(dir);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << name << ": " << r.reason;
  return r.file_size_findings;
}

TEST(Int32Offsets, AnInt32OffsetOverABufferPast2To31ElementsIsReportedAtTheFileSizes) {
  // 65536 x 65536 = 2^32 elements.
  std::vector<std::string> f = findings(reference(65536, 65536), candidate(kInt32), "int32");
  ASSERT_EQ(f.size(), 2u);  // the store's offset and the load's
  EXPECT_NE(f[0].find("cand.py:"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("4294967296 elements"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("rows=65536,cols=65536"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("at rows=4,cols=5"), std::string::npos) << f[0];
}

TEST(Int32Offsets, Int64OffsetsAdvancedPointersAndBuffersThatFitAreNot) {
  EXPECT_TRUE(findings(reference(65536, 65536), candidate(kInt64), "int64").empty());
  EXPECT_TRUE(findings(reference(65536, 65536), candidate(kAdvanced), "advanced").empty());
  // 32768 x 65536 = 2^31 elements: the last index is 2^31 - 1, which int32 holds.
  EXPECT_TRUE(findings(reference(32768, 65536), candidate(kInt32), "fits").empty());
}

// A flat mask bound computed on the kernel side from two int arguments, int64 offsets or not:
// n_rows * n_cols is int32 (both are), and wraps to 0 at 65536 x 65536.
std::string candidate_with_rows_cols(const std::string& total) {
  return "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n\n\n"
         "@triton.jit\ndef scale(x_ptr, y_ptr, n_rows, n_cols, BLOCK: tl.constexpr):\n"
         "    total = " +
         total +
         "\n    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)\n"
         "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < total) * 2.0, "
         "mask=offs < total)\n\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n"
         "        y = torch.empty_like(x)\n        r, c = x.shape\n"
         "        scale[(triton.cdiv(r * c, 4),)](x, y, r, c, BLOCK=4)\n        return y\n";
}

TEST(Int32Products, AProductOfTwoIntArgumentsPastInt32AtTheFileSizesIsReported) {
  std::vector<std::string> f =
      findings(reference(65536, 65536), candidate_with_rows_cols("n_rows * n_cols"), "product");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].find("cand.py:9:"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("(4 x 5 at rows=4,cols=5)"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("65536 x 65536 = 4294967296"), std::string::npos) << f[0];
  EXPECT_TRUE(findings(reference(65536, 65536),
                       candidate_with_rows_cols("n_rows.to(tl.int64) * n_cols"), "product64")
                  .empty());
  EXPECT_TRUE(
      findings(reference(32768, 65535), candidate_with_rows_cols("n_rows * n_cols"), "product_fits")
          .empty());
}

}  // namespace
}  // namespace keq::verify
