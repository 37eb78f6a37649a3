"""Python workloads of Augur: ctr (wide & deep) and gnn (GCN on WordNet).

Each runs as `python3 -m augur.workloads.NAME` on the parameter server (one
process per node, under `augur launch`) or, with --baseline, as a
single-process PyTorch program, and writes a result.json that `augur compare`
reads like those of the C++ workloads.
"""
