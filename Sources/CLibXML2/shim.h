#ifndef MLSFEED_CLIBXML2_SHIM_H
#define MLSFEED_CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>
// libxml2's headers would pull in the system ICU, whose types clash with the copy inside Foundation.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>

/// `xmlFree` is a mutable C global (a function pointer); Swift cannot call it safely, so wrap it.
static inline void mlsfeed_xmlFree(void *pointer) { xmlFree(pointer); }

#endif
