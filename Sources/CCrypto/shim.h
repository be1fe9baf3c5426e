// OpenSSL's libcrypto from libssl-dev: SHA-256 (with the CPU's SHA extensions).
#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
