#!/usr/bin/env python3
"""The pyvips variants of stampcam's benchmark: the floor (decode + autorotate + encode) and the stamps.

Usage: vips_run.py WORKLOAD.json OUT_DIR --mode floor|stamps [--in-flight N] [--pool process|thread] [--count N]

Every job: load the base (sequential access when its EXIF orientation is 1, random access otherwise, since turning
needs the pixels in another order than they are stored), autorotate, and for --mode stamps draw its three stamps:
each premultiplied (float), scaled and rotated by one affine (bicubic) onto just the box it covers, then all of them
over the base in one n-ary composite over the whole frame, as a pyvips user would write it. Stamps are decoded and
premultiplied once per worker. JPEG Q90 out (4:4:4, libvips' default at Q90), metadata stripped; or PNG (libvips'
defaults) or WebP (Q90) when the job's output is named so (the PNG and WebP floors).

Placement is stampcam's (see geometry.py): centre (w/2, h/2) on `center`, clockwise degrees, scale = width * scale /
stamp pixel width.

--in-flight 1 runs the jobs one after another in this process. More runs that many jobs at once in a pool of worker
processes (default) or of threads in this process (pyvips lets go of the GIL inside libvips).
"""
import argparse
import concurrent.futures
import json
import multiprocessing
import os
import sys

import pyvips

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts, in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from geometry import place  # noqa: E402

_stamps = {}


def stamp(path):
    image = _stamps.get(path)
    if image is None:
        image = pyvips.Image.new_from_file(path, access="random").premultiply().copy_memory()
        _stamps[path] = image
    return image


def run_job(job, root, out_dir, mode):
    path = os.path.join(root, job["base"])
    header = pyvips.Image.new_from_file(path)
    orientation = header.get("orientation") if header.get_typeof("orientation") else 1
    image = pyvips.Image.new_from_file(path, access="sequential" if orientation == 1 else "random")
    if orientation != 1:
        image = image.autorot()
    if mode == "stamps":
        layers, xs, ys = [], [], []
        for s in job["stamps"]:
            source = stamp(os.path.join(root, s["image"]))
            g = place(source.width, source.height, s["center"], s["width"], s["scale"], s["rotation"],
                      image.width, image.height)
            if g["box"] is None:
                continue
            left, top, width, height = g["box"]
            layers.append(source.affine(g["matrix"], interpolate=pyvips.Interpolate.new("bicubic"),
                                        oarea=[left, top, width, height], odx=g["odx"], ody=g["ody"],
                                        premultiplied=True, extend="background", background=[0]))
            xs.append(left)
            ys.append(top)
        if layers:
            image = image.composite(layers, "over", x=xs, y=ys, premultiplied=True)
            image = image.extract_band(0, n=3).cast("uchar")
    out = os.path.join(out_dir, job["output"])
    # The format the output's name says, with stampcam's settings: JPEG and WebP at Q90, PNG at libvips' defaults.
    if out.endswith(".png"):
        image.pngsave(out, strip=True)
    elif out.endswith(".webp"):
        image.webpsave(out, Q=90, strip=True)
    else:
        image.jpegsave(out, Q=90, strip=True)
    return job["id"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workload")
    parser.add_argument("out")
    parser.add_argument("--mode", choices=("floor", "stamps"), required=True)
    parser.add_argument("--in-flight", type=int, default=1)
    parser.add_argument("--pool", choices=("process", "thread"), default="process")
    parser.add_argument("--count", type=int, default=None)
    args = parser.parse_args()

    with open(args.workload) as f:
        workload = json.load(f)
    root = os.path.dirname(os.path.abspath(args.workload))
    jobs = workload["jobs"][: args.count]
    os.makedirs(args.out, exist_ok=True)
    if args.in_flight <= 1:
        for job in jobs:
            run_job(job, root, args.out, args.mode)
        return
    if args.pool == "thread":
        executor = concurrent.futures.ThreadPoolExecutor(args.in_flight)
    else:
        # A fresh interpreter per worker: forking a process that already runs libvips' threads is unsafe.
        executor = concurrent.futures.ProcessPoolExecutor(args.in_flight,
                                                          mp_context=multiprocessing.get_context("forkserver"))
    with executor:
        futures = [executor.submit(run_job, job, root, args.out, args.mode) for job in jobs]
        for future in futures:
            future.result()


if __name__ == "__main__":
    main()
