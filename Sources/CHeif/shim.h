// libheif 1.15 from libheif-dev: HEIF/HEIC (HEVC through libde265) and AVIF (AV1 through
// dav1d or aom). Which decoders exist is asked at run time (heif_have_decoder_for_format).
#ifndef CHEIF_SHIM_H
#define CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
