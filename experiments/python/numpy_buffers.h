// Checked views of numpy arrays for the _augur binding (augur_module.cc).
//
// Keys must be 1-D numpy uint64 arrays, values float32 arrays of shape
// (len(keys), length) or flat with every float; a wrong dtype raises
// TypeError, a wrong shape ValueError, each naming what was expected.
// Called with the GIL held.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <span>
#include <string>

#include "core/base/types.h"
#include "core/base/value_layout.h"

namespace augur {

// The keys as a contiguous uint64 view; `hold` keeps the (maybe copied) array alive.
std::span<const Key> Keys(const pybind11::handle& obj, pybind11::array* hold);
// The common length of the keys' values; nullopt if they differ.
std::optional<uint32_t> UniformLength(const ValueLayout& layout, std::span<const Key> keys);
// Checks a float32 buffer of `total` floats for `keys` (`what` names it in errors).
void CheckValues(const ValueLayout& layout, std::span<const Key> keys, size_t total,
                 const pybind11::array& a, const char* what);
// ValueError at the first NaN or inf in `values` (the floats of `keys`, in
// order), naming the key's position, the key and the float within its value:
// a push of NaN spreads it into the main copy and every replica.
void CheckFinite(const ValueLayout& layout, std::span<const Key> keys,
                 std::span<const float> values, const char* what);
// `obj` as a numpy array, or TypeError.
pybind11::array Floats(const pybind11::handle& obj, const char* what);

}  // namespace augur
