#!/usr/bin/python3
"""A seeded Zipf-distributed text corpus with topical structure.

Usage: zipf_corpus.py OUT_TXT [TOKENS=1000000] [VOCAB=30000] [SEED=1]
Each line is a sentence of 8-24 tokens. Every sentence has one of 50 topics;
a token is, with probability 0.5, a word of the whole vocabulary drawn by
Zipf's law (exponent 1, the shape of natural text: a few very frequent
words), else a word of the sentence's topic (1% of the vocabulary per topic,
also Zipf-ranked), so co-occurrence carries signal a word2vec model can learn.
Words are "w" + rank. Standard library only; the same arguments give the same file.
"""
import bisect
import itertools
import random
import sys


def zipf_cdf(n):
    weights = [1.0 / (r + 1) for r in range(n)]
    return list(itertools.accumulate(weights))


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: zipf_corpus.py OUT_TXT [TOKENS] [VOCAB] [SEED]\n")
        return 2
    tokens = int(argv[2]) if len(argv) > 2 else 1000000
    vocab = int(argv[3]) if len(argv) > 3 else 30000
    rng = random.Random(int(argv[4]) if len(argv) > 4 else 1)
    topics, per_topic = 50, max(10, vocab // 100)
    words = zipf_cdf(vocab)
    topic_words = [rng.sample(range(vocab), per_topic) for _ in range(topics)]
    topic_cdf = zipf_cdf(per_topic)

    def draw(cdf):
        return bisect.bisect_left(cdf, rng.random() * cdf[-1])

    written = 0
    with open(argv[1], "w") as out:
        while written < tokens:
            t = rng.randrange(topics)
            n = rng.randint(8, 24)
            line = []
            for _ in range(n):
                w = draw(words) if rng.random() < 0.5 else topic_words[t][draw(topic_cdf)]
                line.append(f"w{w}")
            out.write(" ".join(line) + "\n")
            written += n
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
