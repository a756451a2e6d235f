"""Instruction mix of the hot loops in a cuobjdump -sass listing (session 13).

For every loop (a backward branch) with at least 100 FFMAs: its length, the
share of FFMAs, how many FFMA source operands carry the .reuse flag, and how
many FFMAs read two or three registers of one parity without reuse (a
register-bank model, not a measurement). Usage:
    cuobjdump -sass binary | python3 bench/harness/sass_loops.py /dev/stdin
"""
import collections
import re
import sys

PRED = re.compile(r"^@!?U?P\w+\s+")
INS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?);")
TARGET = re.compile(r"BRA .*0x([0-9a-f]+)")
REG = re.compile(r"-?\|?R(\d+)(\.reuse)?")


def loops(text):
    for func in re.split(r"\n\s*Function : ", text)[1:]:
        name = func.split("\n", 1)[0].strip()
        ins = [(int(m.group(1), 16), m.group(2).strip()) for m in INS.finditer(func)]
        at = {a: i for i, (a, _) in enumerate(ins)}
        for i, (a, s) in enumerate(ins):
            m = TARGET.search(s)
            if "BRA" in s and m and int(m.group(1), 16) < a and int(m.group(1), 16) in at:
                yield name, ins[at[int(m.group(1), 16)] : i + 1]


def main(path):
    for name, body in loops(open(path).read()):
        ops = collections.Counter(PRED.sub("", s).split()[0].split(".")[0] for _, s in body)
        if ops["FFMA"] < 100:
            continue
        reused = sources = two = three = 0
        for _, s in body:
            s = PRED.sub("", s)
            if not s.startswith("FFMA"):
                continue
            banks = []
            for o in [o.strip() for o in s.split(None, 1)[1].split(",")][1:4]:
                m = REG.match(o)
                if not m:
                    continue
                sources += 1
                if m.group(2):
                    reused += 1
                else:
                    banks.append(int(m.group(1)) % 2)
            most = max(collections.Counter(banks).values(), default=0)
            two += most >= 2
            three += most >= 3
        print(f"{name}\n  {len(body)} instructions, FFMA {ops['FFMA']} ({ops['FFMA'] / len(body):.3f}), "
              f"reused sources {reused}/{sources}, FFMAs with 2 / 3 same-parity unreused sources {two} / {three}")
        print("  " + ", ".join(f"{k} {v}" for k, v in ops.most_common(12)))


if __name__ == "__main__":
    main(sys.argv[1])
