#ifndef OPENCOREDATA_CLIBCRYPTO_SHIM_H
#define OPENCOREDATA_CLIBCRYPTO_SHIM_H
#include <openssl/sha.h>
#endif
