#!/usr/bin/python3
"""Debian's package relations as a knowledge graph (triples of names).

Usage: debian_kg.py PACKAGES_FILE OUT_TSV
PACKAGES_FILE is in Debian control format (`apt-cache dumpavail`, or
/var/lib/dpkg/status). Entities are package names (and sections as
"section:NAME"); relations are the control fields Depends, Pre-Depends,
Recommends, Suggests, Enhances, Provides, Breaks, Conflicts, Replaces and
Section. Every alternative of a dependency ("a | b") is a triple; version
constraints and architecture qualifiers are dropped; duplicate triples are
written once. Hub entities appear by nature (libc6 is depended on by most
packages). Output: head<TAB>relation<TAB>tail, one triple a line, for
`augur data kg --train OUT_TSV --split V,T`. Standard library only.
"""
import re
import sys

RELATIONS = ["Depends", "Pre-Depends", "Recommends", "Suggests", "Enhances",
             "Provides", "Breaks", "Conflicts", "Replaces"]


def names(field):
    for part in field.split(","):
        for alt in part.split("|"):
            name = re.split(r"[\s(:\[<]", alt.strip(), maxsplit=1)[0]
            if name:
                yield name


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: debian_kg.py PACKAGES_FILE OUT_TSV\n")
        return 2
    seen = set()
    try:
        src = open(argv[1], encoding="utf-8", errors="replace")
    except OSError as e:
        sys.stderr.write(f"debian_kg.py: cannot open {argv[1]}: {e}\n")
        return 1
    with src, open(argv[2], "w", encoding="utf-8") as out:
        fields, last = {}, None

        def flush():
            pkg = fields.get("Package", "").strip()
            if pkg:
                for rel in RELATIONS:
                    for tail in names(fields.get(rel, "")):
                        if tail != pkg and (pkg, rel, tail) not in seen:
                            seen.add((pkg, rel, tail))
                            out.write(f"{pkg}\t{rel}\t{tail}\n")
                section = fields.get("Section", "").strip()
                if section and (pkg, "Section", section) not in seen:
                    seen.add((pkg, "Section", section))
                    out.write(f"{pkg}\tSection\tsection:{section}\n")

        for line in src:
            line = line.rstrip("\n")
            if not line:
                flush()
                fields, last = {}, None
            elif line[0] in " \t" and last is not None:
                fields[last] += " " + line.strip()
            elif ":" in line:
                last, value = line.split(":", 1)
                fields[last] = value.strip()
        flush()
    if not seen:
        sys.stderr.write(f"debian_kg.py: {argv[1]} holds no package relations\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
