#ifndef OPENCOREDATA_CZLIB_SHIM_H
#define OPENCOREDATA_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 and deflateInit2 are macros over the _ variants; Swift cannot call macros.
static inline int czlib_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}
static inline int czlib_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}
#endif
