#!/usr/bin/env bash
# `augur data kg|text|mf` on files this test writes itself, each trained for one
# epoch with `augur single`; bad files are exit code 2 with
# FILE:LINE and leave no output directory; the new-user rough edges: `single`
# refuses cluster flags, unknown flags name the subcommand's help, a plain
# `augur sim` runs the adaptive policy. Usage: data_import_cli_test.sh AUGUR
augur=$1
source "$(dirname "$0")/cli_lib.sh"
single=(single --epochs 1 --threads 1 --dim 8)

# --- a knowledge graph of named entities and relations, three TSV files -------------
mkdir "$work/in"
for e in $(seq 0 59); do
  for r in 0 1; do
    printf 'Q%d\tP%d\tQ%d\n' "$e" "$r" $(( (e * 7 + r + 1) % 60 )) >> "$work/in/train.tsv"
  done
done
printf 'Q1\tP0\tQ5\nQ2\tP1\tQ9\nQ1\tP0\tnobody\n' > "$work/in/valid.tsv"
printf 'Q3\tP1\tQ4\nQ7\tP9\tQ8\n' > "$work/in/test.tsv"
"$augur" data kg --train "$work/in/train.tsv" --valid "$work/in/valid.tsv" \
  --test "$work/in/test.tsv" --out "$work/kg" > "$work/kg.log"
grep -q 'valid 1, test 1' "$work/kg.log" || { cat "$work/kg.log"; fail "kg: dropped counts not reported"; }
[ "$(json "$work/kg/meta.json" 'j["entities"], j["relations"], j["train"], j["valid"], j["valid_dropped"], j["test_dropped"]')" = "(60, 2, 120, 2, 1, 1)" ] ||
  fail "kg meta.json: $(cat "$work/kg/meta.json")"
[ "$(sed -n 2p "$work/kg/entities.tsv" | cut -f2)" = "Q0" ] || fail "kg: first entity is not Q0"
"$augur" "${single[@]}" --workload kge --data "$work/kg" --eval-triples 0 --out "$work/r-kge" > "$work/log" ||
  { cat "$work/log"; fail "single kge on the imported KG"; }
[ "$(json "$work/r-kge/result.json" 'j["samples"]')" = "120" ] || fail "kge did not train 120 triples"
ok "kg: 3 TSV files imported and trained"

"$augur" data kg --train "$work/in/train.tsv" --split 5,5 --seed 3 --out "$work/kg-split" > /dev/null
[ "$(json "$work/kg-split/meta.json" 'j["train"], j["valid"], j["test"]')" = "(110, 5, 5)" ] ||
  fail "kg --split: $(cat "$work/kg-split/meta.json")"
ok "kg --split"

# --- plain text ---------------------------------------------------------------------
words=(red green blue cyan black white pink gold grey teal)
for i in $(seq 0 399); do
  echo "The ${words[i % 10]} cat and the ${words[(i * 3) % 10]} dog saw a ${words[(i * 7) % 10]} bird." \
    >> "$work/in/story.txt"
done
"$augur" data text --in "$work/in/story.txt" --out "$work/text" > "$work/text.log"
[ "$(json "$work/text/meta.json" 'j["sentences"]')" = "400" ] || fail "text: $(cat "$work/text/meta.json")"
"$augur" "${single[@]}" --workload wv --data "$work/text" --min-count 1 --out "$work/r-wv" > "$work/log" ||
  { cat "$work/log"; fail "single wv on the imported text"; }
ok "text imported and trained"

# --- a MatrixMarket file ------------------------------------------------------------
{
  echo '%%MatrixMarket matrix coordinate real general'
  echo '% 30 users x 20 items'
  echo '30 20 300'
  for u in $(seq 1 30); do
    for k in $(seq 0 9); do echo "$u $(( (u + k * 2) % 20 + 1 )) $(( (u + k) % 5 + 1 )).5"; done
  done
} > "$work/in/m.mtx"
"$augur" data mf --in "$work/in/m.mtx" --out "$work/mm" > "$work/mm.log"
[ "$(json "$work/mm/meta.json" 'j["train"] + j["test"], j["test"]')" = "(300, 30)" ] ||
  fail "mm: $(cat "$work/mm/meta.json")"
