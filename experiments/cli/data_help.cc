#include "experiments/cli/data_help.h"

namespace augur {

std::string DataHelpKgDir() {
  return R"(KG directory (--workload kge; written by data wordnet and data kg):
  entities.tsv   id<TAB>name<TAB>label, ids 0..E-1 in order
  relations.tsv  id<TAB>name<TAB>label, ids 0..R-1 in order
  train.tsv, valid.tsv, test.tsv   head<TAB>relation<TAB>tail (integer ids)
  meta.json      format augur-kg-1, source, counts (dropped triples too)
  e.g. train.tsv:
    # head	relation	tail
    0	0	1
    2	1	0
    1	0	3
    3	1	2
)";
}

std::string DataHelpTextDir() {
  return R"(Text directory (--workload wv; written by data text):
  corpus.txt  one sentence per line, tokens separated by one space
  vocab.tsv   word<TAB>count, by count descending, then word
  meta.json   format augur-text-1, source, sentences, tokens, vocabulary
  e.g. corpus.txt:
    the cat sat on the mat
    a dog ran after the cat
    the mat was red
    dogs and cats
    it's a well-known fact
)";
}

std::string DataHelpMfDir() {
  return R"(mf directory (--workload mf; written by data mf):
  train.tsv, test.tsv   row<TAB>col<TAB>value (row < rows, col < cols)
  meta.json             format augur-mf-1, rows and cols (required), counts, source
  users.tsv, items.tsv  imported only: id<TAB>original name
  e.g. train.tsv:
    # row	col	value
    0	0	4
    0	1	3.5
    1	0	5
    2	2	1
)";
}

std::string DataHelpKgInput() {
  return R"(KG input (data kg --train/--valid/--test): head<TAB>relation<TAB>tail per line,
any non-empty UTF-8 names, spaces around them dropped (LibKGE/PyKEEN/OpenKE
files: FB15k-237, WN18RR, ...); a first row 'head relation tail' is skipped;
dense ids in first-seen order; valid/test triples with an entity or relation
not in --train are dropped and counted; the test split must not be empty. e.g.
    /m/027rn	/location/country/form_of_government	/m/06cx9
    /m/017dcd	/tv/tv_program/regular_cast	/m/06v8s0
    /m/07s9rl0	/media_common/netflix_genre/titles	/m/0170z3
    /m/01sl1q	/award/award_winner/awards_won	/m/044mz_
    /m/0cnk2q	/soccer/football_team/current_roster	/m/02nzb8
)";
}

std::string DataHelpTextInput() {
  return R"(Text input (data text --in): any UTF-8 text; every line is one sentence; tokens
are runs of ASCII letters, digits, ' and -, lowercased; lines of fewer than two
tokens are dropped; without --in, the WordNet glosses. e.g.
    The cat sat on the mat.
    A dog ran after the cat!
    The mat was red;
    Dogs and cats.
    It's a well-known fact.
)";
}

std::string DataHelpMfInput() {
  return R"(Ratings input (data mf --in), detected from the first non-empty line; user and
item names get dense ids in first-seen order; a repeated (user, item) keeps its
first rating (the others are counted); --test-share of them is held out (> 0):
  MatrixMarket coordinate real|integer general, 1-based, exact entry count:
    %%MatrixMarket matrix coordinate real general
    % ratings of 3 users on 4 items
    3 4 3
    1 1 4.5
    3 4 2
  CSV or TSV user,item,rating[,timestamp], optional header row of column names
  (MovieLens ratings.csv):
    userId,movieId,rating,timestamp
    1,1,4.0,964982703
    1,3,4.0,964981247
    1,6,4.0,964982224
    2,333,4.0,1445715029
  '::'-separated user::item::rating[::timestamp] (MovieLens ratings.dat):
    1::1193::5::978300760
    1::661::3::978302109
    1::914::3::978301968
    2::1357::5::978298709
    3::2355::5::978297872
)";
}

std::string DataHelpAll() {
  return "Directory formats (augur single|sim|... --data DIR):\n\n" + DataHelpKgDir() + "\n" +
         DataHelpTextDir() + "\n" + DataHelpMfDir() + "\nInput formats:\n\n" + DataHelpKgInput() +
         "\n" + DataHelpTextInput() + "\n" + DataHelpMfInput() +
         "\nEmpty lines and '#' lines are skipped (MatrixMarket: '%'; text: only empty lines are "
         "dropped).\nA malformed line stops the import: 'augur: FILE:LINE: what is wrong', exit "
         "code 2,\nand no output directory (output is built in DIR.tmp-PID and renamed at the "
         "end).\nMore: experiments/data/README.md\n";
}

}  // namespace augur
