// Pooling, per-channel affine, add, copies and layout changes: memory-bound
// loops over channels-last views, left to the compiler's vectoriser.
#include "Internal.h"
#include <math.h>
#include <string.h>

#if IK_X86
#include <cpuid.h>

// Whether the CPU has every bit of `leaf1_ecx` in CPUID leaf 1's ECX and of
// `leaf7_ebx` in leaf 7's EBX, and the OS saves every state bit of `xcr0`.
static int cpu_has(unsigned leaf1_ecx, unsigned xcr0, unsigned leaf7_ebx) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    leaf1_ecx |= bit_OSXSAVE;  // XGETBV needs it
    if ((ecx & leaf1_ecx) != leaf1_ecx) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & xcr0) != xcr0) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & leaf7_ebx) == leaf7_ebx;
}

// The OS must save the opmask and the upper ZMM state (XCR0 bits 1, 2, 5, 6, 7).
static int detect_avx512(void) {
    return cpu_has(0, 0xE6, bit_AVX512F | bit_AVX512DQ | bit_AVX512VL | bit_AVX2);
}

// The OS must save the upper YMM state (XCR0 bits 1 and 2).
static int detect_avx2(void) {
    return cpu_has(bit_AVX | bit_FMA, 0x6, bit_AVX2);
}

// Racing threads compute the same answer, so a relaxed cache is enough.
static int cached(int *state, int (*detect)(void)) {
    int known = __atomic_load_n(state, __ATOMIC_RELAXED);
    if (known < 0) {
        known = detect();
        __atomic_store_n(state, known, __ATOMIC_RELAXED);
    }
    return known;
}

int ik_has_avx512(void) {
    static int state = -1;
    return cached(&state, detect_avx512);
}

int ik_has_avx2(void) {
    static int state = -1;
    return cached(&state, detect_avx2);
}
#endif

void ik_zero_border(ik_view v, int n) {
    if (v.border == 0) return;
    float *base = v.data + n * v.image_stride;
    const ptrdiff_t pitch = ik_pitch(v);
    const ptrdiff_t side = (ptrdiff_t)v.border * v.channels;
    memset(base, 0, sizeof(float) * pitch * v.border);
    memset(base + pitch * (v.border + v.height), 0, sizeof(float) * pitch * v.border);
    for (int h = 0; h < v.height; h++) {
        float *row = base + pitch * (v.border + h);
        memset(row, 0, sizeof(float) * side);
        memset(row + pitch - side, 0, sizeof(float) * side);
    }
}

IK_CLONES
void ik_pool(int32_t is_max, ik_view in, ik_view out, int32_t count,
             int32_t kernel, int32_t stride, int32_t padding) {
    const int C = in.channels;
    const ptrdiff_t in_pitch = ik_pitch(in), out_pitch = ik_pitch(out);
    // Average pooling counts the zero padding (PyTorch's count_include_pad).
    const float scale = 1.0f / (float)(kernel * kernel);
    for (int n = 0; n < count; n++) {
        ik_zero_border(out, n);
        const float *x0 = ik_interior(in, n);
        float *y0 = ik_interior(out, n);
        for (int oh = 0; oh < out.height; oh++) {
            for (int ow = 0; ow < out.width; ow++) {
                float *restrict y = y0 + oh * out_pitch + ow * C;
                const float start = is_max ? -INFINITY : 0.0f;
                for (int c = 0; c < C; c++) y[c] = start;
                for (int kh = 0; kh < kernel; kh++) {
                    const int ih = oh * stride - padding + kh;
                    if (ih < 0 || ih >= in.height) continue;
                    for (int kw = 0; kw < kernel; kw++) {
                        const int iw = ow * stride - padding + kw;
                        if (iw < 0 || iw >= in.width) continue;
                        const float *restrict x = x0 + ih * in_pitch + iw * C;
                        if (is_max) {
                            for (int c = 0; c < C; c++) y[c] = x[c] > y[c] ? x[c] : y[c];
                        } else {
                            for (int c = 0; c < C; c++) y[c] += x[c];
                        }
                    }
                }
                if (!is_max) for (int c = 0; c < C; c++) y[c] *= scale;
            }
        }
    }
}