"$augur" "${single[@]}" --workload mf --data "$work/mm" --out "$work/r-mm" > "$work/log" ||
  { cat "$work/log"; fail "single mf on the MatrixMarket import"; }
ok "MatrixMarket imported and trained"

# --- a MovieLens ratings.csv --------------------------------------------------------
{
  echo 'userId,movieId,rating,timestamp'
  for u in $(seq 1 40); do
    for k in 0 1 2 3 4 5; do echo "$u,$(( (u * 13 + k * 101) % 97 )),$(( (u + k) % 5 )).0,9649827$k$u"; done
  done
} > "$work/in/ratings.csv"
"$augur" data mf --in "$work/in/ratings.csv" --test-share 0.2 --seed 4 --out "$work/ml" > "$work/ml.log"
grep -qF "skipped the header row $work/in/ratings.csv:1: userId,movieId,rating,timestamp" "$work/ml.log" ||
  { cat "$work/ml.log"; fail "ratings.csv: the skipped header is not told"; }
[ "$(json "$work/ml/meta.json" 'j["header"], j["rows"], j["train"] + j["test"]')" = "(True, 40, 240)" ] ||
  fail "ratings.csv: $(cat "$work/ml/meta.json")"
"$augur" "${single[@]}" --workload mf --data "$work/ml" --out "$work/r-ml" > "$work/log" ||
  { cat "$work/log"; fail "single mf on ratings.csv"; }
json "$work/r-ml/result.json" 'j["config"]' | grep -q negatives && fail "mf result.json shows negatives"
json "$work/r-ml/result.json" '"policy" in j or "policy" in j["config"]' | grep -q True &&
  fail "single result.json records a policy"
ok "ratings.csv imported and trained"

# --- bad files: exit 2, FILE:LINE, nothing left behind ------------------------------
printf 'a\tr\tb\na\tr\n' > "$work/in/bad.tsv"
expect_refused 2 "^augur: $work/in/bad.tsv:2: expected head<TAB>relation<TAB>tail, got 2 fields$" \
  "$augur" data kg --train "$work/in/bad.tsv" --split 1,1 --out "$work/bad-kg"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 4 1\n' > "$work/in/bad.mtx"
expect_refused 2 "^augur: $work/in/bad.mtx:4: column index '4' is outside 1..3" \
  "$augur" data mf --in "$work/in/bad.mtx" --out "$work/bad-mm"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n' > "$work/in/short.mtx"
expect_refused 2 "^augur: $work/in/short.mtx:2: the size line declares 3 entries, the file has 1" \
  "$augur" data mf --in "$work/in/short.mtx" --out "$work/bad-mm"
printf 'userId,movieId,rating\n1,2,good\n' > "$work/in/bad.csv"
expect_refused 2 "^augur: $work/in/bad.csv:2: rating 'good' is not a number" \
  "$augur" data mf --in "$work/in/bad.csv" --out "$work/bad-mm"
printf 'ok line here\n\xff\xfe\n' > "$work/in/bad.txt"
expect_refused 2 "^augur: $work/in/bad.txt:2: not valid UTF-8" \
  "$augur" data text --in "$work/in/bad.txt" --out "$work/bad-text"
# A malformed first line is not a header: the same FILE:LINE error as on any other line.
# Each says what is wrong with the number.
for first in "1,1,4x:is not a number" "1,1,1e40:is out of range for a 32-bit float \\(beyond \\+-3.4e38\\)" \
  "1,1,0x10:is not a number" "1,1,1e-50:underflows to 0 as a 32-bit float \\(below 1.2e-38 in magnitude\\)"; do
  line=${first%%:*}
  printf '%s\n1,2,3\n2,1,4\n' "$line" > "$work/in/first.csv"
  expect_refused 2 "^augur: $work/in/first.csv:1: rating '${line##*,}' ${first#*:}$" \
    "$augur" data mf --in "$work/in/first.csv" --out "$work/bad-mm"
