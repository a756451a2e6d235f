// The pass/fail count every kernel host test keeps (kernels/tests/*_host_test.cu): check records one named check,
// printing the first failures; report prints "N passed, M failed" and is main's exit status.
#pragma once

#include <stdio.h>

#include <string>

namespace host_check {

inline int g_passed = 0, g_failed = 0;

inline void check(bool ok, const std::string& what) {
  if (ok) {
    ++g_passed;
    return;
  }
  if (++g_failed <= 30) fprintf(stderr, "FAIL: %s\n", what.c_str());
}

inline int report() {
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}

}  // namespace host_check
