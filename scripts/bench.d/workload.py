#!/usr/bin/env python3
"""Builds stampcam's benchmark workload, deterministically from a seed, into a work folder.

Usage: workload.py --packages DIR --work DIR --jobs N [--seed S] [--workload photo|grain|bulk|huge]

DIR given to --packages holds one folder per Debian package, each the output of `dpkg-deb -x` (so photos are under
DIR/<package>/usr/share/...). Writes, under the work folder:

  data-seed<S>/bases/base-NNN.jpg   4032 x 3024 upright, JPEG Q90 4:4:4, cropped and resized from the wallpapers
  data-seed<S>/stamps/stamp-KK.png  Adwaita 512 px icons (alpha) resized to 256-512 px
  manifest.json                     the stampcam manifest (version 1, no `view`: image pixels, upright frame)
  workload.json                     the same work with everything the other variants need (and the peers read)

Orientation: every upright picture is 4032 x 3024. Jobs whose index is 3 mod 8 (6 of 48) carry EXIF orientation
6, 3, 8 in turn and store the pixels that the orientation turns upright: 3024 x 4032 stored for 6 and 8, 4032 x 3024
upside down for 3. Every job therefore asks for the same output size and the same work after autorotation.

Stamps: three per job, each of the 16-stamp pool, scale 0.5-2, rotation 0-360 degrees clockwise, `width` equal to
the stamp's pixel width (so the effective scale is `scale`); every other stamp (exactly half) is placed so that its
rotated outline crosses one edge of the picture. Each job draws from its own seeded generator, so the first N jobs
are the same whatever the job count: a quick run uses a prefix of the full workload.

--workload grain (issue 13) makes photos closer to a phone's: the same crops with sensor-like grain added (seeded
Gaussian noise, a shared luminance part and a smaller part per channel, 2.4 MB mean at Q90 4:4:4 against 1.9), a
quarter of them (jobs whose index is 1 mod 4) written progressive, and the 512 px icons at their own size, so that
a stamp at scale 0.5-2 is drawn 256-1024 px wide. Its files go to data-grain-seed<S>/.

--workload bulk (issue 24) is the tool's main use: one gesture script over a folder. Every job has the same three
stamps (from the pool) and the same gestures (a pinch on each, drags on two), so every photo gets the same final
placements; the photos are upright and of three sizes in turn, 4032 x 3024, 3264 x 2448 and 2592 x 1944 (12, 8 and
5 megapixels, Q90 4:4:4 as above), and the script keeps every stamp inside the smallest. workload.json holds the
placements the gestures end at (a pinch on a stamp multiplies its scale and adds its rotation about its centre, a
drag moves it; `stampcam explain` shows the same, and the bench's check compares the stamps with pyvips'). Its files
go to data-bulk-seed<S>/. Its manifest is the form a user writes for that: one job over many photos, a glob
(`"photos": "data-bulk-seed<S>/photos-<N>/*.jpg"`, the folder holding a hard link `job-NNN.jpg` to each of the N
jobs' bases, so a shorter run's glob matches its own jobs only), not a line per photo.

--workload huge is one 100-megapixel photo with one stamp a job: a wallpaper (`Wine_by_Jakkub_Mede.jpg` from
lomiri-wallpapers-16.04, or the largest photo when it is missing) cropped to 3:2 at its centre, resized with
Lanczos-3 to 12240 x 8160, Gaussian grain of sigma 6 added (the same noise on every channel), written by libvips as
a baseline JPEG Q92 4:2:0 with standard Huffman tables (`jpegsave(Q=92, subsample_mode="on")`, 31-32 MB), upright.
Every job renders that one photo (data-huge-seed<S>/bases/base-000.jpg) with one stamp of the pool (the icons
resized to 256-512 px as for the photo workload) at scale 0.75-1.5, at its own seeded place inside the picture.

Files that already exist are reused (they are written to a temporary name and renamed, so they are complete).
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys

import pyvips

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts, in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from geometry import place  # noqa: E402

WIDTH, HEIGHT = 4032, 3024
QUALITY = 90
POOL = 16
STAMPS_PER_JOB = 3
PHOTO_PACKAGES = ("lomiri-wallpapers-16.04", "plasma-workspace-wallpapers", "mate-backgrounds")
ICON_PACKAGE = "adwaita-icon-theme"
MIN_SOURCE_SIDE = 1000
BULK_SIZES = ((4032, 3024), (3264, 2448), (2592, 1944))
HUGE_SIZE = (12240, 8160)
HUGE_QUALITY = 92
HUGE_GRAIN = 6.0
HUGE_SOURCE = "Wine_by_Jakkub_Mede.jpg"
# The bulk workload's gesture script, per stamp: pool index, centre before the gestures, pinch scale and rotation
# (degrees, clockwise), drag.
BULK_SCRIPT = ((0, (800, 650), 1.6, 30.0, None), (5, (1900, 1250), 0.7, -50.0, (-250, 120)),
               (9, (2150, 520), 1.2, 115.0, (100, 200)))


def orientation_of(index):
    return (6, 3, 8)[(index // 8) % 3] if index % 8 == 3 else 1


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def find_photos(packages):
    """Unique JPEG photos from the wallpaper packages, largest first (then by name), for a stable order."""
    seen, found = set(), []
    for package in PHOTO_PACKAGES:
        root = os.path.join(packages, package)
        if not os.path.isdir(root):
            continue
        for folder, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                path = os.path.join(folder, name)
                if not name.lower().endswith((".jpg", ".jpeg")) or "screenshot" in name or os.path.islink(path):
                    continue
                digest = sha256(path)
                if digest in seen:
                    continue
                header = pyvips.Image.new_from_file(path)
                if min(header.width, header.height) < MIN_SOURCE_SIDE or header.bands < 3:
                    continue
                seen.add(digest)
                found.append({"package": package, "path": os.path.relpath(path, root), "sha256": digest,
                              "size": [header.width, header.height], "_full": path})
    found.sort(key=lambda s: (-s["size"][0] * s["size"][1], s["package"], s["path"]))
    return found


def find_icons(packages):
    root = os.path.join(packages, ICON_PACKAGE)
    icons = []
    for folder, _, files in sorted(os.walk(root)):
        if "/512x512/" not in folder + "/":
            continue
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith(".png") and not os.path.islink(path):
                if pyvips.Image.new_from_file(path).bands == 4:
                    icons.append(path)
    return icons


def save_atomically(image, path, **options):
    temporary = path + ".tmp" + os.path.splitext(path)[1]
    image.write_to_file(temporary, **options)
    os.replace(temporary, path)


def clean_pixels(image):
    """sRGB, three bands, no metadata but what we set: the bases must not carry the wallpapers' EXIF or ICC."""
    if image.interpretation != "srgb":
        image = image.colourspace("srgb")
    if image.bands > 3:
        image = image[:3]
    image = image.copy()
    for field in image.get_fields():
        if field.startswith(("exif-", "xmp-", "iptc-", "icc-", "orientation", "jpeg-", "png-", "resolution")):
            image.remove(field)
    return image


