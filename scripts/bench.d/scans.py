#!/usr/bin/env python3
"""Where a progressive JPEG's bytes lie: each scan's components, spectral band, successive approximation and size.

Usage: scans.py FILE...

For each file, one line a scan (its entropy-coded bytes, markers and stuffing included), then a summary: the bytes in
DC scans, in first AC scans (Ah 0: coefficients and EOB runs, which a splice could copy around the stamps' blocks as it
copies a baseline scan's MCUs) and in AC refinement scans (Ah > 0: correction bits whose place depends on which
coefficients earlier scans made non-zero). Every scan of a progressive frame covers every block of its components,
so a stamp that redraws its blocks touches every scan of the components it covers: none is copied whole.
"""
import sys


def scans(data):
    """(components, Ss, Se, Ah, Al, bytes) of each scan, in file order."""
    found, i, header = [], 2, None
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            raise ValueError(f"no marker at {i}")
        marker = data[i + 1]
        if marker == 0xD9:
            break
        length = data[i + 2] << 8 | data[i + 3]
        if marker == 0xDA:
            n = data[i + 4]
            ids = [data[i + 5 + 2 * k] for k in range(n)]
            ss, se, a = data[i + 5 + 2 * n], data[i + 6 + 2 * n], data[i + 7 + 2 * n]
            j = i + 2 + length
            start = j
            while j + 1 < len(data) and not (data[j] == 0xFF and data[j + 1] not in (0x00, *range(0xD0, 0xD8))):
                j += 1
            found.append((ids, ss, se, a >> 4, a & 15, j - start))
            i = j
        else:
            i += 2 + length
    return found


def main():
    totals = {"dc": 0, "ac first": 0, "ac refine": 0}
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            data = f.read()
        file_scans = scans(data)
        print(f"{path}: {len(data)} bytes, {len(file_scans)} scans")
        for ids, ss, se, ah, al, size in file_scans:
            kind = "dc" if ss == 0 else ("ac first" if ah == 0 else "ac refine")
            totals[kind] += size
            print(f"  components {ids} band {ss}-{se} Ah {ah} Al {al}: {size} bytes ({kind})")
    whole = sum(totals.values())
    print("all files: " + ", ".join(f"{kind} {size} bytes ({size / whole:.1%})" for kind, size in totals.items()))


if __name__ == "__main__":
    main()
