#ifndef MLSFEED_CCRYPTO_SHIM_H
#define MLSFEED_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for SHA-256 of inputs (hardware-accelerated where the CPU has SHA extensions).
#include <openssl/evp.h>
#endif
