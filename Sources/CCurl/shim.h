#ifndef MLSFEED_CCURL_SHIM_H
#define MLSFEED_CCURL_SHIM_H
// libcurl (Debian libcurl4-openssl-dev) for the HTTP client. curl_easy_setopt and curl_easy_getinfo are variadic,
// which Swift cannot call, so each argument type gets a typed inline forwarder here.
#include <curl/curl.h>

static inline CURLcode mlsfeed_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mlsfeed_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mlsfeed_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mlsfeed_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mlsfeed_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mlsfeed_curl_setopt_write_function(CURL *handle, CURLoption option,
                                                          curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mlsfeed_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode mlsfeed_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode mlsfeed_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline long mlsfeed_curl_global_default(void) {
    return CURL_GLOBAL_DEFAULT;
}

#endif
