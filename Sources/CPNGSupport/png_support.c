// The only place that calls libpng: its errors arrive by longjmp, which must stay in C.
#include "CPNGSupport.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *message;
    size_t message_size;
    int warned;
} read_context;

typedef struct {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    char *message;
    size_t message_size;
    int failed;
} write_context;

/// What libpng allocated through us during one decode, and how much it may.
typedef struct {
    size_t in_use;      // capped at budget
    size_t peak;
    size_t budget;
} memory_account;

struct wr_png_reader {
    read_context context;
    memory_account account;
    png_structp png;
    png_infop info;
    uint32_t width;
    int interlaced;
    char message[256];
};

// Each block carries its size in front, so that freeing it can be accounted.
enum { BLOCK_HEADER = 16 };

static png_voidp account_malloc(png_structp png, png_alloc_size_t size) {
    memory_account *account = (memory_account *)png_get_mem_ptr(png);
    if (size > account->budget || account->in_use > account->budget - size) return NULL;
    size_t *block = malloc(size + BLOCK_HEADER);
    if (block == NULL) return NULL;
    block[0] = size;
    account->in_use += size;
    if (account->in_use > account->peak) account->peak = account->in_use;
    return (uint8_t *)block + BLOCK_HEADER;
}

static void account_free(png_structp png, png_voidp pointer) {
    if (pointer == NULL) return;
    memory_account *account = (memory_account *)png_get_mem_ptr(png);
    size_t *block = (size_t *)((uint8_t *)pointer - BLOCK_HEADER);
    account->in_use -= block[0];
    free(block);
}

static uint32_t read_u32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | (uint32_t)bytes[3];
}

/// Walks the chunk list before libpng sees it: every chunk's declared length must fit in
/// what is left of the file, so no length field can make anyone allocate more than the
/// file holds. Returns 0, or 1 with the message set.
static int check_chunk_lengths(const uint8_t *data, size_t size, char *message, size_t message_size) {
    size_t offset = 8;   // after the signature
    while (size - offset >= 8) {
        uint32_t length = read_u32(data + offset);
        char name[5] = { 0 };
        for (int i = 0; i < 4; i++) {
            uint8_t c = data[offset + 4 + i];
            name[i] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? (char)c : '?';
        }
        size_t left = size - offset - 8;
        if (length > 0x7fffffffU || (size_t)length + 4 > left) {
            snprintf(message, message_size,
                     "chunk %s claims %u bytes but the file has only %zu left (runs past the end of the file)",
                     name, length, left < 4 ? 0 : left - 4);
            return 1;
        }
        offset += 8 + (size_t)length + 4;
        if (memcmp(name, "IEND", 4) == 0) break;
    }
    return 0;
}

static void copy_message(char *to, size_t to_size, const char *text) {
    if (to == NULL || to_size == 0) return;
    snprintf(to, to_size, "%s", text ? text : "unknown libpng error");
}

static void on_read_error(png_structp png, png_const_charp text) {
    read_context *context = (read_context *)png_get_error_ptr(png);
    copy_message(context->message, context->message_size, text);
    png_longjmp(png, 1);
}

// Colour-management complaints are common in valid files from ordinary tools and say
// nothing about the pixels; every other warning means damaged data and fails the decode.
static int warning_is_harmless(const char *text) {
    return strstr(text, "iCCP") || strstr(text, "sRGB") || strstr(text, "profile")
        || strstr(text, "gAMA") || strstr(text, "cHRM");
}

static void on_read_warning(png_structp png, png_const_charp text) {
    read_context *context = (read_context *)png_get_error_ptr(png);
    if (text == NULL || warning_is_harmless(text) || context->warned) return;
    context->warned = 1;
    copy_message(context->message, context->message_size, text);
}

static void read_from_memory(png_structp png, png_bytep out, png_size_t length) {
    read_context *context = (read_context *)png_get_io_ptr(png);
    if (length > context->size - context->offset) {
        png_error(png, "unexpected end of file");
    }
    memcpy(out, context->data + context->offset, length);
    context->offset += length;
}

