#include "experiments/kge/kg_dataset.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/base/rng.h"
#include "experiments/data/line_reader.h"

namespace augur {

namespace {

constexpr uint32_t kMaxIds = 1u << 30;

std::string NamesTsv(const std::vector<std::string>& names, const std::vector<std::string>& labels,
                     const char* header) {
  std::ostringstream o;
  o << "# " << header << "\n";
  for (size_t i = 0; i < names.size(); ++i)
    o << i << '\t' << names[i] << '\t' << (i < labels.size() ? labels[i] : "") << '\n';
  return o.str();
}

std::string TriplesTsv(const std::vector<Triple>& triples) {
  std::ostringstream o;
  o << "# head\trelation\ttail\n";
  for (const Triple& t : triples) o << t.head << '\t' << t.relation << '\t' << t.tail << '\n';
  return o.str();
}

bool Skip(const std::string& line) { return line.empty() || line[0] == '#'; }

Status ReadNames(const std::string& path, std::vector<std::string>* names,
                 std::vector<std::string>* labels) {
  Result<LineReader> r = LineReader::Open(path);
  if (!r.ok()) return r.status();
  std::string line;
  while (r->Next(&line)) {
    if (Skip(line)) continue;
    const auto f = SplitOn(line, '\t');
    uint32_t id = 0;
    if (f.size() < 2 || f.size() > 3) return r->Error("expected id<TAB>name[<TAB>label]");
    if (!ParseU32(f[0], &id) || id != names->size())
      return r->Error("expected id " + std::to_string(names->size()) +
                      " (ids are 0..n-1 in order)");
    if (names->size() >= kMaxIds) return r->Error("too many ids");
    names->emplace_back(f[1]);
    labels->emplace_back(f.size() == 3 ? f[2] : std::string_view());
  }
  if (!r->status().ok()) return r->status();
  if (names->empty()) return Status::Error(path + ": no ids");
  return Status::Ok();
}

Status ReadTriples(const std::string& path, uint32_t entities, uint32_t relations,
                   std::vector<Triple>* out) {
  Result<LineReader> r = LineReader::Open(path);
  if (!r.ok()) return r.status();
  std::string line;
  while (r->Next(&line)) {
    if (Skip(line)) continue;
    const auto f = SplitOn(line, '\t');
    Triple t;
    if (f.size() != 3) return r->Error("expected head<TAB>relation<TAB>tail");
    if (!ParseU32(f[0], &t.head) || t.head >= entities)
      return r->Error("head must be an entity id below " + std::to_string(entities));
    if (!ParseU32(f[1], &t.relation) || t.relation >= relations)
      return r->Error("relation must be a relation id below " + std::to_string(relations));
    if (!ParseU32(f[2], &t.tail) || t.tail >= entities)
      return r->Error("tail must be an entity id below " + std::to_string(entities));
    out->push_back(t);
  }
  return r->status();
}

}  // namespace

void SplitKg(std::vector<Triple> triples, uint32_t num_entities, uint32_t num_relations,
             uint64_t valid_count, uint64_t test_count, uint64_t seed, KgDataset* out) {
  Rng rng(DeriveSeed(seed, 0x5B117));
  Shuffle(&triples, rng);
  std::vector<uint32_t> entity_left(num_entities, 0), relation_left(num_relations, 0);
  for (const Triple& t : triples) {
    ++entity_left[t.head];
    ++entity_left[t.tail];
    ++relation_left[t.relation];
  }
  out->train.clear();
  out->valid.clear();
  out->test.clear();
  for (const Triple& t : triples) {
    const bool room = out->valid.size() < valid_count || out->test.size() < test_count;
    const bool keeps = entity_left[t.head] > 1 && entity_left[t.tail] > 1 &&
                       relation_left[t.relation] > 1 &&
                       (t.head != t.tail || entity_left[t.head] > 2);
    if (!room || !keeps) {
      out->train.push_back(t);
      continue;
    }
    --entity_left[t.head];
    --entity_left[t.tail];
    --relation_left[t.relation];
    (out->valid.size() < valid_count ? out->valid : out->test).push_back(t);
  }
}

Result<KgDataset> BuildWordNetKg(const std::string& wordnet_dir, uint64_t valid_count,
                                 uint64_t test_count, uint64_t seed) {
  Result<WordNetGraph> g = ReadWordNet(wordnet_dir);
  if (!g.ok()) return g.status();
  KgDataset d;
  d.entity_names = std::move(g->entity_names);
  d.entity_labels = std::move(g->entity_lemmas);
  d.relation_names = g->relation_names;
  for (const std::string& r : d.relation_names) d.relation_labels.push_back(WordNetPointerName(r));
  const uint64_t edges = g->triples.size();
  SplitKg(std::move(g->triples), d.num_entities(), d.num_relations(), valid_count, test_count, seed,
          &d);
  d.meta = {{"source", "WordNet 3.0 (" + wordnet_dir + "/data.{noun,verb,adj,adv})"},
            {"format", "augur-kg-1"},
            {"entities", d.num_entities()},
            {"relations", d.num_relations()},
            {"pointer_records", g->pointer_records},
            {"edges", edges},
            {"train", d.train.size()},
            {"valid", d.valid.size()},
            {"test", d.test.size()},
            {"split_seed", seed}};
  return d;
}

Status WriteKgDataset(const KgDataset& d, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create " + dir + ": " + ec.message());
  const std::pair<std::string, std::string> files[] = {
      {"entities.tsv", NamesTsv(d.entity_names, d.entity_labels, "id\tname\tlabel")},
      {"relations.tsv", NamesTsv(d.relation_names, d.relation_labels, "id\tname\tlabel")},
      {"train.tsv", TriplesTsv(d.train)},
      {"valid.tsv", TriplesTsv(d.valid)},
      {"test.tsv", TriplesTsv(d.test)},
      {"meta.json", d.meta->dump(2) + "\n"}};
  for (const auto& [name, text] : files) {
    if (Status s = WriteTextFile(dir + "/" + name, text); !s.ok()) return s;
  }
  return Status::Ok();
}

Result<KgDataset> ReadKgDataset(const std::string& dir) {
  KgDataset d;
  if (Status s = ReadNames(dir + "/entities.tsv", &d.entity_names, &d.entity_labels); !s.ok())
    return s;
  if (Status s = ReadNames(dir + "/relations.tsv", &d.relation_names, &d.relation_labels); !s.ok())
    return s;
  const std::pair<const char*, std::vector<Triple>*> splits[] = {
      {"train.tsv", &d.train}, {"valid.tsv", &d.valid}, {"test.tsv", &d.test}};
  for (const auto& [name, out] : splits) {
    Status s = ReadTriples(dir + "/" + name, d.num_entities(), d.num_relations(), out);
    if (!s.ok()) return s;
  }
  if (d.train.empty()) return Status::Error(dir + "/train.tsv: no triples");
  return d;
}

}  // namespace augur
