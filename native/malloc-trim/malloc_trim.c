/*
 * trim(): glibc's malloc_trim(0), which gives the pages of every arena's free chunks back to the system
 * (madvise), not only the top of the main heap as free() does. Answers 1 when memory was released, 0 when
 * none could be, and -1 where the C library is not glibc (nothing to call).
 */
#include <node_api.h>
#include <stdlib.h> /* defines __GLIBC__ where the C library is glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
#if defined(__GLIBC__)
  int released = malloc_trim(0);
#else
  int released = -1;
#endif
  napi_value result;
  if (napi_create_int32(env, released, &result) != napi_ok) return NULL;
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "trim", NAPI_AUTO_LENGTH, trim, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "trim", fn) != napi_ok) return NULL;
  return exports;
}
