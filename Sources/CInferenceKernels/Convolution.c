// Convolution and dense layers as one register-blocked kernel: a tile of R
// output rows (pixels of one output row, or images for a dense layer) times
// one block of output channels. Each input value is broadcast once per tile
// and each packed weight vector is loaded once per tile, so the inner loop is
// R * NV fused multiply-adds for NV + R loads.
#include "InferenceKernels.h"
#include "Internal.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    const float *in;        // input of row r, tap t, channel c: in[r * in_row + taps[t] + c]
    ptrdiff_t in_row;
    const ptrdiff_t *taps;
    int32_t taps_count, in_channels;
    const float *weights;   // this block: [tap][in_channel][block_width]
    const float *bias;      // this block: [block_width]
    float *out;             // output of row r, channel o: out[r * out_row + o]
    ptrdiff_t out_row;
    int32_t valid;          // output channels of this block that exist
    int32_t relu;
    int32_t portable;
} tile_args;

typedef void (*tile_fn)(const tile_args *);

// ---------------------------------------------------------------- portable

static void tile_portable(int rows, int block_width, const tile_args *a) {
    float acc[64];
    for (int r = 0; r < rows; r++) {
        for (int o = 0; o < block_width; o++) acc[o] = a->bias[o];
        const float *w = a->weights;
        for (int t = 0; t < a->taps_count; t++) {
            const float *x = a->in + r * a->in_row + a->taps[t];
            for (int c = 0; c < a->in_channels; c++, w += block_width) {
                const float xc = x[c];
                for (int o = 0; o < block_width; o++) acc[o] += xc * w[o];
            }
        }
        float *y = a->out + r * a->out_row;
        for (int o = 0; o < a->valid; o++) y[o] = a->relu && acc[o] < 0 ? 0 : acc[o];
    }
}

// ---------------------------------------------------------------- AVX-512

#if IK_X86

// Accumulators: R * NV of the 32 vector registers; the rest hold the NV
// weight vectors and the broadcast input.
#define IK_ROWS_1 28
#define IK_ROWS_2 14
#define IK_ROWS_4 6

static inline __attribute__((always_inline)) IK_AVX512_TARGET
void tile_avx512(const int R, const int NV, const tile_args *a) {
    __m512 acc[IK_ROWS_1][4];
    __mmask16 mask[4];
#pragma clang loop unroll(full)
    for (int v = 0; v < NV; v++) {
        const int left = a->valid - 16 * v;
        mask[v] = left >= 16 ? (__mmask16)0xFFFF : left <= 0 ? (__mmask16)0 : (__mmask16)((1u << left) - 1);
        const __m512 b = _mm512_loadu_ps(a->bias + 16 * v);
#pragma clang loop unroll(full)
        for (int r = 0; r < R; r++) acc[r][v] = b;
    }
    const float *w = a->weights;
    const ptrdiff_t in_row = a->in_row;
    const int cin = a->in_channels;
    for (int t = 0; t < a->taps_count; t++) {
        const float *x = a->in + a->taps[t];
        for (int c = 0; c < cin; c++) {
            __m512 wv[4];
#pragma clang loop unroll(full)
            for (int v = 0; v < NV; v++) wv[v] = _mm512_load_ps(w + 16 * v);
#pragma clang loop unroll(full)
            for (int r = 0; r < R; r++) {
                const __m512 xb = _mm512_set1_ps(x[r * in_row + c]);
#pragma clang loop unroll(full)
                for (int v = 0; v < NV; v++) acc[r][v] = _mm512_fmadd_ps(xb, wv[v], acc[r][v]);
            }
            w += 16 * NV;
        }
    }
    const __m512 zero = _mm512_setzero_ps();
#pragma clang loop unroll(full)
    for (int r = 0; r < R; r++) {
        float *y = a->out + r * a->out_row;
#pragma clang loop unroll(full)
        for (int v = 0; v < NV; v++) {
            __m512 value = a->relu ? _mm512_max_ps(acc[r][v], zero) : acc[r][v];
            _mm512_mask_storeu_ps(y + 16 * v, mask[v], value);
        }
    }
}

#define IK_TILE(R, NV) \
    static IK_AVX512_TARGET void tile_##R##_##NV(const tile_args *a) { tile_avx512(R, NV, a); }
