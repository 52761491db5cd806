#!/usr/bin/env python3
"""The least CPU time any DCT-domain path built from libjpeg and libvips must spend on scripts/bench's workload.

Usage: bound.py WORKLOAD.json [--count N] [--rounds N] [--splice-bench BIN]
       bound.py --photos FILE... --splice-bench BIN [--rounds N]

Such a path must at least (1) entropy-decode and entropy-encode every coefficient of every photo, since without
restart markers libjpeg gives no way into the middle of a scan, and (2) resample and composite every pixel of every
stamp's visible box. This script times the two on their own, with nothing else around them:
  entropy: libjpeg-turbo's own lossless transcode, `jpegtran -copy none`, of each base (`-progressive` for a
           progressive one, which a path keeping the photo's coding writes progressive again; user CPU time; its system
           time is mostly page faults on fresh coefficient memory, which a long-running process avoids, so it is
           left out to keep the bound low);
  stamps:  each stamp premultiplied in 8 bits once, then per job and stamp one bicubic affine of its content
           (transparent margins cut off) onto the box that content covers (clipped to the photo) and one composite
           over a black 3-band canvas of that box, written to memory, in one libvips thread (process CPU time).
  pixels:  for a path that decodes the photo (an explicit quality, any other output format): each base decoded in
           order (turned by its EXIF orientation), its metadata stripped and encoded as JPEG at Q90, to memory, in one
           libvips thread (process CPU time): the floor's own work, which such a path cannot skip.
Nothing is counted for decoding and encoding the pixels under the stamps, reading files or writing them, so any
real path costs more. With C cores busy all the time the wall time is at least (entropy + stamps) / C.
Two things the bound leaves out are timed beside it, not in it (scripts/bench-bound reports them apart):
  reduce:  the Lanczos-3 reduce stampcam runs before the affine for a stamp drawn under 0.75 x its decoded size (bicubic
           alone aliases there): each such stamp, decoded as stampcam decodes it (a power-of-two box shrink leaving at
           least 4 decoded pixels a drawn one), cut to its content and 4 pixels around, reduced and written to memory;
  files:   the outputs' bytes (each photo's file size, about what the lossless path writes) written into new files
           beside the workload in 1 MB writes and removed (process CPU time: mostly the kernel's copy into the page
           cache), no fsync.
With --splice-bench (the JPEGScanBench tool), two more parts, the limits of a path that touches only the bytes
under the stamps (user + system CPU of one process over every base, the outputs written into a new folder beside the
workload and removed):
  physical: each base read into memory and its bytes written to a new file: what any JPEG-to-JPEG edit must do;
  spliced:  the same with the baseline scanner run over its entropy-coded data in between (every MCU's Huffman
            symbols decoded, every 64th MCU's start kept), the least a splice that re-encodes only the stamps' MCUs
            must do; a base the scanner does not handle (progressive) is read and written only, and counted.
With --photos FILE... instead of a workload, only the entropy, pixels, physical and spliced parts are timed, over
those photos.
libvips runs with its Orc code off (VIPS_NOVECTOR), as stampcam runs it; none of the bound's own parts uses Orc.
Prints one line of JSON: the CPU seconds of each part (medians over the rounds) and the stamps' pixel count.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")
os.environ.setdefault("VIPS_NOVECTOR", "1")
import pyvips  # noqa: E402  (after VIPS_CONCURRENCY, which libvips reads when it starts)

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from geometry import place  # noqa: E402


def children_times():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime, usage.ru_stime


def progressive(path):
    """True when the JPEG's frame header is a progressive one (SOF2), found by walking its markers."""
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC9, 0xCA, 0xCB):
            return marker in (0xC2, 0xCA)
        i += 2 + (data[i + 2] << 8 | data[i + 3])
    return False


def entropy_seconds(bases):
    """User and system CPU seconds of jpegtran over every base."""
    user, system = children_times()
    for path in bases:
        coding = ["-progressive"] if progressive(path) else []
        subprocess.run(["jpegtran", "-copy", "none", *coding, "-outfile", os.devnull, path], check=True)
    after = children_times()
    return after[0] - user, after[1] - system


def pixel_seconds(bases):
    start = time.process_time()
    for path in bases:
        image = pyvips.Image.new_from_file(path, access="sequential")
        if image.get_typeof("orientation") and image.get("orientation") != 1:
            image = pyvips.Image.new_from_file(path).autorot()
        image.jpegsave_buffer(Q=90, strip=True)
    return time.process_time() - start