/// The most a chunk may hold or inflate to: what the file holds, and 64 KiB at least so
/// that a tiny valid file's palette or transparency chunk never trips it.
static size_t chunk_limit(size_t file_size) {
    return file_size > (64u << 10) ? file_size : (64u << 10);
}

size_t wr_png_library_budget(size_t file_size, uint32_t max_dimension) {
    // Chunk data (bounded by the file), a few rows of the widest image (16-bit RGBA,
    // current, previous and an interlace row), zlib's state and libpng's own structures.
    return chunk_limit(file_size) + 4 * ((size_t)max_dimension * 8 + 64) + (1u << 20);
}

int wr_png_open(const uint8_t *data, size_t size, uint32_t max_dimension, uint64_t max_pixels,
                wr_png_info *info, wr_png_reader **reader_out) {
    memset(info, 0, sizeof *info);
    wr_png_reader *reader = calloc(1, sizeof *reader);
    *reader_out = reader;
    if (reader == NULL) return WR_PNG_NO_MEMORY;
    reader->context = (read_context){ data, size, 0, reader->message, sizeof reader->message, 0 };
    reader->account.budget = wr_png_library_budget(size, max_dimension);
    if (size >= 8 && check_chunk_lengths(data, size, reader->message, sizeof reader->message)) return WR_PNG_ERROR;

    reader->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &reader->context, on_read_error, on_read_warning,
                                           &reader->account, account_malloc, account_free);
    if (reader->png == NULL) return WR_PNG_NO_MEMORY;
    png_structp png = reader->png;
    reader->info = png_create_info_struct(png);
    if (reader->info == NULL) return WR_PNG_NO_MEMORY;
    png_infop png_info = reader->info;
    if (setjmp(png_jmpbuf(png))) return WR_PNG_ERROR;

    png_set_read_fn(png, &reader->context, read_from_memory);
    // libpng's own limits, from ours: the side limit (ours is checked below with a clear
    // result), chunk data no larger than the file can hold (which also bounds what a
    // compressed chunk may inflate to), and few cached ancillary chunks.
    uint32_t side = max_dimension > 0x7fffffffU ? 0x7fffffffU : max_dimension;
    png_set_user_limits(png, side, side);
    png_set_chunk_malloc_max(png, chunk_limit(size));
    png_set_chunk_cache_max(png, 32);
    // Text, colour profiles and palette suggestions are never used: skip them unread.
    static const png_byte unused[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, unused, 5);
    png_read_info(png, png_info);

    info->width = png_get_image_width(png, png_info);
    info->height = png_get_image_height(png, png_info);
    info->bit_depth = png_get_bit_depth(png, png_info);
    info->color_type = png_get_color_type(png, png_info);
    info->interlaced = png_get_interlace_type(png, png_info) == PNG_INTERLACE_ADAM7;
    reader->width = info->width;
    reader->interlaced = info->interlaced;

    if (info->width > max_dimension || info->height > max_dimension
        || (uint64_t)info->width * (uint64_t)info->height > max_pixels) {
        return WR_PNG_TOO_LARGE;
    }

    // Every transformation works on one row. Adam7 is not undone here (libpng would need the
    // whole image to do it): each pass's rows come as they are, and say where they belong.
    if (info->color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (info->color_type == PNG_COLOR_TYPE_GRAY && info->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, png_info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (info->bit_depth == 16) png_set_scale_16(png);
    png_read_update_info(png, png_info);

    info->channels = png_get_channels(png, png_info);
    size_t row_bytes = png_get_rowbytes(png, png_info);
    if (png_get_bit_depth(png, png_info) != 8 || row_bytes != (size_t)info->width * (size_t)info->channels) {
        copy_message(reader->message, sizeof reader->message, "unexpected sample layout after expansion");
        return WR_PNG_ERROR;
    }
    if (info->interlaced) {
        for (int pass = 0; pass < 7; pass++) {
            // libpng skips a pass that holds no pixel of this image.
            if (PNG_PASS_COLS(info->width, pass) > 0) info->rows += PNG_PASS_ROWS(info->height, pass);
        }
    } else {
        info->rows = info->height;
    }
    return WR_PNG_OK;
}

int wr_png_read_row(wr_png_reader *reader, uint8_t *row, wr_png_row *where) {
    png_structp png = reader->png;
    // Where the row libpng reads next belongs: its pass, and its row within that pass.
    int pass = png_get_current_pass_number(png);
    uint32_t number = png_get_current_row_number(png);
    if (reader->interlaced) {
        where->y = PNG_ROW_FROM_PASS_ROW(number, pass);
        where->x = PNG_PASS_START_COL(pass);
        where->step = 1u << PNG_PASS_COL_SHIFT(pass);
        where->count = PNG_PASS_COLS(reader->width, pass);
    } else {
        *where = (wr_png_row){ number, 0, 1, reader->width };
    }
    if (setjmp(png_jmpbuf(png))) return WR_PNG_ERROR;
    png_read_row(png, row, NULL);
    return WR_PNG_OK;
}

int wr_png_finish(wr_png_reader *reader) {
    if (setjmp(png_jmpbuf(reader->png))) return WR_PNG_ERROR;
    png_read_end(reader->png, NULL);
    return reader->context.warned ? WR_PNG_ERROR : WR_PNG_OK;
}

const char *wr_png_message(const wr_png_reader *reader) {
    return reader == NULL ? "" : reader->message;
}

size_t wr_png_peak_bytes(const wr_png_reader *reader) {
    return reader == NULL ? 0 : reader->account.peak;
}

void wr_png_close(wr_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info != NULL ? &reader->info : NULL, NULL);
    free(reader);
}