#define IK_TILES_UP_TO_6(NV) IK_TILE(1, NV) IK_TILE(2, NV) IK_TILE(3, NV) IK_TILE(4, NV) IK_TILE(5, NV) IK_TILE(6, NV)
#define IK_TILES_7_TO_14(NV) IK_TILE(7, NV) IK_TILE(8, NV) IK_TILE(9, NV) IK_TILE(10, NV) \
    IK_TILE(11, NV) IK_TILE(12, NV) IK_TILE(13, NV) IK_TILE(14, NV)
#define IK_TILES_15_TO_28(NV) IK_TILE(15, NV) IK_TILE(16, NV) IK_TILE(17, NV) IK_TILE(18, NV) \
    IK_TILE(19, NV) IK_TILE(20, NV) IK_TILE(21, NV) IK_TILE(22, NV) IK_TILE(23, NV) IK_TILE(24, NV) \
    IK_TILE(25, NV) IK_TILE(26, NV) IK_TILE(27, NV) IK_TILE(28, NV)

IK_TILES_UP_TO_6(1) IK_TILES_7_TO_14(1) IK_TILES_15_TO_28(1)
IK_TILES_UP_TO_6(2) IK_TILES_7_TO_14(2)
IK_TILES_UP_TO_6(4)

#define IK_NAMES_UP_TO_6(NV) tile_1_##NV, tile_2_##NV, tile_3_##NV, tile_4_##NV, tile_5_##NV, tile_6_##NV
#define IK_NAMES_7_TO_14(NV) tile_7_##NV, tile_8_##NV, tile_9_##NV, tile_10_##NV, tile_11_##NV, \
    tile_12_##NV, tile_13_##NV, tile_14_##NV
#define IK_NAMES_15_TO_28(NV) tile_15_##NV, tile_16_##NV, tile_17_##NV, tile_18_##NV, tile_19_##NV, \
    tile_20_##NV, tile_21_##NV, tile_22_##NV, tile_23_##NV, tile_24_##NV, tile_25_##NV, tile_26_##NV, \
    tile_27_##NV, tile_28_##NV

static const tile_fn tiles_1[IK_ROWS_1 + 1] = { NULL, IK_NAMES_UP_TO_6(1), IK_NAMES_7_TO_14(1), IK_NAMES_15_TO_28(1) };
static const tile_fn tiles_2[IK_ROWS_2 + 1] = { NULL, IK_NAMES_UP_TO_6(2), IK_NAMES_7_TO_14(2) };
static const tile_fn tiles_4[IK_ROWS_4 + 1] = { NULL, IK_NAMES_UP_TO_6(4) };

// ---------------------------------------------------------------- AVX2

// Sixteen output channels (two 8-wide vectors) of R rows: 2R of the 16
// vector registers accumulate, two hold the weights, one the broadcast input.
// On such CPUs every block is 16 channels wide (ik_preferred_block), so the
// weights of one tile are one contiguous run the prefetcher follows; a tile
// of conv 64->64 reads 36 KB of them, more than L1 holds.
#define IK_AVX2_ROWS 6

static inline __attribute__((always_inline)) IK_AVX2_TARGET
void tile_avx2(const int R, const tile_args *a) {
    __m256 acc[IK_AVX2_ROWS][2];
    __m256i mask[2];
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
#pragma clang loop unroll(full)
    for (int v = 0; v < 2; v++) {
        mask[v] = _mm256_cmpgt_epi32(_mm256_set1_epi32(a->valid - 8 * v), lanes);
        const __m256 b = _mm256_loadu_ps(a->bias + 8 * v);
#pragma clang loop unroll(full)
        for (int r = 0; r < R; r++) acc[r][v] = b;
    }
    const float *w = a->weights;
    const ptrdiff_t in_row = a->in_row;
    const int cin = a->in_channels;
    for (int t = 0; t < a->taps_count; t++) {
        const float *x = a->in + a->taps[t];
        for (int c = 0; c < cin; c++, w += 16) {
            const __m256 w0 = _mm256_loadu_ps(w), w1 = _mm256_loadu_ps(w + 8);
#pragma clang loop unroll(full)
            for (int r = 0; r < R; r++) {
                const __m256 xb = _mm256_broadcast_ss(x + r * in_row + c);
                acc[r][0] = _mm256_fmadd_ps(xb, w0, acc[r][0]);
                acc[r][1] = _mm256_fmadd_ps(xb, w1, acc[r][1]);
            }
        }
    }
    const __m256 zero = _mm256_setzero_ps();
#pragma clang loop unroll(full)
    for (int r = 0; r < R; r++) {
        float *y = a->out + r * a->out_row;
#pragma clang loop unroll(full)
        for (int v = 0; v < 2; v++) {
            // A masked store is far slower than a plain one on some CPUs (AMD EPYC).
            const __m256 value = a->relu ? _mm256_max_ps(acc[r][v], zero) : acc[r][v];
            if (a->valid >= 8 * (v + 1)) _mm256_storeu_ps(y + 8 * v, value);
            else _mm256_maskstore_ps(y + 8 * v, mask[v], value);
        }
    }
}

