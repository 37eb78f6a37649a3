#include "experiments/python/numpy_buffers.h"

#include <cmath>

namespace py = pybind11;

namespace augur {

namespace {

std::string DtypeName(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

std::string ShapeText(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

}  // namespace

// The keys as a contiguous uint64 vector view (`hold` keeps the array alive).
std::span<const Key> Keys(const py::handle& obj, py::array* hold) {
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(
        "keys must be a numpy array of dtype uint64 (np.asarray(keys, "
        "dtype=np.uint64)), not " +
        py::str(py::type::of(obj).attr("__name__")).cast<std::string>());
  py::array a = py::reinterpret_borrow<py::array>(obj);
  if (!a.dtype().is(py::dtype::of<uint64_t>()))
    throw py::type_error("keys must have dtype uint64, not " + DtypeName(a) +
                         " (use keys.astype(np.uint64))");
  if (a.ndim() != 1)
    throw py::value_error("keys must be 1-D, not of shape with " + std::to_string(a.ndim()) +
                          " dimensions");
  *hold = py::array_t<uint64_t, py::array::c_style>::ensure(a);
  return {static_cast<const Key*>(hold->data()), static_cast<size_t>(hold->size())};
}

// The common length of the keys' values; nullopt if they differ.
std::optional<uint32_t> UniformLength(const ValueLayout& layout, std::span<const Key> keys) {
  if (keys.empty()) return layout.default_length();
  const uint32_t len = layout.Length(keys[0]);
  for (Key k : keys)
    if (layout.Length(k) != len) return std::nullopt;
  return len;
}

// Checks a float32 buffer for `keys`: shape (n, length) or flat with every float.
void CheckValues(const ValueLayout& layout, std::span<const Key> keys, size_t total,
                 const py::array& a, const char* what) {
  if (!a.dtype().is(py::dtype::of<float>()))
    throw py::type_error(std::string(what) + " must have dtype float32, not " + DtypeName(a) +
                         " (use .astype(np.float32))");
  std::optional<uint32_t> len = UniformLength(layout, keys);
  const bool flat = a.ndim() == 1 && static_cast<size_t>(a.size()) == total;
  const bool rows = len.has_value() && a.ndim() == 2 &&
                    static_cast<size_t>(a.shape(0)) == keys.size() && a.shape(1) == *len;
  if (!flat && !rows) {
    throw py::value_error(
        std::string(what) + " has shape " + ShapeText(a) + ", expected " +
        (len ? "(" + std::to_string(keys.size()) + ", " + std::to_string(*len) + ")"
             : std::string("a flat array")) +
        " for " + std::to_string(keys.size()) + " keys (" + std::to_string(total) + " floats)");
  }
}

void CheckFinite(const ValueLayout& layout, std::span<const Key> keys,
                 std::span<const float> values, const char* what) {
  size_t at = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint32_t length = layout.Length(keys[i]);
    for (uint32_t j = 0; j < length; ++j) {
      const float v = values[at + j];
      if (std::isfinite(v)) continue;
      throw py::value_error(std::string(what) + " for key position " + std::to_string(i) +
                            " (key " + std::to_string(keys[i]) + ", float " + std::to_string(j) +
                            " of " + std::to_string(length) + ") is " +
                            (std::isnan(v) ? "nan"
                             : v > 0       ? "inf"
                                           : "-inf") +
                            ": only finite values are pushed or set");
    }
    at += length;
  }
}

py::array Floats(const py::handle& obj, const char* what) {
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(std::string(what) + " must be a numpy float32 array");
  return py::reinterpret_borrow<py::array>(obj);
}

}  // namespace augur
