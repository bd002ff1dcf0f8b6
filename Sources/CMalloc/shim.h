#ifndef MLSFEED_CMALLOC_SHIM_H
#define MLSFEED_CMALLOC_SHIM_H
#include <malloc.h>
#endif