#define IK_AVX2_TILE(R) static IK_AVX2_TARGET void tile_avx2_##R(const tile_args *a) { tile_avx2(R, a); }
IK_AVX2_TILE(1) IK_AVX2_TILE(2) IK_AVX2_TILE(3) IK_AVX2_TILE(4) IK_AVX2_TILE(5) IK_AVX2_TILE(6)
static const tile_fn tiles_avx2[IK_AVX2_ROWS + 1] = {
    NULL, tile_avx2_1, tile_avx2_2, tile_avx2_3, tile_avx2_4, tile_avx2_5, tile_avx2_6,
};

#endif

// Runs `rows` rows in tiles of at most `most`, split evenly so no tile is much
// shorter than the others.
static void run_tiles(int rows, int most, const tile_fn *table, const tile_args *a) {
    const int tiles = (rows + most - 1) / most;
    int done = 0;
    for (int i = 0; i < tiles; i++) {
        const int take = (rows - done) / (tiles - i);
        tile_args part = *a;
        part.in = a->in + done * a->in_row;
        part.out = a->out + done * a->out_row;
        table[take](&part);
        done += take;
    }
}

// Runs `rows` rows of one output block, in tiles as tall as the registers allow.
static void run_rows(int rows, int block_width, tile_args *a) {
#if IK_X86
    if (!a->portable && ik_has_avx512()) {
        const tile_fn *table = block_width == 16 ? tiles_1 : block_width == 32 ? tiles_2 : tiles_4;
        const int most = block_width == 16 ? IK_ROWS_1 : block_width == 32 ? IK_ROWS_2 : IK_ROWS_4;
        run_tiles(rows, most, table, a);
        return;
    }
    if (!a->portable && block_width == 16 && ik_has_avx2()) {
        run_tiles(rows, IK_AVX2_ROWS, tiles_avx2, a);
        return;
    }
#endif
    tile_portable(rows, block_width, a);
}

int32_t ik_vector_width(void) {
#if IK_X86
    if (ik_has_avx512()) return 16;
    if (ik_has_avx2()) return 8;
#endif
    return 1;
}

int32_t ik_preferred_block(int32_t out_channels, int32_t is_dense) {
    // The AVX2 tiles are 16 channels wide; a wider block would spread a
    // tile's weights over half of each line (on an AMD EPYC, 6% slower at batch 256).
    if (out_channels <= 16 || ik_vector_width() == 8) return 16;
    if (out_channels <= 32 || is_dense) return 32;
    return 64;
}

size_t ik_packed_weights_count(int32_t out_channels, int32_t in_channels, int32_t taps, int32_t block_width) {
    const size_t blocks = (size_t)(out_channels + block_width - 1) / (size_t)block_width;
    return blocks * (size_t)taps * (size_t)in_channels * (size_t)block_width;
}

size_t ik_packed_bias_count(int32_t out_channels, int32_t block_width) {
    return (size_t)((out_channels + block_width - 1) / block_width) * (size_t)block_width;
}

