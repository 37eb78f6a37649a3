#!/usr/bin/python3
"""Writes the seed corpus of every fuzz target into tests/fuzz/corpus/<target>/.

Seeds are small valid (and a few nearly valid) inputs in the formats the
targets parse; libFuzzer mutates from them. Run from anywhere; the output is
committed, so this only needs re-running when a format changes.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = "\n--8<--\n"


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def core_frame(mtype, src=1, origin=1, aux=0, op_id=7, keys=(), slots=(), values=()):
    body = struct.pack("<IIQ", origin, aux, op_id)
    body += struct.pack("<I", len(keys)) + b"".join(struct.pack("<Q", k) for k in keys)
    body += struct.pack("<I", len(slots)) + b"".join(struct.pack("<I", s) for s in slots)
    body += struct.pack("<I", len(values)) + b"".join(struct.pack("<f", v) for v in values)
    return struct.pack("<HBBIII", 0xA6A6, 1, mtype, src, len(body), 0) + body


def transport(kind, payload):
    return struct.pack("<HBBI", 0xA7C1, kind, 0, len(payload)) + payload


def text(s):
    return struct.pack("<H", len(s)) + s.encode()


def hello(rank=1, nodes=4, cluster="fuzz-cluster"):
    return struct.pack("<HBII", 1, 1, rank, nodes) + text(cluster) + bytes(range(32))


pull = core_frame(1, keys=[3, 9, 1 << 40], slots=[0, 4, 8])
push = core_frame(3, keys=[3, 9], values=[1.0, -2.5, 0.0, 3.25])
sync = core_frame(13, keys=[5], slots=[0x80000001], values=[0.5, 0.5])
barrier = core_frame(7, aux=3)
put("codec", "pull", pull)
put("codec", "push", push)
put("codec", "sync", sync)
put("codec", "barrier", barrier)
put("codec", "truncated", push[:-3])


# node_message: [setup byte] then steps [action][u16 length][bytes] (see the target).
def step(action, data=b""):
    return struct.pack("<BH", action, len(data)) + data


def frame_step(mtype, **kw):
    return step(0, core_frame(mtype, src=0, **kw))


def key_step(action, key):
    return step(action, struct.pack("<Q", key))


# setup 1: rank 1, peer 2 (frames claim src 2 after the harness patches it).
for setup, name in ((1, "grant_sync"), (0x41, "grant_sync_adagrad"), (13, "grant_sync_p4")):
    put("node_message", name, bytes([setup]) + key_step(4, 5) + frame_step(12, origin=2, op_id=0, keys=[5],
        values=[1.0, 2.0] * (2 if setup & 0x40 else 1)) + key_step(3, 5) + step(1) +
        frame_step(14, origin=2, op_id=1, keys=[5], values=[3.0, 4.0] * (2 if setup & 0x40 else 1)))
put("node_message", "handover", bytes([4]) + key_step(2, 7) +
    frame_step(11, origin=2, aux=1, keys=[7], slots=[1]) +
    frame_step(10, origin=2, op_id=0, keys=[7], slots=[1], values=[1.0, 1.0]) + key_step(2, 7))
put("node_message", "requests", bytes([0]) + frame_step(1, origin=2, op_id=3, keys=[3, 9], slots=[0, 2]) +
    frame_step(3, origin=2, op_id=4, keys=[3], values=[1.0, 1.0]) +
    frame_step(9, origin=2, keys=[3, 4]) +
    frame_step(13, origin=2, op_id=5, keys=[3], slots=[0x40000001]))
put("node_message", "answers", bytes([2]) + key_step(2, 11) + key_step(3, 12) +
    frame_step(2, origin=2, op_id=1, keys=[11], slots=[0], values=[5.0, 6.0]) +
    frame_step(4, origin=2, op_id=2, aux=1))
put("node_message", "barrier", bytes([0]) + frame_step(7, origin=2, aux=0) + frame_step(8, aux=0))

challenge = struct.pack("<I", 0) + bytes(32) + bytes(range(32, 64))
register = text("127.0.0.1") + struct.pack("<H", 29500)
roster = struct.pack("<I", 2) + text("127.0.0.1") + struct.pack("<H", 29500) + text(
    "::1") + struct.pack("<H", 29501)
for target in ("tcp_frame_reader", "tcp_handshake"):
    prefix = b"\x07" if target == "tcp_frame_reader" else b""
    put(target, "handshake", prefix + transport(1, hello()) + transport(3, bytes(32)))
    put(target, "dialer", prefix + transport(2, challenge))
    put(target, "bootstrap", prefix + transport(4, register) + transport(5, roster))
    put(target, "data", prefix + transport(6, pull) + transport(7, b"") + transport(6, push) +
        transport(8, b""))

noun = ("  1 license header line\n"
        "00001740 03 n 01 entity 0 002 ~ 00001930 n 0000 + 00000010 v 0101 | that which is\n"
        "00001930 03 n 01 physical_entity 0 001 @ 00001740 n 0000 | an entity; \"an example\"\n")
verb = "00000010 29 v 02 breathe 0 respire 1 001 + 00001740 n 0101 02 + 02 00 + 08 00 | draw air\n"
adj = ("00000100 00 a 01 able 0 001 ! 00000200 a 0101 | having power\n"
       "00000200 00 s 01 unable 0 001 & 00000100 a 0000 | lacking power\n")
adv = "00000300 02 r 01 well 0 000 | in a good manner\n"
put("wordnet", "tiny", MARK.join([noun, verb, adj, adv]))
put("wordnet", "dangling", MARK.join([noun, "", adj, adv]))

entities = "# id\tname\tlabel\n0\te0\tzero\n1\te1\tone\n2\te2\n"
relations = "0\tr0\thypernym\n1\tr1\n"
put("kg_dataset", "tiny", MARK.join([entities, relations, "0\t0\t1\n1\t1\t2\n2\t0\t0\n",
                                     "0\t1\t2\n", "# empty\n", '{"format": "augur-kg-1"}\n']))
put("kg_dataset", "bad_id", MARK.join([entities, relations, "0\t0\t9\n", "", "", "{}"]))

vocab = "# word\tcount\nthe\t5\ncat\t3\nsat\t2\nmat\t1\n"
put("text_corpus", "tiny", MARK.join([vocab, "the cat sat\nthe mat\ncat the the\n",
                                      '{"sentences": 3}\n']))
put("text_corpus", "unknown", MARK.join([vocab, "the dog\n", "{}"]))

meta = '{"format": "augur-mf-1", "rows": 3, "cols": 4, "train": 3, "test": 1}\n'
put("mf_dataset", "tiny", MARK.join([meta, "# row\tcol\tvalue\n0\t0\t1.5\n1\t3\t-0.25\n2\t2\t1e-3\n",
                                     "2\t1\t0.5\n"]))
put("mf_dataset", "bad_value", MARK.join([meta, "0\t0\tnan\n", ""]))

put("kg_import", "files", MARK.join(["/m/a\tlikes\t/m/b\n/m/b\tlikes\t42\n# c\n42\thates\t/m/a\n",
                                    "/m/a\tlikes\t42\nzed\tlikes\t/m/a\n",
                                    "42\thates\t/m/b\n"]))
put("kg_import", "split", "a\tr\tb\nb\tr\tc\nc\tr\ta\na\ts\tc\nb\ts\ta\nc\ts\tb\n")
put("kg_import", "two_fields", "a\tr\tb\na\tr\n")

put("mf_import", "matrix_market", "%%MatrixMarket matrix coordinate real general\n% c\n3 4 3\n"
    "1 1 4.5\n3 4 2\n2 2 -1e0\n")
put("mf_import", "mm_count", "%%MatrixMarket matrix coordinate integer general\n2 2 3\n1 1 1\n")
put("mf_import", "ratings_csv", "userId,movieId,rating,timestamp\n1,1,4.0,964982703\n"
    "1,3,4.0,964981247\n2,333,4.0,1445715029\n")
put("mf_import", "ratings_dat", "1::1193::5::978300760\n1::661::3::978302109\n2::1193::4::1\n")
put("mf_import", "tsv", "u1\ti1\t1\nu2\ti1\t2.5\nu1\ti2\tx\n")

put("text_import", "two_files", MARK.join(["The cat sat on the mat.\n\nIt's a well-known fact!\n",
                                         "Caf\u00e9 au lait; s'il vous pla\u00eet\n"]))
put("text_import", "bad_utf8", b"fine line here\n\xc3\x28 bad\n")

put("hostfile", "plain", "# cluster\nnode1\nnode2 slots=4\nnode3 2 # two ranks\n")
put("hostfile", "bad", "node1 slots=0\n")

costs = ('{"workload": "zipf", "seconds_per_key": 1.5e-7, "seconds_per_message": 2e-6,'
         ' "seconds_per_message_byte": 1e-10, "machine": "x", "git_commit": "abc"}\n')
put("costs_file", "full", costs)
put("costs_file", "missing", '{"seconds_per_key": 1}\n')

put("secret_file", "hex", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n")
put("secret_file", "short", "tooshort\n")

rank = ('{"backend": "tcp", "nodes": 2, "rank": %d, "verified": true, "epoch_seconds": [0.5],'
        ' "total_seconds": 0.6, "samples": 1000, "bytes_sent": 4096, "messages_sent": 12,'
        ' "local_accesses": 700, "remote_accesses": 300, "samples_per_second": 2000}\n')
put("rank_results", "two", MARK.join([rank % 0, rank % 1]))
put("rank_results", "one_missing", rank % 0)


def fnv1a64(b):
    h = 0xcbf29ce484222325
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def node_rows(node, rows):
    out = b"AUGCKPT1" + struct.pack("<IIQ", 1, node, len(rows))
    for key, floats in rows:
        out += struct.pack("<QI", key, len(floats)) + b"".join(struct.pack("<f", f) for f in floats)
    return out


def entry(node, rows, data):
    keys = [k for k, _ in rows] or [0]
    return {"name": "node-%d.rows" % node, "node": node, "bytes": len(data), "rows": len(rows),
            "min_key": min(keys), "max_key": max(keys), "fnv1a64": "%016x" % fnv1a64(data)}


import json
rows0 = [(5, [1.0, 2.0]), (1 << 63, [0.5, -1.0])]
rows1 = [(77, [3.0, 6.0])]
d0, d1 = node_rows(0, rows0), node_rows(1, rows1)
manifest = {"format": "augur-checkpoint", "version": 1, "nodes": 2, "workers": 2, "epoch": 1,
            "clock": 12, "workload": "zipf", "fingerprint": {"keys": 100, "dim": 2},
            "files": [entry(0, rows0, d0), entry(1, rows1, d1)]}
put("checkpoint", "two_nodes", json.dumps(manifest).encode() + MARK.encode() + d0 +
    MARK.encode() + d1)
put("checkpoint", "empty_node", json.dumps(dict(manifest, files=[entry(0, [], node_rows(0, [])),
                                                              entry(1, rows1, d1)])).encode() +
    MARK.encode() + node_rows(0, []) + MARK.encode() + d1)
