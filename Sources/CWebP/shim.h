// libwebp 1.2 from libwebp-dev: still images through decode.h, the first frame of an
// animation through demux.h's WebPAnimDecoder (libwebpdemux).
#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/demux.h>
#endif