done
printf '1::1::4x\n1::2::3\n' > "$work/in/first.dat"
expect_refused 2 "^augur: $work/in/first.dat:1: rating '4x'" \
  "$augur" data mf --in "$work/in/first.dat" --out "$work/bad-mm"
printf '1,1,4,\n1,2,3,5\n' > "$work/in/empty4.csv"
expect_refused 2 "^augur: $work/in/empty4.csv:1: timestamp \(the 4th field\) is empty" \
  "$augur" data mf --in "$work/in/empty4.csv" --out "$work/bad-mm"
printf 'a\tr\tb\nb\tr\t\xff\n' > "$work/in/bad-utf8.tsv"
expect_refused 2 "^augur: $work/in/bad-utf8.tsv:2: not valid UTF-8" \
  "$augur" data kg --train "$work/in/bad-utf8.tsv" --split 0,1 --out "$work/bad-kg"
# An empty test split measures nothing: refused, saying how to get one.
expect_refused 2 "the test split is empty: --split V,0" \
  "$augur" data kg --train "$work/in/train.tsv" --split 0,0 --out "$work/bad-kg"
printf 'a\tr\tb\n' > "$work/in/one.tsv"
expect_refused 2 "none of the 1 training triples can be held out" \
  "$augur" data kg --train "$work/in/one.tsv" --split 5,5 --out "$work/bad-kg"
printf '1::1::5\n1::2::3\n2::1::4\n' > "$work/in/three.dat"
expect_refused 2 "the test split is empty: of 3 ratings, --test-share 0.1 holds out none" \
  "$augur" data mf --in "$work/in/three.dat" --out "$work/bad-mm"
expect_refused 2 "^augur: error: --test-share must be in \(0, 1\)" \
  "$augur" data mf --in "$work/in/ratings.csv" --test-share 0 --out "$work/bad-mm"
expect_refused 2 "^augur: error: --test-share must be in \(0, 1\)" \
  "$augur" data mf --rows 10 --cols 10 --nnz 50 --test-share 0 --out "$work/bad-mm"
# Each generator flag is named on its own.
expect_refused 2 "^augur: error: --rank must be in \[1, 16384\]$" \
  "$augur" data mf --rows 10 --cols 10 --nnz 50 --rank 0 --out "$work/bad-mm"
expect_refused 2 "^augur: error: --noise must be a finite number >= 0" \
  "$augur" data mf --rows 10 --cols 10 --nnz 50 --noise -1 --out "$work/bad-mm"
leftovers=$(find "$work" -maxdepth 1 -name 'bad-*')
[ -z "$leftovers" ] || fail "a failed import left $leftovers"
ok "bad files: exit 2 with FILE:LINE, no output directory"

# --- byte-order marks, spaces around names, header rows, repeated cells --------------
{
  printf '\xef\xbb\xbf'
  for u in $(seq 1 12); do for i in 1 2 3 4 5; do echo "$u,$i,$(( (u + i) % 5 + 1 ))"; done; done
  echo '3,4,1'
} > "$work/in/bom.csv"
"$augur" data mf --in "$work/in/bom.csv" --out "$work/bom" > "$work/bom.log"
[ "$(json "$work/bom/meta.json" 'j["rows"], j["duplicates"]')" = "(12, 1)" ] ||
  fail "mf with a BOM: $(cat "$work/bom/meta.json")"
grep -q '1 repeated (user, item) ratings dropped' "$work/bom.log" || fail "repeated ratings not told"
{
  printf '\xef\xbb\xbfhead\trelation\ttail\n'
  sed 's/\t/ \t /g' "$work/in/train.tsv"  # every name with spaces around it
} > "$work/in/spaced.tsv"
"$augur" data kg --train "$work/in/spaced.tsv" --split 5,5 --out "$work/spaced" > "$work/spaced.log"
grep -qF "skipped the header row $work/in/spaced.tsv:1" "$work/spaced.log" || fail "kg header not told"
[ "$(json "$work/spaced/meta.json" 'j["entities"], j["relations"], j["train"] + j["valid"] + j["test"]')" = "(60, 2, 120)" ] ||
  fail "kg with spaces: $(cat "$work/spaced/meta.json")"
