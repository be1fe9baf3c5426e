// Each libheif function wardrobe calls, forwarded to libheif's own once it is loaded
// (CLazyLibrary.h says why and how). Parameters are numbered, not named: the names are
// heif.h's.
#include "CHeif.h"
#include <CLazyLibrary.h>

// X(return type, name, (parameters), (arguments)); V(name, (parameters), (arguments)).
#define FUNCTIONS(X, V) \
    X(struct heif_error, heif_context_add_exif_metadata, (struct heif_context* a0, const struct heif_image_handle* a1, const void* a2, int a3), (a0, a1, a2, a3)) \
    X(struct heif_context*, heif_context_alloc, (void), ()) \
    X(struct heif_error, heif_context_encode_image, (struct heif_context* a0, const struct heif_image* a1, struct heif_encoder* a2, const struct heif_encoding_options* a3, struct heif_image_handle** a4), (a0, a1, a2, a3, a4)) \
    X(struct heif_error, heif_context_encode_thumbnail, (struct heif_context* a0, const struct heif_image* a1, const struct heif_image_handle* a2, struct heif_encoder* a3, const struct heif_encoding_options* a4, int a5, struct heif_image_handle** a6), (a0, a1, a2, a3, a4, a5, a6)) \
    V(heif_context_free, (struct heif_context* a0), (a0)) \
    X(struct heif_error, heif_context_get_encoder_for_format, (struct heif_context* a0, enum heif_compression_format a1, struct heif_encoder** a2), (a0, a1, a2)) \
    X(int, heif_context_get_number_of_top_level_images, (struct heif_context* a0), (a0)) \
    X(struct heif_error, heif_context_get_primary_image_ID, (struct heif_context* a0, heif_item_id* a1), (a0, a1)) \
    X(struct heif_error, heif_context_get_primary_image_handle, (struct heif_context* a0, struct heif_image_handle** a1), (a0, a1)) \
    X(struct heif_error, heif_context_read_from_memory_without_copy, (struct heif_context* a0, const void* a1, size_t a2, const struct heif_reading_options* a3), (a0, a1, a2, a3)) \
    V(heif_context_set_maximum_image_size_limit, (struct heif_context* a0, int a1), (a0, a1)) \
    X(struct heif_error, heif_context_write_to_file, (struct heif_context* a0, const char* a1), (a0, a1)) \
    X(struct heif_error, heif_decode_image, (const struct heif_image_handle* a0, struct heif_image** a1, enum heif_colorspace a2, enum heif_chroma a3, const struct heif_decoding_options* a4), (a0, a1, a2, a3, a4)) \
    X(struct heif_decoding_options*, heif_decoding_options_alloc, (void), ()) \
    V(heif_decoding_options_free, (struct heif_decoding_options* a0), (a0)) \
    V(heif_encoder_release, (struct heif_encoder* a0), (a0)) \
    X(struct heif_error, heif_encoder_set_lossy_quality, (struct heif_encoder* a0, int a1), (a0, a1)) \
    X(struct heif_encoding_options*, heif_encoding_options_alloc, (void), ()) \
    V(heif_encoding_options_free, (struct heif_encoding_options* a0), (a0)) \
    X(int, heif_get_version_number_major, (void), ()) \
    X(int, heif_get_version_number_minor, (void), ()) \
    X(int, heif_have_decoder_for_format, (enum heif_compression_format a0), (a0)) \
    X(struct heif_error, heif_image_add_plane, (struct heif_image* a0, enum heif_channel a1, int a2, int a3, int a4), (a0, a1, a2, a3, a4)) \
    X(struct heif_error, heif_image_create, (int a0, int a1, enum heif_colorspace a2, enum heif_chroma a3, struct heif_image** a4), (a0, a1, a2, a3, a4)) \
    X(int, heif_image_get_bits_per_pixel_range, (const struct heif_image* a0, enum heif_channel a1), (a0, a1)) \
    X(int, heif_image_get_height, (const struct heif_image* a0, enum heif_channel a1), (a0, a1)) \
    X(uint8_t*, heif_image_get_plane, (struct heif_image* a0, enum heif_channel a1, int* a2), (a0, a1, a2)) \
    X(const uint8_t*, heif_image_get_plane_readonly, (const struct heif_image* a0, enum heif_channel a1, int* a2), (a0, a1, a2)) \
    X(int, heif_image_get_width, (const struct heif_image* a0, enum heif_channel a1), (a0, a1)) \
    X(int, heif_image_handle_get_height, (const struct heif_image_handle* a0), (a0)) \
    X(int, heif_image_handle_get_list_of_metadata_block_IDs, (const struct heif_image_handle* a0, const char* a1, heif_item_id* a2, int a3), (a0, a1, a2, a3)) \
    X(int, heif_image_handle_get_list_of_thumbnail_IDs, (const struct heif_image_handle* a0, heif_item_id* a1, int a2), (a0, a1, a2)) \
    X(int, heif_image_handle_get_luma_bits_per_pixel, (const struct heif_image_handle* a0), (a0)) \
    X(struct heif_error, heif_image_handle_get_metadata, (const struct heif_image_handle* a0, heif_item_id a1, void* a2), (a0, a1, a2)) \
    X(size_t, heif_image_handle_get_metadata_size, (const struct heif_image_handle* a0, heif_item_id a1), (a0, a1)) \
    X(int, heif_image_handle_get_number_of_metadata_blocks, (const struct heif_image_handle* a0, const char* a1), (a0, a1)) \
    X(int, heif_image_handle_get_number_of_thumbnails, (const struct heif_image_handle* a0), (a0)) \
    X(struct heif_error, heif_image_handle_get_thumbnail, (const struct heif_image_handle* a0, heif_item_id a1, struct heif_image_handle** a2), (a0, a1, a2)) \
    X(int, heif_image_handle_get_width, (const struct heif_image_handle* a0), (a0)) \
    X(int, heif_image_handle_has_alpha_channel, (const struct heif_image_handle* a0), (a0)) \
    V(heif_image_handle_release, (const struct heif_image_handle* a0), (a0)) \
    V(heif_image_release, (const struct heif_image* a0), (a0)) \
    X(struct heif_error, heif_init, (struct heif_init_params* a0), (a0))

enum { FUNCTIONS(WARDROBE_LAZY_INDEX, WARDROBE_LAZY_VOID_INDEX) function_count };
static const char *const names[] = { FUNCTIONS(WARDROBE_LAZY_NAME, WARDROBE_LAZY_VOID_NAME) };
static void *functions[function_count];
static struct wardrobe_library libheif = WARDROBE_LIBRARY("libheif.so.1", "libheif1", names, functions);

int wardrobe_load_libheif(const char **problem) { return wardrobe_library_load(&libheif, problem); }

#define FORWARD(type, name, parameters, arguments) WARDROBE_LAZY_FORWARD(libheif, type, name, parameters, arguments)
#define VOID_FORWARD(name, parameters, arguments) WARDROBE_LAZY_VOID_FORWARD(libheif, name, parameters, arguments)
FUNCTIONS(FORWARD, VOID_FORWARD)
