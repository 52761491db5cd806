#!/usr/bin/env python3
"""Turns the benchmark's timings into the table: prints it and writes WORK/results.md.

Usage: summarize.py WORK_DIR BASELINE   (reads WORK_DIR/times.tsv, variants.tsv, machine.tsv, checks.tsv, failed.tsv)

times.tsv: variant, round, wall seconds, peak RSS KB, CPU seconds (user + system; absent in older files). variants.tsv: variant, description (in table order).
machine.tsv: key, value. checks.tsv: variant, text. failed.tsv: variant, round, reason.
"""
import json
import os
import statistics
import sys


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def main():
    work, baseline = sys.argv[1], sys.argv[2]
    times = {}
    cpus = {}
    for row in read_tsv(os.path.join(work, "times.tsv")):
        variant, _, wall, rss = row[:4]
        times.setdefault(variant, []).append((float(wall), int(rss)))
        if len(row) > 4:
            cpus.setdefault(variant, []).append(float(row[4]))
    variants = read_tsv(os.path.join(work, "variants.tsv"))
    machine = dict(read_tsv(os.path.join(work, "machine.tsv")))
    checks = dict(read_tsv(os.path.join(work, "checks.tsv")))
    failed = read_tsv(os.path.join(work, "failed.tsv"))
    base = statistics.median(w for w, _ in times[baseline]) if baseline in times else None

    def own_floor(variant):
        """A variant's own floor: floor-png for stampcam-png, floor-prog for stampcam-prog, ... (None: the baseline)."""
        suffix = variant.rsplit("-", 1)[-1]
        floor = f"floor-{suffix}"
        return floor if floor != variant and suffix in ("rst", "png", "webp", "prog") and floor in times else None

    rows = []
    for variant, description in variants:
        runs = times.get(variant)
        if not runs:
            continue
        walls = [w for w, _ in runs]
        median = statistics.median(walls)
        ratio = f"{median / base:.2f}" if base else "-"
        floor = own_floor(variant)
        own = f"{median / statistics.median(w for w, _ in times[floor]):.2f}" if floor else ratio
        cpu = f"{statistics.median(cpus[variant]):.2f}" if variant in cpus else "-"
        rows.append([variant, description, f"{median:.2f}", f"{min(walls):.2f}", f"{max(walls):.2f}", ratio, own,
                     cpu, f"{max(r for _, r in runs) / 1024:.0f}", str(len(runs)), checks.get(variant, "")])

    header = ["variant", "median wall s", "min", "max", f"vs {baseline}", "vs own floor", "median CPU s",
              "peak RSS MB", "runs"]
    width = [max(len(h), *(len(r[i if i == 0 else i + 1]) for r in rows)) if rows else len(h)
             for i, h in enumerate(header)]
    print("  ".join(h.ljust(width[i]) if i == 0 else h.rjust(width[i]) for i, h in enumerate(header)))
    for r in rows:
        cells = [r[0]] + r[2:10]
        print("  ".join(c.ljust(width[i]) if i == 0 else c.rjust(width[i]) for i, c in enumerate(cells)))
    for variant, rnd, reason in failed:
        print(f"FAILED {variant} (round {rnd}): {reason}")

    workload = json.load(open(os.path.join(work, "workload.json")))
    grainy = workload.get("workload") == "grain"
    sizes = " / ".join(f"{w} x {h}" for w, h in dict.fromkeys(tuple(j["uprightSize"]) for j in workload["jobs"]))
    md = [f"# stampcam benchmark, {machine.get('date', '')}", ""]
    md += [f"- machine: {machine.get('nproc', '?')} cores ({machine.get('cpu', '?')}), "
           f"{machine.get('memory', '?')} memory",
           f"- libvips {machine.get('libvips', '?')}, pyvips {machine.get('pyvips', '?')}, "
           f"{machine.get('python', '?')}, {machine.get('imagemagick', '?')}, stampcam {machine.get('stampcam', '?')}"
           + (f" (stampcam-other: {machine['other']})" if machine.get("other") else ""),
           f"- workload: {workload.get('workload', 'photo')}, {len(workload['jobs'])} jobs, seed {workload['seed']}, "
           f"{sizes} {workload.get('baseCoding', 'JPEG Q90 4:4:4')} bases"
           f"{' with sensor-like grain' if grainy or workload.get('workload') == 'huge' else ''} "
           f"(mean {machine.get('baseMB', '?')} MB; "
           f"{sum(1 for j in workload['jobs'] if j.get('progressive'))} progressive; "
           f"{sum(1 for j in workload['jobs'] if j['orientation'] != 1)} with an EXIF orientation), "
           f"{'one alpha stamp' if workload.get('stampsPerJob') == 1 else 'three alpha stamps'} each "
           f"({sum(1 for j in workload['jobs'] for s in j['stamps'] if s['clippedAt'])} of "
           f"{sum(len(j['stamps']) for j in workload['jobs'])} clipped at an edge)"
           f"{'; the same stamps and gestures on every photo' if workload.get('workload') == 'bulk' else ''}, "
           "JPEG Q90 out",
           f"- {machine.get('rounds', '?')} round(s), variants in turn within each round; wall time and peak RSS from "
           f"`/usr/bin/time -f '%e %M'`, CPU as its user + system time; a process pool's RSS is its parent's only (the workers escape it)",
           ""]
    md.append("| variant | what | median wall s | min | max | vs " + baseline
              + " | vs own floor | median CPU s | peak RSS MB | runs | check |")
    md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        md.append("| " + " | ".join(r) + " |")
    if failed:
        md += ["", "Failures:", ""] + [f"- {v} (round {n}): {reason}" for v, n, reason in failed]
    md += ["", "check: outputs counted and, after their EXIF orientation, sized as their photos; for the stamp variants, the mean absolute difference "
               "(0-255) from the pyvips output inside the stamps' boxes, the largest over the jobs (stamp against "
               "photo differs by tens; a few tenths is a different resampler on the same geometry). vs own floor: "
               "the -rst, -png, -webp and -prog variants against the floor of the same photos and format.", ""]
    with open(os.path.join(work, "results.md"), "w") as f:
        f.write("\n".join(md))
    print(f"written: {os.path.join(work, 'results.md')}")


if __name__ == "__main__":
    main()