[ "$(sed -n 2p "$work/spaced/entities.tsv" | cut -f2)" = "Q0" ] || fail "kg: spaces kept around Q0"
# A training run refuses an mf directory whose meta.json is not what its files are.
cp -r "$work/ml" "$work/ml-edited"
printf '0\t0\t3\n' >> "$work/ml-edited/train.tsv"
set +e
"$augur" "${single[@]}" --workload mf --data "$work/ml-edited" --out "$work/r-bad" > /dev/null 2> "$work/err"
set -e
grep -q "meta.json: 'train' is [0-9]* but $work/ml-edited/train.tsv has" "$work/err" ||
  { cat "$work/err"; fail "an edited mf directory was read"; }
sed -i 's/augur-mf-1/augur-kg-1/' "$work/ml/meta.json"
set +e
"$augur" "${single[@]}" --workload mf --data "$work/ml" --out "$work/r-bad" > /dev/null 2> "$work/err"
set -e
grep -q 'format "augur-kg-1" is not an mf directory' "$work/err" ||
  { cat "$work/err"; fail "an mf directory of another format was read"; }
ok "BOM, spaces, header rows, repeated cells, mf directory checks"

# --- augur data --help describes every format -----------------------------------------
"$augur" data --help > "$work/help"
for s in 'KG directory' 'Text directory' 'mf directory' 'KG input' 'Text input' 'MatrixMarket' \
  'ratings.csv' 'ratings.dat'; do
  grep -q "$s" "$work/help" || fail "augur data --help lacks '$s'"
done
ok "augur data --help"

# --- single refuses cluster flags; unknown flags name the subcommand's help -------
expect_refused 2 '^augur: error: --nodes is a cluster flag' \
  "$augur" single --workload mf --nodes 3
expect_refused 2 '^augur: error: --policy is a cluster flag' \
  "$augur" single --workload mf --policy classic
expect_refused 2 '^augur: error: --act-immediately is a cluster flag' \
  "$augur" single --workload mf --act-immediately
expect_refused 2 '^augur: error: --checkpoint-dir: augur single has no checkpoints' \
  "$augur" single --workload mf --checkpoint-dir "$work/ck"
grep -q -- '--backend' "$work/err" && fail "--checkpoint-dir with single mentions --backend"
"$augur" single --help > "$work/help"
for f in --nodes --policy --sync-period --sampling --lookahead --checkpoint-dir; do
  grep -q -- "$f" "$work/help" && fail "augur single --help lists $f"
done
grep -q -- '2×dim floats' "$work/help" || fail "--dim help does not say rows of 2×dim floats"
grep -q -- 'split between corrupted heads' "$work/help" || fail "--negatives help"
expect_refused 2 'see augur sim --help\)$' "$augur" sim --no-such-flag
expect_refused 2 'see augur data kg --help\)$' "$augur" data kg --train x --out y --bogus
ok "single refuses cluster flags; unknown flags name the subcommand's help"

# --- a plain augur sim runs the adaptive policy ----------------------------------------
"$augur" sim --nodes 2 --keys 2000 --batches 5 --no-progress --out "$work/sim" > "$work/log" ||
  { cat "$work/log"; fail "plain augur sim"; }
[ "$(json "$work/sim/result.json" 'j["policy"]')" = "adaptive" ] || fail "default policy is not adaptive"
json "$work/sim/result.json" 'j["config"]' | grep -q "'kge'" && fail "zipf result.json shows kge options"
ok "plain augur sim records policy adaptive"
expect_refused 2 "cannot open /nonexistent/data.noun" "$augur" data wordnet --wordnet /nonexistent \
  --out "$work/wn"
[ ! -e "$work/wn" ] || fail "data wordnet without WordNet left an output directory"
ok "data wordnet without its input: exit 2"
if [ -r /usr/share/wordnet/data.noun ]; then
  expect_refused 2 "--valid 100000000 takes every held-out triple" "$augur" data wordnet \
    --valid 100000000 --out "$work/wn"
  ok "data wordnet with no test triples left: exit 2"
fi
echo "PASS"
