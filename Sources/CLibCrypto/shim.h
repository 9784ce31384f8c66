#ifndef OPENCOREDATA_CLIBCRYPTO_SHIM_H
#define OPENCOREDATA_CLIBCRYPTO_SHIM_H
/* OpenSSL 3 marks the SHA*_Init/Update/Final functions deprecated; they remain the direct path to the digest. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

/// SHA-256 of `count` bytes into `digest` (32 bytes). OpenSSL 3's one-shot SHA256() looks the algorithm up in its
/// provider tables on every call, which costs far more than hashing the few bytes of a version hash.
static inline void ocd_sha256(const unsigned char *bytes, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
}

/// SHA-512 of `count` bytes into `digest` (64 bytes), as ocd_sha256.
static inline void ocd_sha512(const unsigned char *bytes, size_t count, unsigned char *digest) {
    SHA512_CTX context;
    SHA512_Init(&context);
    SHA512_Update(&context, bytes, count);
    SHA512_Final(digest, &context);
}
#endif
