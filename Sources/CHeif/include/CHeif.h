// libheif 1.15 from libheif-dev: HEIF/HEIC (HEVC through libde265) and AVIF (AV1 through
// dav1d or aom). Which decoders exist is asked at run time (heif_have_decoder_for_format).
// libheif is loaded when an image first needs it, not when wardrobe starts (CLazyLibrary).
#ifndef CHEIF_H
#define CHEIF_H
#include <libheif/heif.h>

/// Loads libheif (libheif.so.1), once per process. Returns 1 when it is ready; else 0, with
/// `*problem` (when given) saying why in one line. A heif_ function called when it cannot be
/// loaded stops the process, so code a user can reach asks this first.
int wardrobe_load_libheif(const char **problem);
#endif
