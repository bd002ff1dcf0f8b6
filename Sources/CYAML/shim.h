#ifndef MLSFEED_CYAML_SHIM_H
#define MLSFEED_CYAML_SHIM_H
#include <yaml.h>
#endif
