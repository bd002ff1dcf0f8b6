#ifndef MLSFEED_CYAJL_SHIM_H
#define MLSFEED_CYAJL_SHIM_H

// yajl 2.x streaming parser (Debian libyajl-dev); only the JSONStream target imports this module.
#include <yajl/yajl_parse.h>

/// `yajl_config` is variadic, which Swift cannot call: one wrapper per option used.
static inline int mlsfeed_yajl_allow_multiple_values(yajl_handle handle, int on) {
    return yajl_config(handle, yajl_allow_multiple_values, on);
}

#endif
