"""Summary of Nsight Compute's per-instruction warp sampling (session 64).

Reads the CSV that `ncu -i REPORT --page source --csv --print-source sass`
prints for a report taken with --section SourceCounters (one block per
kernel: a "Kernel Name" line, a header, then one row per SASS instruction)
and prints per kernel: instructions executed, samples, the share of samples
by stall reason (all samples, issued or not), the share by kind of
instruction (its opcode, the samples of the warps waiting at it), and the N
instructions with the most samples, each with the instructions before it.
Usage:
    python3 bench/harness/ncu_source_summary.py SRC.csv [N] [--kernel SUBSTRING]
"""
import collections
import csv
import sys


def kernels(path):
    """Yields (kernel name, rows as dicts) for each kernel block of the CSV."""
    name, header, rows = None, None, []
    with open(path, newline="") as f:
        for rec in csv.reader(f):
            if not rec:
                continue
            if rec[0] == "Kernel Name":
                if name is not None:
                    yield name, rows
                name, header, rows = rec[1], None, []
            elif header is None:
                header = rec
            else:
                rows.append(dict(zip(header, rec)))
    if name is not None:
        yield name, rows


def num(s):
    try:
        return float(s.replace(",", ""))
    except (ValueError, AttributeError):
        return 0.0


def summarize(name, rows, top):
    reasons = [k for k in rows[0] if k.startswith("stall_") and not k.endswith("(Not Issued)")]
    samples = sum(num(r["Warp Stall Sampling (All Samples)"]) for r in rows)
    execs = sum(num(r["Instructions Executed"]) for r in rows)
    print(f"== {name[:150]}")
    print(f"   instructions executed {execs:.0f}, samples {samples:.0f}, {len(rows)} SASS instructions")
    by_reason = {k: sum(num(r[k]) for r in rows) for k in reasons}
    shown = sorted(by_reason.items(), key=lambda kv: -kv[1])
    print("   samples by reason: " + ", ".join(f"{k[6:]} {v / samples:.3f}" for k, v in shown if v / samples >= 0.005))
    by_op = collections.Counter()
    for r in rows:
        by_op[r["Source"].split()[0] if r["Source"].split() else "?"] += num(r["Warp Stall Sampling (All Samples)"])
    print("   samples by opcode: " + ", ".join(f"{k} {v / samples:.3f}" for k, v in by_op.most_common(12)))
    order = sorted(range(len(rows)), key=lambda i: -num(rows[i]["Warp Stall Sampling (All Samples)"]))
    for i in order[:top]:
        r = rows[i]
        s = num(r["Warp Stall Sampling (All Samples)"])
        why = sorted(((num(r[k]), k[6:]) for k in reasons), reverse=True)
        why = ", ".join(f"{k} {v:.0f}" for v, k in why[:4] if v > 0)
        print(f"   [{i:5d}] {r['Source'][:60]:60s} samples {s:.0f} ({s / samples:.3f}: {why})")
        for j in range(max(0, i - 4), i):
            print(f"           {j:5d} {rows[j]['Source'][:60]:60s} exec {num(rows[j]['Instructions Executed']):.0f}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    want = None
    if "--kernel" in sys.argv:
        want = sys.argv[sys.argv.index("--kernel") + 1]
        args.remove(want)
    top = int(args[1]) if len(args) > 1 else 10
    for name, rows in kernels(args[0]):
        if rows and (want is None or want in name):
            summarize(name, rows, top)


if __name__ == "__main__":
    main()
