"""Instruction mix of the hot loops in a cuobjdump -sass listing (sessions 13 and 41).

For every loop (a backward branch) with at least 100 FFMAs: its length, the
share of FFMAs, and two register-bank models (not measurements) of its FFMAs:
- session 13's: how many source operands carry the .reuse flag, and how many
  FFMAs read two or three registers of one parity not so flagged;
- session 41's: an operand comes from the reuse cache where the instruction
  before it read the same register in the same slot with .reuse (the flag
  keeps a value for the next instruction, it does not spare the read that
  carries it); how many reads that leaves, and how many FFMAs read two (or
  three) registers of one parity, or two of one bank of four, from the file.
Then how far ahead each shared-memory load (LDS) is issued: the instructions
from it to the first that reads a register it writes (around the loop), the
shortest and the median. Usage:
    cuobjdump -sass binary | python3 bench/harness/sass_loops.py /dev/stdin
"""
import collections
import re
import sys

PRED = re.compile(r"^@!?U?P\w+\s+")
INS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?);")
TARGET = re.compile(r"BRA .*0x([0-9a-f]+)")
REG = re.compile(r"-?\|?R(\d+)(\.reuse)?")
LDS = re.compile(r"LDS(\.\w+)*\s+R(\d+),")
WIDTH = {"128": 4, "64": 2}


def loops(text):
    for func in re.split(r"\n\s*Function : ", "\n" + text)[1:]:
        name = func.split("\n", 1)[0].strip()
        ins = [(int(m.group(1), 16), m.group(2).strip()) for m in INS.finditer(func)]
        at = {a: i for i, (a, _) in enumerate(ins)}
        for i, (a, s) in enumerate(ins):
            m = TARGET.search(s)
            if "BRA" in s and m and int(m.group(1), 16) < a and int(m.group(1), 16) in at:
                yield name, ins[at[int(m.group(1), 16)] : i + 1]


def sources(s):
    """The source operands of an unpredicated instruction s (the first operand is its destination)."""
    return [o.strip() for o in s.split(None, 1)[1].split(",")][1:] if " " in s else []


def flagged_model(body):
    """Session 13's model: a flagged operand counts as reused."""
    reused = total = two = three = 0
    for s in body:
        if not s.startswith("FFMA"):
            continue
        banks = []
        for o in sources(s)[:3]:
            m = REG.match(o)
            if not m:
                continue
            total += 1
            if m.group(2):
                reused += 1
            else:
                banks.append(int(m.group(1)) % 2)
        most = max(collections.Counter(banks).values(), default=0)
        two += most >= 2
        three += most >= 3
    return reused, total, two, three


def cache_model(body):
    """Session 41's model: an operand is cached where the previous instruction flagged it in the same slot."""
    cached = reads = two = three = four = 0
    kept = {}  # slot -> register the previous instruction flagged there
    for s in body:
        now = {}
        if s.startswith("FFMA"):
            regs = []
            for slot, o in enumerate(sources(s)[:3]):
                m = REG.match(o)
                if not m:
                    continue
                r = int(m.group(1))
                if kept.get(slot) == r:
                    cached += 1
                else:
                    regs.append(r)
                if m.group(2):
                    now[slot] = r
            reads += len(regs)
            parity = max(collections.Counter(r % 2 for r in regs).values(), default=0)
            two += parity >= 2
            three += parity >= 3
            four += max(collections.Counter(r % 4 for r in regs).values(), default=0) >= 2
        kept = now
    return cached, reads, two, three, four


def lds_distances(body):
    """Instructions from each LDS to the first that reads a register it writes, around the loop."""
    out = []
    for i, s in enumerate(body):
        m = LDS.match(s)
        if not m:
            continue
        r = int(m.group(2))
        width = next((w for k, w in WIDTH.items() if f".{k}" in s.split()[0]), 1)
        written = set(range(r, r + width))
        for d in range(1, len(body)):
            t = body[(i + d) % len(body)]
            srcs = sources(t) if not t.startswith("ST") else [o.strip() for o in t.split(None, 1)[1].split(",")]
            if any(int(x) in written for x in re.findall(r"\bR(\d+)\b", ",".join(srcs))):
                out.append(d)
                break
    return sorted(out)


def main(path):
    for name, body in loops(open(path).read()):
        body = [PRED.sub("", s) for _, s in body]
        ops = collections.Counter(s.split()[0].split(".")[0] for s in body)
        if ops["FFMA"] < 100:
            continue
        reused, total, two, three = flagged_model(body)
        cached, reads, ctwo, cthree, cfour = cache_model(body)
        dist = lds_distances(body)
        print(f"{name}\n  {len(body)} instructions, FFMA {ops['FFMA']} ({ops['FFMA'] / len(body):.3f}), "
              f"reused sources {reused}/{total}, FFMAs with 2 / 3 same-parity unreused sources {two} / {three}")
        print(f"  reuse cache: {cached} of {total} sources cached, {reads} register-file reads; FFMAs reading 2 / 3 "
              f"of one parity {ctwo} / {cthree}, 2 of one bank of four {cfour}")
        if dist:
            print(f"  LDS {len(dist)}: first use after {dist[0]}-{dist[-1]} instructions, median {dist[len(dist) // 2]}, "
                  f"shortest {dist[:6]}")
        print("  " + ", ".join(f"{k} {v}" for k, v in ops.most_common(12)))


if __name__ == "__main__":
    main(sys.argv[1])
