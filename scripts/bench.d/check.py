#!/usr/bin/env python3
"""Checks one variant's outputs: every job written, displaying upright at its size (after its EXIF orientation), and, given a reference variant's outputs,
the stamps where the reference has them.

Usage: check.py WORKLOAD.json OUT_DIR [REFERENCE_DIR] [--count N] [--base-unchanged]

Prints one line: "ok ..." (exit 0) or "bad ..." (exit 1). With a reference, it gives the largest over the jobs of
the mean absolute difference (0-255) inside the stamps' boxes: a few tenths is another resampler on the same
geometry; a misplaced, mis-scaled or mis-turned stamp differs by tens there.
With --base-unchanged (outputs of the lossless JPEG path), every pixel of each output outside its stamps' boxes,
widened by 32 pixels (the boxes rounded out to whole iMCUs of up to 16 pixels, and the one iMCU of margin a
subsampled photo's regions get), must decode to exactly the base photo's: the blocks no stamp touches kept their
coefficients, so libjpeg decodes them to the same samples.
"""
import argparse
import json
import os

import pyvips


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workload")
    parser.add_argument("out")
    parser.add_argument("reference", nargs="?")
    parser.add_argument("--count", type=int, default=None)
    parser.add_argument("--base-unchanged", action="store_true")
    args = parser.parse_args()
    root = os.path.dirname(os.path.abspath(args.workload))
    changed_outside = 0
    workload = json.load(open(args.workload))
    default = (workload["output"]["width"], workload["output"]["height"])
    worst, worst_job = 0.0, None
    for job in workload["jobs"][: args.count]:
        path = os.path.join(args.out, job["output"])
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            print(f"bad: {job['output']} missing")
            raise SystemExit(1)
        # Upright pixels with orientation 1, or the stored frame with its orientation tag kept (a lossless JPEG
        # path): both display upright, so compare what a viewer shows.
        image = pyvips.Image.new_from_file(path, access="random").autorot()
        size = tuple(job.get("uprightSize", default))
        if (image.width, image.height) != size:
            print(f"bad: {job['output']} is {image.width} x {image.height}, not {size[0]} x {size[1]}")
            raise SystemExit(1)
        if args.base_unchanged:
            base = pyvips.Image.new_from_file(os.path.join(root, job["base"])).autorot()
            changed_outside += outside_changes(image, base, job["stamps"])
        if not args.reference:
            continue
        # The reference variant writes JPEG whatever this one writes.
        reference = pyvips.Image.new_from_file(os.path.join(args.reference, os.path.splitext(job["output"])[0] + ".jpg"))
        difference = (image.extract_band(0, n=3).cast("float") - reference.extract_band(0, n=3)).abs()
        for s in job["stamps"]:
            if s["box"]:
                left, top, w, h = s["box"]
                d = difference.crop(left, top, w, h).avg()
                if d > worst:
                    worst, worst_job = d, f"{job['id']}/{s['id']}"
    if changed_outside:
        print(f"bad: {changed_outside} pixels outside the stamps' blocks differ from the base photos")
        raise SystemExit(1)
    if args.reference and worst > 4:
        print(f"bad: stamps differ from the pyvips output by {worst:.2f} in {worst_job}: misplaced?")
        raise SystemExit(1)
    kept = ", every pixel outside the stamps' blocks the base photo's" if args.base_unchanged else ""
    if args.reference and worst_job is None:
        print(f"ok, stamps identical to the pyvips output{kept}")
    elif args.reference:
        print(f"ok, stamps within {worst:.2f} of the pyvips output (worst {worst_job}){kept}")
    else:
        print(f"ok{kept}")


def outside_changes(output, base, stamps, margin=32):
    """Pixels of `output` that differ from `base` (both upright) outside the stamps' boxes widened by `margin`."""
    if (output.width, output.height) != (base.width, base.height):
        return output.width * output.height
    bands = min(output.bands, base.bands, 3)
    differs = (output.extract_band(0, n=bands) != base.extract_band(0, n=bands)).bandor().copy_memory()
    for s in stamps:
        if s["box"]:
            left, top, w, h = s["box"]
            differs = differs.draw_rect(0, left - margin, top - margin, w + 2 * margin, h + 2 * margin, fill=True)
    return int(differs.avg() / 255 * differs.width * differs.height + 0.5)


if __name__ == "__main__":
    main()
