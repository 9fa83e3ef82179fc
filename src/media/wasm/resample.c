/*
 * Separable Lanczos resampling of an RGB raster into an RGBA canvas, in WebAssembly with SIMD128.
 * Built by `npm run build:wasm` (clang, wasm32 target) into resample.wasm, which is committed.
 *
 * The module has no memory, stack or data of its own: it imports the memory of the JPEG decoder's
 * instance, so it reads the decoded pixels where the decoder wrote them, and every buffer it
 * touches (taps, one intermediate row, the canvas) is allocated there by the caller.
 *
 * Per output row: a vertical pass sums the row's source rows (only the columns the horizontal taps
 * reach) into one row of 16-bit values (value x 64), then a horizontal pass sums each output
 * pixel's columns of that row and writes RGBA (alpha 255). Weights are 14-bit fixed point, each
 * sample's taps summing to 16384.
 */
#include <stdint.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(name)))

static void vertical(const uint8_t *row0, int stride, int count, const int16_t *w, int16_t *mid, int len) {
  int b = 0;
  const v128_t round = wasm_i32x4_splat(128);
  for (; b + 16 <= len; b += 16) {
    v128_t a0 = round, a1 = round, a2 = round, a3 = round;
    const uint8_t *p = row0 + b;
    for (int k = 0; k < count; k++, p += stride) {
      v128_t px = wasm_v128_load(p);
      v128_t lo = wasm_u16x8_extend_low_u8x16(px);
      v128_t hi = wasm_u16x8_extend_high_u8x16(px);
      v128_t wk = wasm_i16x8_splat(w[k]);
      a0 = wasm_i32x4_add(a0, wasm_i32x4_extmul_low_i16x8(lo, wk));
      a1 = wasm_i32x4_add(a1, wasm_i32x4_extmul_high_i16x8(lo, wk));
      a2 = wasm_i32x4_add(a2, wasm_i32x4_extmul_low_i16x8(hi, wk));
      a3 = wasm_i32x4_add(a3, wasm_i32x4_extmul_high_i16x8(hi, wk));
    }
    v128_t r0 = wasm_i16x8_narrow_i32x4(wasm_i32x4_shr(a0, 8), wasm_i32x4_shr(a1, 8));
    v128_t r1 = wasm_i16x8_narrow_i32x4(wasm_i32x4_shr(a2, 8), wasm_i32x4_shr(a3, 8));
    wasm_v128_store(mid + b, r0);
    wasm_v128_store(mid + b + 8, r1);
  }
  for (; b < len; b++) {
    int32_t a = 128;
    const uint8_t *p = row0 + b;
    for (int k = 0; k < count; k++, p += stride) a += (int32_t)*p * w[k];
    a >>= 8;
    mid[b] = (int16_t)(a > 32767 ? 32767 : a < -32768 ? -32768 : a);
  }
}

static void horizontal(const int16_t *mid, int ch, const int32_t *start, const int32_t *count, const int16_t *w,
                       int maxTaps, int width, uint8_t *out, int step) {
  const v128_t round = wasm_i32x4_splat(1 << 19);
  const v128_t keep = wasm_i32x4_splat(0x00ffffff);
  const v128_t alpha = wasm_i32x4_splat((int32_t)0xff000000);
  for (int u = 0; u < width; u++, out += step) {
    const int16_t *m = mid + start[u] * ch;
    const int16_t *wu = w + u * maxTaps;
    v128_t acc = round;
    for (int k = 0; k < count[u]; k++, m += ch)
      acc = wasm_i32x4_add(acc, wasm_i32x4_extmul_low_i16x8(wasm_v128_load64_zero(m), wasm_i16x8_splat(wu[k])));
    v128_t v = wasm_i32x4_shr(acc, 20);
    v = wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(v, v), v);
    v = wasm_v128_or(wasm_v128_and(v, keep), alpha);
    wasm_v128_store32_lane(out, v, 0);
  }
}

/*
 * ch: bytes a source pixel (3, RGB; or 4, RGBA, alpha ignored). src: the first byte of the source's
 * first column used (x0) in row 0; stride: bytes per source row.
 * cols: source columns the horizontal taps span (from x0). The vertical taps (vStart: source row,
 * vCount, vW: vMax weights per output row) and the horizontal ones (hStart relative to x0) are
 * the caller's. mid: (cols * ch + 4) 16-bit values. Output pixel (u, v) is written at
 * out + u * stepU + v * stepV (bytes; negative steps mirror). Rows firstRow to outH - 1 are made:
 * the caller goes in slices, so that the engine's optimising tier replaces its baseline code early.
 */
EXPORT("resample")
void resample(int ch, const uint8_t *src, int stride, int cols, const int32_t *vStart, const int32_t *vCount,
              const int16_t *vW, int vMax, int outH, const int32_t *hStart, const int32_t *hCount, const int16_t *hW,
              int hMax, int outW, int16_t *mid, uint8_t *out, int stepU, int stepV, int firstRow) {
  for (int v = firstRow; v < outH; v++) {
    vertical(src + vStart[v] * stride, stride, vCount[v], vW + v * vMax, mid, cols * ch);
    horizontal(mid, ch, hStart, hCount, hW, hMax, outW, out + v * stepV, stepU);
  }
}