def splice_seconds(bench, mode, bases, folder):
    """User + system CPU seconds of JPEGScanBench over every base, and its counts (whole, damaged, not handled)."""
    out = os.path.join(folder, f".bound-splice-{os.getpid()}")
    os.makedirs(out, exist_ok=True)
    user, system = children_times()
    result = subprocess.run([bench, mode, out, *bases], check=True, capture_output=True, text=True)
    after = children_times()
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    os.rmdir(out)
    whole, damaged, other, _ = (int(field) for field in result.stdout.split())
    return after[0] - user + after[1] - system, (whole, damaged, other)


def content_box(image):
    """The bounding box (left, top, right, bottom) of the pixels whose alpha is not 0, or None."""
    left, top, width, height = image.extract_band(image.bands - 1).find_trim(threshold=0, background=[0])
    return None if width == 0 or height == 0 else (left, top, left + width, top + height)


def stamp_jobs(workload, root, count):
    """For every job, each stamp as (premultiplied 8-bit image, affine matrix, odx, ody, box) over its content."""
    cache = {}
    jobs = []
    for job in workload["jobs"][:count]:
        width, height = job["uprightSize"]
        layers = []
        for s in job["stamps"]:
            path = os.path.join(root, s["image"])
            if path not in cache:
                image = pyvips.Image.new_from_file(path, access="random")
                premultiplied = image.premultiply().cast("uchar").copy_memory()
                cache[path] = (premultiplied, content_box(image))
            image, content = cache[path]
            if content is None:
                continue
            # The box of the content's outline (one pixel wider for the interpolator, clipped to the photo).
            g = place(image.width, image.height, s["center"], s["width"], s["scale"], s["rotation"], width, height,
                      content=content)
            if g["box"] is not None:
                # The source cut to its content and the bicubic reach (two pixels) beyond it, as stampcam does: past
                # the cut the affine fills with transparency without interpolating.
                a, b, c, d = g["matrix"]
                cl, ct = max(content[0] - 2, 0), max(content[1] - 2, 0)
                cr, cb = min(content[2] + 2, image.width), min(content[3] + 2, image.height)
                g = dict(g, odx=g["odx"] + a * cl + b * ct, ody=g["ody"] + c * cl + d * ct)
                layers.append((image.crop(cl, ct, cr - cl, cb - ct), g, g["box"]))
        jobs.append(layers)
    return jobs


def reduce_jobs(workload, root, count):
    """Each stamp stampcam reduces before its affine, as (its decoded image cut to its content, the shrink)."""
    decoded, work = {}, []
    for job in workload["jobs"][:count]:
        for s in job["stamps"]:
            path = os.path.join(root, s["image"])
            image = pyvips.Image.new_from_file(path, access="random")
            scale = s["width"] * s["scale"] / image.width
            # StampShrink: the largest power of two f <= 1 / (4 x scale), and at most the stamp's smaller side.
            limit, factor = min(1 / (4 * scale), image.width, image.height), 1
            while factor * 2 <= limit:
                factor *= 2
            drawn = scale * factor
            if drawn >= 0.75:
                continue
            if (path, factor) not in decoded:
                small = image.premultiply().cast("uchar")
                if factor > 1:
                    small = small.shrink(factor, factor)
                small = small.copy_memory()
                box = content_box(small)
                decoded[(path, factor)] = (small, box)
            small, box = decoded[(path, factor)]
            if box is None:
                continue
            left, top = max(box[0] - 4, 0), max(box[1] - 4, 0)
            right, bottom = min(box[2] + 4, small.width), min(box[3] + 4, small.height)
            work.append((small.crop(left, top, right - left, bottom - top), 1 / drawn))
    return work


def reduce_seconds(work):
    start = time.process_time()
    for image, shrink in work:
        image.reduce(shrink, shrink, kernel="lanczos3").copy_memory()
    return time.process_time() - start


def file_seconds(bases, folder):
    """CPU seconds of writing each base's size in bytes into a new file in `folder` (then removed)."""
    chunk = bytes(1 << 20)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    for i, path in enumerate(bases):
        size = os.path.getsize(path)
        target = os.path.join(folder, f".bound-{os.getpid()}-{i}")
        with open(target, "wb", buffering=0) as f:
            while size > 0:
                size -= f.write(chunk[: min(size, len(chunk))])
        os.remove(target)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime


def stamp_seconds(jobs):
    """CPU seconds of the bicubic affines (each layer written to memory) and of the composites (over those layers)."""
    bicubic = pyvips.Interpolate.new("bicubic")
    layers = []
    start = time.process_time()
    for job in jobs:
        for image, g, (left, top, width, height) in job:
            layer = image.affine(g["matrix"], interpolate=bicubic, oarea=[left, top, width, height],
                                 odx=g["odx"], ody=g["ody"], premultiplied=True, extend="background",
                                 background=[0])
            layers.append(layer.copy_memory())
    affine = time.process_time() - start
    start = time.process_time()
    for layer in layers:
        canvas = pyvips.Image.black(layer.width, layer.height, bands=3).copy(interpretation="srgb")
        canvas.composite([layer], "over", premultiplied=True).write_to_memory()
    return affine, time.process_time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workload", nargs="?")
    parser.add_argument("--count", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--splice-bench", default=None)
    parser.add_argument("--photos", nargs="+", default=None)
    args = parser.parse_args()
    if args.photos:
        if not args.splice_bench:
            parser.error("--photos needs --splice-bench")
        return photos_only(args)
    if not args.workload:
        parser.error("a workload, or --photos")
    with open(args.workload) as f:
        workload = json.load(f)
    root = os.path.dirname(os.path.abspath(args.workload))
    pyvips.cache_set_max(0)
    bases = [os.path.join(root, job["base"]) for job in workload["jobs"][: args.count]]
    jobs = stamp_jobs(workload, root, args.count)
    reductions = reduce_jobs(workload, root, args.count)
    entropy, entropy_system, decode, affine, composite, reduce, files = [], [], [], [], [], [], []
    physical, spliced, counts = [], [], (0, 0, 0)
    for _ in range(args.rounds):
        user, system = entropy_seconds(bases)
        entropy.append(user)
        entropy_system.append(system)
        decode.append(pixel_seconds(bases))
        seconds = stamp_seconds(jobs)
        affine.append(seconds[0])
        composite.append(seconds[1])
        reduce.append(reduce_seconds(reductions))
        files.append(file_seconds(bases, root))
        if args.splice_bench:
            physical.append(splice_seconds(args.splice_bench, "copy", bases, root)[0])
            seconds, counts = splice_seconds(args.splice_bench, "scan", bases, root)
            spliced.append(seconds)
    pixels = sum(box[2] * box[3] for layers in jobs for _, _, box in layers)
    splice = {}
    if args.splice_bench:
        splice = {"physicalCPU": round(statistics.median(physical), 3),
                  "splicedCPU": round(statistics.median(spliced), 3),
                  "scannedWhole": counts[0], "scannedDamaged": counts[1], "scannedNotHandled": counts[2]}
    print(json.dumps({
        **splice,
        "jobs": len(bases), "stamps": sum(len(layers) for layers in jobs), "stampPixels": pixels,
        "entropyCPU": round(statistics.median(entropy), 3), "pixelsCPU": round(statistics.median(decode), 3),
        "entropySystemCPU": round(statistics.median(entropy_system), 3),
        "affineCPU": round(statistics.median(affine), 3),
        "compositeCPU": round(statistics.median(composite), 3),
        "reduced": len(reductions), "reduceCPU": round(statistics.median(reduce), 3),
        "filesCPU": round(statistics.median(files), 3),
    }))


def photos_only(args):
    """The parts a photo's own bytes decide, over --photos: one line of JSON, medians over the rounds."""
    pyvips.cache_set_max(0)
    bases = [os.path.abspath(path) for path in args.photos]
    folder = os.path.dirname(bases[0])
    parts = {"entropyCPU": [], "entropySystemCPU": [], "pixelsCPU": [], "physicalCPU": [], "splicedCPU": []}
    counts = (0, 0, 0)
    for _ in range(args.rounds):
        user, system = entropy_seconds(bases)
        parts["entropyCPU"].append(user)
        parts["entropySystemCPU"].append(system)
        parts["pixelsCPU"].append(pixel_seconds(bases))
        parts["physicalCPU"].append(splice_seconds(args.splice_bench, "copy", bases, folder)[0])
        seconds, counts = splice_seconds(args.splice_bench, "scan", bases, folder)
        parts["splicedCPU"].append(seconds)
    line = {key: round(statistics.median(values), 3) for key, values in parts.items()}
    line.update({"photos": len(bases), "bytes": sum(os.path.getsize(path) for path in bases),
                 "scannedWhole": counts[0], "scannedDamaged": counts[1], "scannedNotHandled": counts[2]})
    print(json.dumps(line))


if __name__ == "__main__":
    main()
