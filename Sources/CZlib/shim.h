#ifndef MLSFEED_CZLIB_SHIM_H
#define MLSFEED_CZLIB_SHIM_H
#include <zlib.h>
#endif