IK_CLONES
void ik_global_avg_pool(ik_view in, ik_view out, int32_t count) {
    const int C = in.channels;
    const ptrdiff_t pitch = ik_pitch(in);
    const float scale = 1.0f / (float)(in.height * in.width);
    for (int n = 0; n < count; n++) {
        const float *x0 = ik_interior(in, n);
        float *restrict y = ik_interior(out, n);
        for (int c = 0; c < C; c++) y[c] = 0;
        for (int h = 0; h < in.height; h++)
            for (int w = 0; w < in.width; w++) {
                const float *restrict x = x0 + h * pitch + w * C;
                for (int c = 0; c < C; c++) y[c] += x[c];
            }
        for (int c = 0; c < C; c++) y[c] *= scale;
    }
}

IK_CLONES
void ik_affine(ik_view in, ik_view out, int32_t count, const float *scale, const float *shift, int32_t relu) {
    const int C = in.channels;
    const ptrdiff_t in_pitch = ik_pitch(in), out_pitch = ik_pitch(out);
    for (int n = 0; n < count; n++) {
        ik_zero_border(out, n);
        for (int h = 0; h < in.height; h++) {
            const float *restrict x = ik_interior(in, n) + h * in_pitch;
            float *restrict y = ik_interior(out, n) + h * out_pitch;
            for (int w = 0; w < in.width; w++, x += C, y += C)
                for (int c = 0; c < C; c++) {
                    const float v = x[c] * scale[c] + shift[c];
                    y[c] = relu && v < 0 ? 0 : v;
                }
        }
    }
}

IK_CLONES
void ik_add(ik_view a, ik_view b, ik_view out, int32_t count, int32_t relu) {
    const ptrdiff_t row = (ptrdiff_t)a.width * a.channels;
    for (int n = 0; n < count; n++) {
        ik_zero_border(out, n);
        for (int h = 0; h < a.height; h++) {
            const float *restrict x = ik_interior(a, n) + h * ik_pitch(a);
            const float *restrict z = ik_interior(b, n) + h * ik_pitch(b);
            float *restrict y = ik_interior(out, n) + h * ik_pitch(out);
            for (ptrdiff_t i = 0; i < row; i++) {
                const float v = x[i] + z[i];
                y[i] = relu && v < 0 ? 0 : v;
            }
        }
    }
}

IK_CLONES
void ik_copy(ik_view in, ik_view out, int32_t count, int32_t relu) {
    const ptrdiff_t row = (ptrdiff_t)in.width * in.channels;
    for (int n = 0; n < count; n++) {
        ik_zero_border(out, n);
        for (int h = 0; h < in.height; h++) {
            const float *restrict x = ik_interior(in, n) + h * ik_pitch(in);
            float *restrict y = ik_interior(out, n) + h * ik_pitch(out);
            if (relu) {
                for (ptrdiff_t i = 0; i < row; i++) y[i] = x[i] < 0 ? 0 : x[i];
            } else {
                memcpy(y, x, sizeof(float) * row);
            }
        }
    }
}

void ik_import_nchw(const float *src, ik_view out, int32_t count) {
    const int C = out.channels, H = out.height, W = out.width;
    const ptrdiff_t pitch = ik_pitch(out);
    for (int n = 0; n < count; n++) {
        ik_zero_border(out, n);
        float *y0 = ik_interior(out, n);
        const float *x0 = src + (ptrdiff_t)n * C * H * W;
        if (C == 1) {
            for (int h = 0; h < H; h++) memcpy(y0 + h * pitch, x0 + h * W, sizeof(float) * W);
            continue;
        }
        for (int c = 0; c < C; c++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    y0[h * pitch + w * C + c] = x0[((ptrdiff_t)c * H + h) * W + w];
    }
}

void ik_export_nchw(ik_view in, float *dst, ptrdiff_t dst_stride, int32_t count) {
    const int C = in.channels, H = in.height, W = in.width;
    const ptrdiff_t pitch = ik_pitch(in);
    for (int n = 0; n < count; n++) {
        const float *x0 = ik_interior(in, n);
        float *y0 = dst + n * dst_stride;
        for (int c = 0; c < C; c++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    y0[((ptrdiff_t)c * H + h) * W + w] = x0[h * pitch + w * C + c];
    }
}
