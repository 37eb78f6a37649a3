// AUGUR_CHECK: always-on invariant checks that abort with context.
//
// Use for broken invariants and violated REQUIRES preconditions, never for
// input that a user or peer can get wrong (that is a Status).
#pragma once

#include <cstdio>
#include <cstdlib>

#define AUGUR_CHECK(cond, ...)                                                                     \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "augur: invariant violated at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                                           \
      std::fprintf(stderr, "\n");                                                                  \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)
