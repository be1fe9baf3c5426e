// libpng reading and writing behind setjmp, so that no longjmp ever crosses Swift frames.
// Every function reports failure through its return code and a message buffer.
#ifndef CPNGSUPPORT_H
#define CPNGSUPPORT_H

#include <stddef.h>
#include <stdint.h>

enum {
    WR_PNG_OK = 0,
    WR_PNG_ERROR = 1,       // libpng reported an error or a corrupt-data warning; see message
    WR_PNG_TOO_LARGE = 2,   // the header exceeds the caller's limits; width and height are set
    WR_PNG_NO_MEMORY = 3
};

/// What a PNG header says, and the layout of the decoded 8-bit samples.
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;      // as stored: 1, 2, 4, 8 or 16
    int color_type;     // PNG_COLOR_TYPE_* as stored
    int interlaced;     // 1 for Adam7
    int channels;       // of the decoded samples: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
    size_t peak_bytes;  // the most the decode held at once: libpng's allocations and the pixels
} wr_png_info;

/// The most libpng may allocate while decoding a file of `file_size` bytes whose sides
/// are at most `max_dimension`; the pixels themselves come on top.
size_t wr_png_library_budget(size_t file_size, uint32_t max_dimension);

/// Decodes a PNG held in memory to 8-bit samples (palette expanded, transparency turned
/// into an alpha channel, 16-bit scaled with rounding, Adam7 de-interlaced, no gamma change).
/// Limits are checked from the header before any pixel is decoded; every chunk's length is
/// checked against the file's size before libpng reads it; libpng allocates through an
/// account capped at wr_png_library_budget. On success `*pixels`
/// holds width*height*channels bytes allocated with malloc; release it with wr_png_free.
int wr_png_decode(const uint8_t *data, size_t size,
                  uint32_t max_dimension, uint64_t max_pixels,
                  wr_png_info *info, uint8_t **pixels,
                  char *message, size_t message_size);

/// Encodes one image. `samples` holds one row after another, `row_bytes` apart:
/// one byte per sample for bit depths 1 to 8 (libpng packs sub-byte depths),
/// two big-endian bytes per sample for depth 16. `palette` (count*3 bytes) is used for
/// PNG_COLOR_TYPE_PALETTE; `palette_alpha` (alpha_count bytes) becomes its tRNS chunk.
/// On success `*png` holds `*png_size` bytes allocated with malloc; release with wr_png_free.
int wr_png_encode(uint32_t width, uint32_t height, int color_type, int bit_depth, int interlaced,
                  const uint8_t *samples, size_t row_bytes,
                  const uint8_t *palette, int palette_count,
                  const uint8_t *palette_alpha, int alpha_count,
                  int compression_level,
                  uint8_t **png, size_t *png_size,
                  char *message, size_t message_size);

void wr_png_free(void *pointer);

#endif
