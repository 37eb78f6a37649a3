#include "experiments/kge/kg_import.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "experiments/data/ascii_lower.h"
#include "experiments/data/line_reader.h"
#include "experiments/data/name_ids.h"
#include "experiments/data/utf8.h"

namespace augur {

namespace {

using TripleFn = std::function<Status(const LineReader&, std::string_view h, std::string_view r,
                                      std::string_view t)>;

// The field without the spaces around it.
std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// A column-name row some tools write above their triples.
bool IsKnownHeader(std::string_view h, std::string_view r, std::string_view t) {
  static const char* const kHeaders[][3] = {{"head", "relation", "tail"},
                                            {"head_label", "relation_label", "tail_label"},
                                            {"subject", "predicate", "object"}};
  for (const auto& k : kHeaders)
    if (AsciiLower(h) == k[0] && AsciiLower(r) == k[1] && AsciiLower(t) == k[2]) return true;
  return false;
}

// Calls fn for every triple line of `path`, its fields without surrounding
// spaces; stops at the first error. A known header on the first line with
// three fields is skipped and added to `headers` as "PATH:LINE".
Status ForEachTriple(const std::string& path, const TripleFn& fn,
                     std::vector<std::string>* headers) {
  Result<LineReader> r = LineReader::Open(path);
  if (!r.ok()) return r.status();
  std::string line;
  uint64_t triples = 0;
  bool first = true;
  while (r->Next(&line)) {
    if (line.empty() || line[0] == '#') continue;
    if (const size_t at = FindInvalidUtf8(line); at != std::string_view::npos)
      return r->Error("not valid UTF-8 (byte " + std::to_string(at + 1) + " of the line)");
    auto f = SplitOn(line, '\t');
    if (f.size() != 3)
      return r->Error("expected head<TAB>relation<TAB>tail, got " + std::to_string(f.size()) +
                      (f.size() == 1 ? " field" : " fields"));
    for (size_t i = 0; i < 3; ++i) {
      f[i] = TrimSpaces(f[i]);
      if (f[i].empty())
        return r->Error(std::string(i == 0 ? "head" : i == 1 ? "relation" : "tail") + " is empty");
    }
    if (std::exchange(first, false) && IsKnownHeader(f[0], f[1], f[2])) {
      headers->push_back(path + ":" + std::to_string(r->line_number()));
      continue;
    }
    if (Status s = fn(*r, f[0], f[1], f[2]); !s.ok()) return s;
    ++triples;
  }
  if (!r->status().ok()) return r->status();
  if (triples == 0) return Status::Error(path + ": no triples");
  return Status::Ok();
}

struct TripleHash {
  size_t operator()(const Triple& t) const {
    return std::hash<uint64_t>()((uint64_t{t.head} << 32 | t.tail) * 31 + t.relation);
  }
};
struct TripleEq {
  bool operator()(const Triple& a, const Triple& b) const {
    return a.head == b.head && a.relation == b.relation && a.tail == b.tail;
  }
};

// Reads a held-out file against the training ids; returns the dropped count.
Result<uint64_t> ReadHeldOut(const std::string& path, const NameIds& entities,
                             const NameIds& relations, std::vector<Triple>* out,
                             std::vector<std::string>* headers) {
  uint64_t dropped = 0;
  Status s = ForEachTriple(
      path,
      [&](const LineReader&, std::string_view h, std::string_view r, std::string_view t) {
        Triple x;
        if (entities.Find(h, &x.head) && relations.Find(r, &x.relation) &&
            entities.Find(t, &x.tail)) {
          out->push_back(x);
        } else {
          ++dropped;
        }
        return Status::Ok();
      },
      headers);
  if (!s.ok()) return s;
  return dropped;
}

}  // namespace

Result<KgDataset> ImportKg(const KgImportOptions& o) {
  if (o.valid_file.empty() != o.test_file.empty())
    return Status::Error("give both --valid FILE and --test FILE, or --split V,T");
  const bool split = o.valid_file.empty();
  KgDataset d;
  NameIds entities(&d.entity_names), relations(&d.relation_names);
  std::vector<Triple> train;
  std::unordered_set<Triple, TripleHash, TripleEq> seen;
  uint64_t duplicates = 0;
  std::vector<std::string> headers;
  Status s = ForEachTriple(
      o.train_file,
      [&](const LineReader& r, std::string_view h, std::string_view rel, std::string_view t) {
        Triple x;
        if (!entities.Add(h, &x.head) || !entities.Add(t, &x.tail))
          return r.Error("more than 2^30 entities");
        if (!relations.Add(rel, &x.relation)) return r.Error("more than 2^30 relations");
        if (seen.insert(x).second) {
          train.push_back(x);
        } else {
          ++duplicates;
        }
        return Status::Ok();
      },
      &headers);
  if (!s.ok()) return s;
  seen = {};
  uint64_t valid_dropped = 0, test_dropped = 0;
  if (split) {
    SplitKg(std::move(train), d.num_entities(), d.num_relations(), o.split_valid, o.split_test,
            o.seed, &d);
  } else {
    d.train = std::move(train);
    Result<uint64_t> v = ReadHeldOut(o.valid_file, entities, relations, &d.valid, &headers);
    if (!v.ok()) return v.status();
    Result<uint64_t> t = ReadHeldOut(o.test_file, entities, relations, &d.test, &headers);
    if (!t.ok()) return t.status();
    valid_dropped = *v;
    test_dropped = *t;
  }
  if (d.test.empty()) {
    if (split)
      return Status::Error(
          o.train_file + ": the test split is empty: " +
          (o.split_test == 0
               ? std::string("--split V,0 holds out no test triples")
               : "none of the " + std::to_string(d.train.size()) + " training triples" +
                     (d.valid.empty() ? std::string()
                                      : " left beside the " + std::to_string(d.valid.size()) +
                                            " validation triples") +
                     " can be held out for it (each held-out triple's entities and relation "
                     "must keep a training triple)") +
          "; the test triples are what measures quality: give --split V,T with T >= 1 on a "
          "larger graph, or --valid FILE --test FILE");
    return Status::Error("the test split is empty: every triple of " + o.test_file +
                         " names an entity or relation that is not in " + o.train_file + " (" +
                         std::to_string(test_dropped) +
                         " dropped); the test triples are what measures quality");
  }
  d.entity_labels.assign(d.entity_names.size(), "");
  d.relation_labels.assign(d.relation_names.size(), "");
  std::string source = "tab-separated triples: train " + o.train_file;
  if (!split) source += ", valid " + o.valid_file + ", test " + o.test_file;
  d.meta = {{"source", source},
            {"format", "augur-kg-1"},
            {"entities", d.num_entities()},
            {"relations", d.num_relations()},
            {"train", d.train.size()},
            {"valid", d.valid.size()},
            {"test", d.test.size()},
            {"train_duplicates", duplicates},
            {"valid_dropped", valid_dropped},
            {"test_dropped", test_dropped},
            {"headers_skipped", headers}};
  if (split) {
    d.meta["split_seed"] = o.seed;
    d.meta["split_requested"] = {o.split_valid, o.split_test};
  }
  return d;
}

}  // namespace augur
