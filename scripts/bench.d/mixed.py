#!/usr/bin/env python3
"""Builds the mixed-size batch of scripts/bench-memory --mixed: every distinct JPEG and PNG wallpaper (at least
480 px on each side) under the unpacked packages, one stamp each at a seeded place, JPEG out, as JSON Lines.

Usage: mixed.py PACKAGES_DIR STAMP OUT_DIR   (writes OUT_DIR/mixed.jsonl and OUT_DIR/job-NNN.jsonl, one per job)
"""
import hashlib
import json
import os
import random
import sys

import pyvips


def main():
    packages, stamp, out = sys.argv[1:4]
    names = []
    for folder, _, files in sorted(os.walk(packages)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.lower().endswith((".jpg", ".jpeg", ".png")) and not os.path.islink(path):
                names.append(path)
    rng = random.Random(3)
    seen, jobs = set(), []
    for path in names:
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if digest in seen:
            continue
        try:
            image = pyvips.Image.new_from_file(path)
        except pyvips.Error:
            continue
        if min(image.width, image.height) < 480:
            continue
        seen.add(digest)
        k = len(jobs)
        jobs.append({"id": f"w{k:03d}", "base": path, "output": f"w{k:03d}.jpg",
                     "stamps": [{"id": "s", "image": stamp,
                                 "center": [image.width * rng.uniform(0.2, 0.8), image.height * rng.uniform(0.2, 0.8)],
                                 "width": min(image.width, image.height) / 4, "rotation": rng.uniform(-90, 90)}]})
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "mixed.jsonl"), "w") as f:
        for job in jobs:
            f.write(json.dumps(job) + "\n")
    for k, job in enumerate(jobs):
        with open(os.path.join(out, f"job-{k:03d}.jsonl"), "w") as f:
            f.write(json.dumps(job) + "\n")
    print(len(jobs))


if __name__ == "__main__":
    main()
