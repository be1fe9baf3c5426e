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

int wr_png_decode(const uint8_t *data, size_t size,
                  uint32_t max_dimension, uint64_t max_pixels,
                  wr_png_info *info, uint8_t **pixels,
                  char *message, size_t message_size) {
    read_context context = { data, size, 0, message, message_size, 0 };
    *pixels = NULL;
    memset(info, 0, sizeof *info);

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_read_error, on_read_warning);
    if (png == NULL) return WR_PNG_NO_MEMORY;
    png_infop png_info = png_create_info_struct(png);
    if (png_info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return WR_PNG_NO_MEMORY;
    }
    // Everything that must be released after a longjmp lives in volatile locals.
    uint8_t *volatile image = NULL;
    png_bytep *volatile rows = NULL;

    if (setjmp(png_jmpbuf(png))) {
        free(image);
        free(rows);
        png_destroy_read_struct(&png, &png_info, NULL);
        return WR_PNG_ERROR;
    }

    png_set_read_fn(png, &context, read_from_memory);
    // libpng's own limit is a second guard; ours is checked below with a clear result.
    png_set_user_limits(png, 0x7fffffffU, 0x7fffffffU);
    png_read_info(png, png_info);

    info->width = png_get_image_width(png, png_info);
    info->height = png_get_image_height(png, png_info);
    info->bit_depth = png_get_bit_depth(png, png_info);
    info->color_type = png_get_color_type(png, png_info);
    info->interlaced = png_get_interlace_type(png, png_info) == PNG_INTERLACE_ADAM7;

    if (info->width > max_dimension || info->height > max_dimension
        || (uint64_t)info->width * (uint64_t)info->height > max_pixels) {
        png_destroy_read_struct(&png, &png_info, NULL);
        return WR_PNG_TOO_LARGE;
    }

    if (info->color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (info->color_type == PNG_COLOR_TYPE_GRAY && info->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, png_info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (info->bit_depth == 16) png_set_scale_16(png);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, png_info);

    info->channels = png_get_channels(png, png_info);
    size_t row_bytes = png_get_rowbytes(png, png_info);
    if (png_get_bit_depth(png, png_info) != 8 || row_bytes != (size_t)info->width * (size_t)info->channels) {
        copy_message(message, message_size, "unexpected sample layout after expansion");
        png_destroy_read_struct(&png, &png_info, NULL);
        return WR_PNG_ERROR;
    }

    image = malloc(row_bytes * info->height);
    rows = malloc(sizeof(png_bytep) * info->height);
    if (image == NULL || rows == NULL) {
        free(image);
        free(rows);
        png_destroy_read_struct(&png, &png_info, NULL);
        return WR_PNG_NO_MEMORY;
    }
    for (uint32_t y = 0; y < info->height; y++) rows[y] = image + row_bytes * y;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    rows = NULL;
    png_destroy_read_struct(&png, &png_info, NULL);
    if (context.warned) {
        free(image);
        return WR_PNG_ERROR;
    }
    *pixels = image;
    return WR_PNG_OK;
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