GRAIN_LUMA, GRAIN_CHROMA = 2.0, 1.0  # standard deviations in levels of the shared and the per-channel noise


def add_grain(image, seed):
    """Sensor-like grain: the same noise on every channel (luminance) plus a smaller independent one per channel."""
    luma = pyvips.Image.gaussnoise(image.width, image.height, sigma=GRAIN_LUMA, mean=0, seed=seed)
    chroma = [pyvips.Image.gaussnoise(image.width, image.height, sigma=GRAIN_CHROMA, mean=0, seed=seed + 1 + b)
              for b in range(image.bands)]
    noise = chroma[0].bandjoin(chroma[1:]) + luma
    return (image.cast("float") + noise).cast("uchar").copy(interpretation="srgb")


def make_base(source, rng, orientation, path, grain=None, progressive=False, size=(WIDTH, HEIGHT)):
    """A 4:3 crop at a seeded place, resized to `size` (4032 x 3024), stored so that `orientation` turns it upright;
    with `grain` (a seed) sensor-like noise added, with `progressive` written progressive."""
    width, height = size
    image = pyvips.Image.new_from_file(source["_full"], access="random").autorot()
    sw, sh = image.width, image.height
    cw = min(sw, sh * 4 // 3)
    ch = cw * 3 // 4
    cx, cy = rng.randint(0, sw - cw), rng.randint(0, sh - ch)
    crop = [cx, cy, cw, ch]
    if os.path.exists(path):
        return crop
    upright = image.crop(cx, cy, cw, ch).resize(width / cw, vscale=height / ch, kernel="lanczos3")
    if (upright.width, upright.height) != (width, height):
        upright = upright.gravity("centre", width, height, extend="copy")
    upright = clean_pixels(upright)
    if grain is not None:
        upright = add_grain(upright, grain)
    # vips rot angles are clockwise; the stored frame is the upright one turned back.
    stored = {1: upright, 3: upright.rot("d180"), 6: upright.rot("d270"), 8: upright.rot("d90")}[orientation]
    stored = stored.copy()
    stored.set_type(pyvips.GValue.gint_type, "orientation", orientation)
    save_atomically(stored, path, Q=QUALITY, subsample_mode="off", optimize_coding=progressive,
                    interlace=progressive)
    return crop


def make_huge_base(photos, path):
    """The huge workload's one photo (see the module's text); its source's entry."""
    source = next((p for p in photos if os.path.basename(p["path"]) == HUGE_SOURCE), photos[0])
    if os.path.exists(path):
        return source
    width, height = HUGE_SIZE
    image = pyvips.Image.new_from_file(source["_full"], access="random").autorot()
    cw = min(image.width, image.height * width // height)
    ch = cw * height // width
    image = image.crop((image.width - cw) // 2, (image.height - ch) // 2, cw, ch)
    upright = image.resize(width / cw, vscale=height / ch, kernel="lanczos3")
    if (upright.width, upright.height) != (width, height):
        upright = upright.gravity("centre", width, height, extend="copy")
    upright = clean_pixels(upright)
    noise = pyvips.Image.gaussnoise(width, height, sigma=HUGE_GRAIN, mean=0, seed=HUGE_SIZE[0])
    upright = (upright.cast("float") + noise).cast("uchar").copy(interpretation="srgb")
    save_atomically(upright, path, Q=HUGE_QUALITY, subsample_mode="on", optimize_coding=False, interlace=False)
    return source


def place_stamp(rng, stamp, clipped, size=(WIDTH, HEIGHT), scales=(0.5, 2.0)):
    width, height = size
    scale = round(rng.uniform(*scales), 4)
    rotation = round(rng.uniform(0.0, 360.0), 2)
    w, h = stamp["width"] * scale, stamp["height"] * scale
    r = math.radians(rotation)
    ex = (abs(math.cos(r)) * w + abs(math.sin(r)) * h) / 2  # half extents of the rotated outline
    ey = (abs(math.sin(r)) * w + abs(math.cos(r)) * h) / 2
    x, y = rng.uniform(ex, width - ex), rng.uniform(ey, height - ey)
    if clipped:
        edge = rng.choice("LRTB")
        # The centre from 0.4 half-extent outside to 0.7 inside the edge: the outline crosses it, part stays on.
        depth = rng.uniform(-0.4, 0.7)
        if edge == "L":
            x = depth * ex
        elif edge == "R":
            x = width - depth * ex
        elif edge == "T":
            y = depth * ey
        else:
            y = height - depth * ey
    else:
        edge = None
    return scale, rotation, [round(x, 2), round(y, 2)], edge


def bulk_stamps(pool, size):
    """The bulk workload's script: the manifest's stamps and gestures, and the placements they end at."""
    stamps, manifest_stamps, gestures = [], [], []
    for k, (index, center, scale, rotation, drag) in enumerate(BULK_SCRIPT):
        stamp = pool[index]
        manifest_stamps.append({"id": f"s{k}", "image": stamp["image"], "center": list(center),
                                "width": stamp["width"]})
        gestures.append({"pinch": {"on": f"s{k}", "scale": scale, "rotation": rotation}})
        end = list(center)
        if drag:
            gestures.append({"drag": {"on": f"s{k}", "by": list(drag)}})
            end = [center[0] + drag[0], center[1] + drag[1]]
        entry = {"id": f"s{k}", "image": stamp["image"], "center": end, "width": stamp["width"], "scale": scale,
                 "rotation": rotation}
        geometry = place(stamp["width"], stamp["height"], end, stamp["width"], scale, rotation, *size)
        stamps.append(dict(entry, stamp=stamp["id"], pixelSize=[stamp["width"], stamp["height"]], clippedAt=None,
                           box=geometry["box"]))
    return stamps, manifest_stamps, gestures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--packages", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--jobs", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workload", choices=("photo", "grain", "bulk", "huge"), default="photo")
    args = parser.parse_args()
    grainy = args.workload == "grain"
    bulk = args.workload == "bulk"
    huge = args.workload == "huge"

    work = os.path.abspath(args.work)
    data = f"data-seed{args.seed}" if args.workload == "photo" else f"data-{args.workload}-seed{args.seed}"
    os.makedirs(os.path.join(work, data, "bases"), exist_ok=True)
    os.makedirs(os.path.join(work, data, "stamps"), exist_ok=True)

    photos = find_photos(args.packages)
    icons = find_icons(args.packages)
    if not photos:
        sys.exit("workload: no photos found in " + ", ".join(PHOTO_PACKAGES))
    if len(icons) < POOL:
        sys.exit(f"workload: {len(icons)} 512 px icons with alpha in {ICON_PACKAGE}, {POOL} needed")

    rng = random.Random(f"{args.seed}:stamps")
    pool = []
    for k, icon in enumerate(rng.sample(icons, POOL)):
        size = rng.randint(256, 512)
        rel = f"{data}/stamps/stamp-{k:02d}.png"
        path = os.path.join(work, rel)
        if not os.path.exists(path):
            image = pyvips.Image.new_from_file(icon)
            if not grainy:
                image = image.resize(size / image.width, kernel="lanczos3")
            image = image.copy()
            for field in image.get_fields():
                if field.startswith(("png-", "exif-", "xmp-", "icc-")):
                    image.remove(field)
            save_atomically(image, path)
        header = pyvips.Image.new_from_file(path)
        pool.append({"id": f"stamp-{k:02d}", "image": rel, "width": header.width, "height": header.height,
                     "source": {"package": ICON_PACKAGE,
                                "path": os.path.relpath(icon, os.path.join(args.packages, ICON_PACKAGE))}})

    jobs, manifest_jobs = [], []
    for i in range(args.jobs):
        rng = random.Random(f"{args.seed}:job:{i}")
        source = photos[i % len(photos)]
        orientation = 1 if bulk or huge else orientation_of(i)
        size = BULK_SIZES[i % len(BULK_SIZES)] if bulk else HUGE_SIZE if huge else (WIDTH, HEIGHT)
        job_id = f"job-{i:03d}"
        base = f"{data}/bases/base-{0 if huge else i:03d}.jpg"
        print(f"\rworkload: {job_id} ({i + 1}/{args.jobs})", end="", file=sys.stderr, flush=True)
        progressive = grainy and i % 4 == 1
        grain = (args.seed * 1000003 + i) % 2**31 if grainy else None
        if huge:
            source = make_huge_base(photos, os.path.join(work, base))
            crop = None
        else:
            crop = make_base(source, rng, orientation, os.path.join(work, base), grain=grain,
                             progressive=progressive, size=size)
        stamps, manifest_stamps = [], []
        if bulk:
            stamps, manifest_stamps, gestures = bulk_stamps(pool, size)
        for k in range(0 if bulk else 1 if huge else STAMPS_PER_JOB):
            stamp = pool[rng.randrange(POOL)]
            clipped = not huge and (STAMPS_PER_JOB * i + k) % 2 == 0
            scale, rotation, center, edge = place_stamp(rng, stamp, clipped, size=size,
                                                        scales=(0.75, 1.5) if huge else (0.5, 2.0))
            entry = {"id": f"s{k}", "image": stamp["image"], "center": center, "width": stamp["width"],
                     "scale": scale, "rotation": rotation}
            manifest_stamps.append(entry)
            geometry = place(stamp["width"], stamp["height"], center, stamp["width"], scale, rotation, *size)
            stamps.append(dict(entry, stamp=stamp["id"], pixelSize=[stamp["width"], stamp["height"]],
                               clippedAt=edge, box=geometry["box"]))
        stored = [size[1], size[0]] if orientation in (6, 8) else list(size)
        jobs.append({"id": job_id, "base": base, "output": f"{job_id}.jpg", "orientation": orientation,
                     "progressive": progressive,
                     "storedSize": stored, "uprightSize": list(size),
                     "source": {"package": source["package"], "path": source["path"], "sha256": source["sha256"],
                                "crop": crop},
                     "stamps": stamps})
        manifest_jobs.append({"id": job_id, "base": base, "output": f"{job_id}.jpg", "stamps": manifest_stamps})
        if bulk:
            manifest_jobs[-1]["gestures"] = gestures
    print(file=sys.stderr)

    manifest = {"version": 1, "jobs": manifest_jobs}
    if bulk:
        # One job over a folder of the N bases, linked under their jobs' names so that `{stem}.jpg` is each job's
        # output; the folder is made again each time, so it holds this run's jobs only.
        links = os.path.join(work, data, f"photos-{args.jobs}")
        made = links + ".tmp"
        if os.path.exists(made):
            for name in os.listdir(made):
                os.remove(os.path.join(made, name))
        else:
            os.makedirs(made)
        for job in jobs:
            os.link(os.path.join(work, job["base"]), os.path.join(made, job["output"]))
        if os.path.exists(links):
            for name in os.listdir(links):
                os.remove(os.path.join(links, name))
            os.rmdir(links)
        os.rename(made, links)
        first = manifest_jobs[0]
        manifest = {"version": 1, "jobs": [{"id": "bulk", "photos": f"{data}/photos-{args.jobs}/*.jpg",
                                            "output": "{stem}.jpg", "stamps": first["stamps"],
                                            "gestures": first["gestures"]}]}
    workload = {
        "version": 1,
        "seed": args.seed,
        "workload": args.workload,
        "description": "stampcam benchmark workload: " + (
                           "one 12240 x 8160 baseline JPEG Q92 4:2:0 base with grain, rendered by every job with "
                           "one alpha stamp" if huge else
                           ("4032 x 3024, 3264 x 2448 and 2592 x 1944" if bulk else "4032 x 3024") +
                           " JPEG Q90 4:4:4 bases" +
                           (" with sensor-like grain, a quarter progressive" if grainy else "") +
                           (", the same three alpha stamps and gestures on each" if bulk
                            else ", three alpha stamps each")) +
                       ", "
                       "JPEG Q90 out; coordinates are image pixels in the upright frame; rotation in degrees, "
                       "clockwise; a stamp's centre (w/2, h/2) lands on `center`; it is scaled by "
                       "width * scale / pixel width on both axes",
        "orientation": "every base upright" if bulk or huge else
                       "upright is always 4032 x 3024; orientation 6 and 8 bases are stored 3024 x 4032, "
                       "orientation 3 bases 4032 x 3024 upside down",
        "baseCoding": (f"JPEG Q{HUGE_QUALITY} 4:2:0 baseline" if huge else f"JPEG Q{QUALITY} 4:4:4"),
        "stampsPerJob": 1 if huge else STAMPS_PER_JOB,
        "output": {"format": "jpeg", "quality": QUALITY, "width": HUGE_SIZE[0] if huge else WIDTH,
                   "height": HUGE_SIZE[1] if huge else HEIGHT},
        "manifest": "manifest.json",
        "libvips": ".".join(str(pyvips.version(n)) for n in range(3)), "packagesUsed": sorted({p["package"] for p in photos}),
        "stampPool": pool,
        "jobs": jobs,
    }
    for name, content in (("manifest.json", manifest), ("workload.json", workload)):
        path = os.path.join(work, name)
        with open(path + ".tmp", "w") as f:
            json.dump(content, f, indent=1)
            f.write("\n")
        os.replace(path + ".tmp", path)
    oriented = sum(1 for j in jobs if j["orientation"] != 1)
    clipped = sum(1 for j in jobs for s in j["stamps"] if s["clippedAt"])
    print(f"workload: {len(jobs)} jobs ({oriented} with an EXIF orientation), {clipped} of "
          f"{sum(len(j['stamps']) for j in jobs)} stamps clipped, {len(photos)} source photos, in {work}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