static void on_write_error(png_structp png, png_const_charp text) {
    write_context *context = (write_context *)png_get_error_ptr(png);
    copy_message(context->message, context->message_size, text);
    png_longjmp(png, 1);
}

static void on_write_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void write_to_memory(png_structp png, png_bytep bytes, png_size_t length) {
    write_context *context = (write_context *)png_get_io_ptr(png);
    if (length > context->capacity - context->size) {
        size_t capacity = context->capacity ? context->capacity : 4096;
        while (capacity - context->size < length) capacity *= 2;
        uint8_t *grown = realloc(context->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        context->bytes = grown;
        context->capacity = capacity;
    }
    memcpy(context->bytes + context->size, bytes, length);
    context->size += length;
}

static void flush_memory(png_structp png) {
    (void)png;
}

int wr_png_encode(uint32_t width, uint32_t height, int color_type, int bit_depth, int interlaced,
                  const uint8_t *samples, size_t row_bytes,
                  const uint8_t *palette, int palette_count,
                  const uint8_t *palette_alpha, int alpha_count,
                  int compression_level,
                  uint8_t **png_out, size_t *png_size,
                  char *message, size_t message_size) {
    write_context context = { NULL, 0, 0, message, message_size, 0 };
    *png_out = NULL;
    *png_size = 0;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_write_error, on_write_warning);
    if (png == NULL) return WR_PNG_NO_MEMORY;
    png_infop png_info = png_create_info_struct(png);
    if (png_info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return WR_PNG_NO_MEMORY;
    }
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(context.bytes);
        png_destroy_write_struct(&png, &png_info);
        return WR_PNG_ERROR;
    }

    png_set_write_fn(png, &context, write_to_memory, flush_memory);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, png_info, width, height, bit_depth, color_type,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color entries[256];
        int count = palette_count > 256 ? 256 : palette_count;
        for (int i = 0; i < count; i++) {
            entries[i].red = palette[i * 3];
            entries[i].green = palette[i * 3 + 1];
            entries[i].blue = palette[i * 3 + 2];
        }
        png_set_PLTE(png, png_info, entries, count);
        if (palette_alpha != NULL && alpha_count > 0) {
            png_set_tRNS(png, png_info, palette_alpha, alpha_count, NULL);
        }
    }
    png_write_info(png, png_info);
    if (bit_depth < 8) png_set_packing(png);

    rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (rows == NULL) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(samples + row_bytes * y);
    png_write_image(png, rows);
    png_write_end(png, NULL);

    free(rows);
    rows = NULL;
    png_destroy_write_struct(&png, &png_info);
    *png_out = context.bytes;
    *png_size = context.size;
    return WR_PNG_OK;
}

void wr_png_free(void *pointer) {
    free(pointer);
}