void ik_pack_conv(const float *weights, const float *bias, int32_t out_channels, int32_t in_channels,
                  int32_t kernel_h, int32_t kernel_w, int32_t block_width,
                  float *packed_weights, float *packed_bias) {
    const int blocks = (out_channels + block_width - 1) / block_width;
    const int taps = kernel_h * kernel_w;
    for (int b = 0; b < blocks; b++) {
        for (int lane = 0; lane < block_width; lane++) {
            const int o = b * block_width + lane;
            packed_bias[o] = (o < out_channels && bias) ? bias[o] : 0.0f;
        }
        for (int t = 0; t < taps; t++) {
            const int kh = t / kernel_w, kw = t % kernel_w;
            for (int i = 0; i < in_channels; i++) {
                float *dst = packed_weights + (((size_t)b * taps + t) * in_channels + i) * block_width;
                for (int lane = 0; lane < block_width; lane++) {
                    const int o = b * block_width + lane;
                    dst[lane] = o < out_channels
                        ? weights[(((size_t)o * in_channels + i) * kernel_h + kh) * kernel_w + kw] : 0.0f;
                }
            }
        }
    }
}

// Offsets of each kernel tap (kh, kw) from a window's top-left pixel in `in`.
static void conv_taps(const ik_conv *conv, ik_view in, ptrdiff_t *taps) {
    for (int t = 0; t < conv->kernel_h * conv->kernel_w; t++)
        taps[t] = (t / conv->kernel_w) * ik_pitch(in) + (t % conv->kernel_w) * in.channels;
}

// The tile arguments for output block `b`; the caller points `in` and `out` at rows.
static tile_args block_args(const ik_conv *conv, const ptrdiff_t *taps, int taps_count, ptrdiff_t in_row,
                            ptrdiff_t out_row, int b) {
    const int bw = conv->block_width, left = conv->out_channels - b * bw;
    return (tile_args){
        .in_row = in_row, .taps = taps, .taps_count = taps_count, .in_channels = conv->in_channels,
        .weights = conv->weights + (size_t)b * taps_count * conv->in_channels * bw,
        .bias = conv->bias + b * bw, .out_row = out_row, .valid = left < bw ? left : bw, .relu = conv->relu,
        .portable = conv->portable,
    };
}

// The top-left of the window of output row `oh`, whose image interior starts at `in0`.
static const float *window_row(const ik_conv *conv, ik_view in, const float *in0, int oh) {
    return in0 + (ptrdiff_t)(oh * conv->stride - conv->padding) * ik_pitch(in)
        - (ptrdiff_t)conv->padding * in.channels;
}

void ik_conv2d(const ik_conv *conv, ik_view in, ik_view out, int32_t count) {
    const int bw = conv->block_width, out_channels = out.channels;
    const int taps_count = conv->kernel_h * conv->kernel_w;
    ptrdiff_t taps[taps_count];
    conv_taps(conv, in, taps);
    const int blocks = (out_channels + bw - 1) / bw;

    for (int n = 0; n < count; n++) {
        ik_zero_border(out, n);
        const float *in0 = ik_interior(in, n);
        float *out0 = ik_interior(out, n);
        for (int b = 0; b < blocks; b++) {
            tile_args a = block_args(conv, taps, taps_count, (ptrdiff_t)conv->stride * in.channels, out_channels, b);
            for (int oh = 0; oh < out.height; oh++) {
                a.in = window_row(conv, in, in0, oh);
                a.out = out0 + oh * ik_pitch(out) + b * bw;
                run_rows(out.width, bw, &a);
            }
        }
    }
}

// Pools `pool` rows of a channels-last buffer (row_floats apart) into one
// output row of `width` pixels, window and stride `pool`.
static void pool_rows_portable(int is_max, const float *rows, ptrdiff_t row_floats, int pool, int width,
                               int channels, float *out) {
    const float scale = 1.0f / (float)(pool * pool);
    for (int pw = 0; pw < width; pw++) {
        const float *first = rows + (ptrdiff_t)pw * pool * channels;
        for (int c = 0; c < channels; c++) {
            float y = is_max ? first[c] : 0.0f;
            for (int j = 0; j < pool; j++)
                for (int u = 0; u < pool; u++) {
                    const float x = first[j * row_floats + u * channels + c];
                    y = is_max ? (x > y ? x : y) : y + x;
                }
            out[pw * channels + c] = is_max ? y : y * scale;
        }
    }
}

