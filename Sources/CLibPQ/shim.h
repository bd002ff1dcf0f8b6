#ifndef MLSFEED_CLIBPQ_SHIM_H
#define MLSFEED_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
