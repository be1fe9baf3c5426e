// The Inference module's numeric kernels, in C so that the hot loops get
// AVX-512 intrinsics (chosen at run time) and -O3, whatever the Swift build does.
//
// Activations are channels-last: image n, row h, column w, channel c lives at
//   data + n * image_stride + ((h + border) * (width + 2 * border) + (w + border)) * channels + c
// The border is zero padding kept around the image so that a convolution reads
// its padding instead of testing bounds. A kernel that writes a view zeroes
// the view's border too, so a scratch slot may be reused between values.
#ifndef INFERENCE_KERNELS_H
#define INFERENCE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    float *data;             // image 0, first value of its top border row
    ptrdiff_t image_stride;  // floats from one image to the next
    int32_t height, width, channels, border;
} ik_view;

// A convolution (or a dense layer: a 1x1 convolution over a 1x1 image) with
// weights packed for the kernel: output channels in blocks of block_width,
// each block laid out [tap][in_channel][block_width].
typedef struct {
    const float *weights;
    const float *bias;       // blocks * block_width values, zero past out_channels
    int32_t in_channels, out_channels, kernel_h, kernel_w, block_width;
    int32_t stride, padding, relu;
    int32_t portable;        // 1: use the portable kernel even where AVX-512 or AVX2 exists
} ik_conv;

// 16 when the AVX-512 kernels run on this CPU, 8 for the AVX2 ones, 1 for the portable ones.
int32_t ik_vector_width(void);

// Output channels per packed block the kernels prefer for a layer.
int32_t ik_preferred_block(int32_t out_channels, int32_t is_dense);

// Floats needed for packed weights and bias.
size_t ik_packed_weights_count(int32_t out_channels, int32_t in_channels, int32_t taps, int32_t block_width);
size_t ik_packed_bias_count(int32_t out_channels, int32_t block_width);

// weights: [out][in][kh][kw] (PyTorch order); bias may be NULL.
void ik_pack_conv(const float *weights, const float *bias, int32_t out_channels, int32_t in_channels,
                  int32_t kernel_h, int32_t kernel_w, int32_t block_width,
                  float *packed_weights, float *packed_bias);

void ik_conv2d(const ik_conv *conv, ik_view in, ik_view out, int32_t count);
// A convolution whose output goes straight into a max (is_max) or average
// pooling with window = stride = pool and no padding: each group of `pool`
// output rows is computed into a small buffer and pooled while it is in L1.
// `out` is the pooled view. Needs ik_conv2d_pool_scratch(...) floats of stack.
void ik_conv2d_pool(const ik_conv *conv, int32_t is_max, int32_t pool, ik_view in, ik_view out, int32_t count);
size_t ik_conv2d_pool_scratch(int32_t conv_width, int32_t out_channels, int32_t pool);
// in and out are 1x1 views; rows are images.
void ik_dense(const ik_conv *conv, ik_view in, ik_view out, int32_t count);
void ik_pool(int32_t is_max, ik_view in, ik_view out, int32_t count,
             int32_t kernel, int32_t stride, int32_t padding);
void ik_global_avg_pool(ik_view in, ik_view out, int32_t count);
// out = in * scale + shift per channel, then ReLU if asked.
void ik_affine(ik_view in, ik_view out, int32_t count, const float *scale, const float *shift, int32_t relu);
void ik_add(ik_view a, ik_view b, ik_view out, int32_t count, int32_t relu);
// Copies between views of the same shape (borders may differ), ReLU if asked.
void ik_copy(ik_view in, ik_view out, int32_t count, int32_t relu);
// From and to dense [N, C, H, W] arrays (dst_stride floats between images).
void ik_import_nchw(const float *src, ik_view out, int32_t count);
void ik_export_nchw(ik_view in, float *dst, ptrdiff_t dst_stride, int32_t count);

#endif