#if IK_X86
static IK_AVX512_TARGET void pool_rows_avx512(int is_max, const float *rows, ptrdiff_t row_floats, int pool,
                                              int width, int channels, float *out) {
    const __m512 scale = _mm512_set1_ps(1.0f / (float)(pool * pool));
    for (int pw = 0; pw < width; pw++) {
        const float *first = rows + (ptrdiff_t)pw * pool * channels;
        for (int c = 0; c < channels; c += 16) {
            const int left = channels - c;
            const __mmask16 mask = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
            __m512 y = _mm512_maskz_loadu_ps(mask, first + c);
            for (int j = 0; j < pool; j++)
                for (int u = 0; u < pool; u++) {
                    if (j == 0 && u == 0) continue;
                    const __m512 x = _mm512_maskz_loadu_ps(mask, first + j * row_floats + u * channels + c);
                    y = is_max ? _mm512_max_ps(y, x) : _mm512_add_ps(y, x);
                }
            if (!is_max) y = _mm512_mul_ps(y, scale);
            _mm512_mask_storeu_ps(out + pw * channels + c, mask, y);
        }
    }
}

// The same in 8-wide vectors, for CPUs with AVX2 and without AVX-512. The
// maximum and the sum are taken in the portable loop's order, so the two agree.
static IK_AVX2_TARGET void pool_rows_avx2(int is_max, const float *rows, ptrdiff_t row_floats, int pool,
                                          int width, int channels, float *out) {
    const float scale = 1.0f / (float)(pool * pool);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int pw = 0; pw < width; pw++) {
        const float *first = rows + (ptrdiff_t)pw * pool * channels;
        for (int c = 0; c < channels; c += 8) {
            const int full = channels - c >= 8;
            const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(channels - c), lanes);
            __m256 y = _mm256_setzero_ps();
            for (int j = 0; j < pool; j++)
                for (int u = 0; u < pool; u++) {
                    const float *from = first + j * row_floats + u * channels + c;
                    const __m256 x = full ? _mm256_loadu_ps(from) : _mm256_maskload_ps(from, mask);
                    y = !is_max ? _mm256_add_ps(y, x) : j == 0 && u == 0 ? x : _mm256_max_ps(x, y);
                }
            if (!is_max) y = _mm256_mul_ps(y, _mm256_set1_ps(scale));
            if (full) _mm256_storeu_ps(out + pw * channels + c, y);
            else _mm256_maskstore_ps(out + pw * channels + c, mask, y);
        }
    }
}
#endif

size_t ik_conv2d_pool_scratch(int32_t conv_width, int32_t out_channels, int32_t pool) {
    return (size_t)pool * conv_width * out_channels;
}

void ik_conv2d_pool(const ik_conv *conv, int32_t is_max, int32_t pool, ik_view in, ik_view out, int32_t count) {
    const int bw = conv->block_width, out_channels = out.channels;
    const int conv_width = (in.width + 2 * conv->padding - conv->kernel_w) / conv->stride + 1;
    const ptrdiff_t out_pitch = ik_pitch(out);
    const int taps_count = conv->kernel_h * conv->kernel_w;
    ptrdiff_t taps[taps_count];
    conv_taps(conv, in, taps);
    const int blocks = (out_channels + bw - 1) / bw;
    const ptrdiff_t row_floats = (ptrdiff_t)conv_width * out_channels;
    float rows[ik_conv2d_pool_scratch(conv_width, out_channels, pool)] __attribute__((aligned(64)));

    for (int n = 0; n < count; n++) {
        ik_zero_border(out, n);
        const float *in0 = ik_interior(in, n);
        float *out0 = ik_interior(out, n);
        for (int ph = 0; ph < out.height; ph++) {
            for (int b = 0; b < blocks; b++) {
                tile_args a = block_args(conv, taps, taps_count, (ptrdiff_t)conv->stride * in.channels, out_channels, b);
                for (int j = 0; j < pool; j++) {
                    a.in = window_row(conv, in, in0, ph * pool + j);
                    a.out = rows + j * row_floats + b * bw;
                    run_rows(out.width * pool, bw, &a);
                }
            }
#if IK_X86
            if (!conv->portable && ik_has_avx512()) {
                pool_rows_avx512(is_max, rows, row_floats, pool, out.width, out_channels, out0 + ph * out_pitch);
                continue;
            }
            if (!conv->portable && ik_has_avx2()) {
                pool_rows_avx2(is_max, rows, row_floats, pool, out.width, out_channels, out0 + ph * out_pitch);
                continue;
            }
#endif
            pool_rows_portable(is_max, rows, row_floats, pool, out.width, out_channels, out0 + ph * out_pitch);
        }
    }
}

