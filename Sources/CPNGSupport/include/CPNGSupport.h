// libpng reading and writing behind setjmp, so that no longjmp ever crosses Swift frames.
// Every function reports failure through its return code and a message (the caller's buffer
// when writing, the reader's when reading).
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
    uint32_t rows;      // how many rows wr_png_read_row delivers: height, or all of Adam7's passes
} wr_png_info;

/// Where a row from wr_png_read_row belongs: image row `y`, its `count` pixels at columns
/// x, x + step, x + 2 * step... (an Adam7 pass's row; else the whole row, from 0, step 1).
typedef struct {
    uint32_t y;
    uint32_t x;
    uint32_t step;
    uint32_t count;
} wr_png_row;

/// One PNG being read, a row at a time: libpng's state, the bytes it reads from (which must
/// stay alive until wr_png_close), its allocation account and the last failure's message.
typedef struct wr_png_reader wr_png_reader;

/// The most libpng may allocate while decoding a file of `file_size` bytes whose sides
/// are at most `max_dimension`; the pixels themselves come on top.
size_t wr_png_library_budget(size_t file_size, uint32_t max_dimension);

/// Opens a PNG held in memory and reads its header, set to deliver 8-bit samples (palette
/// expanded, transparency turned into an alpha channel, 16-bit scaled with rounding, no gamma
/// change) a row at a time, an Adam7 image pass by pass. Limits are checked from the header
/// before any pixel is decoded; every chunk's length is checked against the file's size
/// before libpng reads it; libpng allocates through an account capped at
/// wr_png_library_budget. Returns WR_PNG_OK with `info` filled, WR_PNG_TOO_LARGE with the
/// size in `info`, or a failure. `*reader` is set (NULL only when it could not be made);
/// release it with wr_png_close whatever the result.
int wr_png_open(const uint8_t *data, size_t size, uint32_t max_dimension, uint64_t max_pixels,
                wr_png_info *info, wr_png_reader **reader);

/// Decodes the next row into `row` (room for width * channels bytes) and says where it
/// belongs. After a failure, the reader only closes.
int wr_png_read_row(wr_png_reader *reader, uint8_t *row, wr_png_row *where);

/// Reads the chunks after the image data, to IEND. An image whose data drew a warning
/// (damaged data that libpng carries on over) fails here.
int wr_png_finish(wr_png_reader *reader);

/// Why the last call failed, in libpng's words; "" when none did.
const char *wr_png_message(const wr_png_reader *reader);

/// The most libpng held at once so far; 0 for NULL.
size_t wr_png_peak_bytes(const wr_png_reader *reader);

/// Releases libpng's state; NULL is ignored.
void wr_png_close(wr_png_reader *reader);

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