#if IK_X86
// A dense layer for a few images, one image at a time and 64 output channels
// (eight vectors, across packed blocks) per pass. The tiles keep two sums of
// one image in flight, so one image waited on each multiply-add's latency;
// eight keep both FMA pipes busy. Each sum starts from the bias and adds the
// inputs in order, as the tiles do, so the outputs are theirs bit for bit.
#define IK_AVX2_DENSE_FEW 4  // images below which the tiles' sums are too few

static inline __attribute__((always_inline)) IK_AVX2_TARGET
void dense_pass_avx2(const int NV, const ik_conv *conv, int first, const float *x, float *y) {
    const int bw = conv->block_width, cin = conv->in_channels;
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const float *w[8];
    __m256 acc[8];
#pragma clang loop unroll(full)
    for (int v = 0; v < NV; v++) {
        const int o = first + 8 * v;
        w[v] = conv->weights + (size_t)(o / bw) * cin * bw + o % bw;
        acc[v] = _mm256_loadu_ps(conv->bias + o);
    }
    for (int c = 0; c < cin; c++) {
        const __m256 xb = _mm256_broadcast_ss(x + c);
#pragma clang loop unroll(full)
        for (int v = 0; v < NV; v++) acc[v] = _mm256_fmadd_ps(xb, _mm256_loadu_ps(w[v] + (ptrdiff_t)c * bw), acc[v]);
    }
    const __m256 zero = _mm256_setzero_ps();
#pragma clang loop unroll(full)
    for (int v = 0; v < NV; v++) {
        const int o = first + 8 * v;
        const __m256 value = conv->relu ? _mm256_max_ps(acc[v], zero) : acc[v];
        if (conv->out_channels - o >= 8) _mm256_storeu_ps(y + o, value);
        else _mm256_maskstore_ps(y + o, _mm256_cmpgt_epi32(_mm256_set1_epi32(conv->out_channels - o), lanes), value);
    }
}

#define IK_DENSE_PASS(NV) \
    static IK_AVX2_TARGET void dense_pass_avx2_##NV(const ik_conv *c, int f, const float *x, float *y) { \
        dense_pass_avx2(NV, c, f, x, y); }
IK_DENSE_PASS(1) IK_DENSE_PASS(2) IK_DENSE_PASS(3) IK_DENSE_PASS(4)
IK_DENSE_PASS(5) IK_DENSE_PASS(6) IK_DENSE_PASS(7) IK_DENSE_PASS(8)
typedef void (*dense_pass_fn)(const ik_conv *, int, const float *, float *);
static const dense_pass_fn dense_passes_avx2[9] = {
    NULL, dense_pass_avx2_1, dense_pass_avx2_2, dense_pass_avx2_3, dense_pass_avx2_4,
    dense_pass_avx2_5, dense_pass_avx2_6, dense_pass_avx2_7, dense_pass_avx2_8,
};

static void dense_few_avx2(const ik_conv *conv, ik_view in, ik_view out, int32_t count) {
    for (int n = 0; n < count; n++) {
        const float *x = ik_interior(in, 0) + n * in.image_stride;
        float *y = ik_interior(out, 0) + n * out.image_stride;
        for (int first = 0; first < conv->out_channels; first += 64) {
            const int left = (conv->out_channels - first + 7) / 8;
            dense_passes_avx2[left < 8 ? left : 8](conv, first, x, y);
        }
    }
}
#endif

void ik_dense(const ik_conv *conv, ik_view in, ik_view out, int32_t count) {
#if IK_X86
    if (!conv->portable && count < IK_AVX2_DENSE_FEW && !ik_has_avx512() && ik_has_avx2()) {
        dense_few_avx2(conv, in, out, count);
        return;
    }
#endif
    const int bw = conv->block_width;
    const int blocks = (conv->out_channels + bw - 1) / bw;
    const ptrdiff_t tap = 0;
    for (int b = 0; b < blocks; b++) {
        tile_args a = block_args(conv, &tap, 1, in.image_stride, out.image_stride, b);
        a.in = ik_interior(in, 0);
        a.out = ik_interior(out, 0) + b * bw;
        run_rows(count, bw, &a);
    }
}
