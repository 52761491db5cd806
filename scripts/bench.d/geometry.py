"""Stamp placement shared by the benchmark's pyvips and ImageMagick variants.

It mirrors stampcam's renderer (Sources/StampRender/StampGeometry.swift): a stamp of `pw` x `ph` pixels whose
manifest `width` is its width in image pixels before `scale` is scaled by s = width * scale / pw (both axes, so
the aspect ratio is kept), rotated by `rotation` degrees clockwise (y down), and its centre (pw/2, ph/2) lands on
`center`. Continuous coordinates: pixel i covers [i, i + 1); libvips samples pixel i at coordinate i, so a
continuous coordinate u is libvips coordinate u - 0.5. The box is the transformed outline plus one pixel for the
interpolator's reach, clipped to the image; None when the stamp lies wholly off it.
"""
import math


def place(pw, ph, center, width, scale, rotation, image_w, image_h, content=None):
    """`content`: the part of the stamp (left, top, right, bottom in its pixels) whose outline makes the box; the
    whole stamp when None."""
    s = width * scale / pw
    r = math.radians(rotation)
    cos, sin = math.cos(r), math.sin(r)
    a, b, c, d = s * cos, -s * sin, s * sin, s * cos
    cx, cy = pw / 2, ph / 2
    xs, ys = [], []
    u0, v0, u1, v1 = content or (0, 0, pw, ph)
    for u, v in ((u0, v0), (u1, v0), (u0, v1), (u1, v1)):
        xs.append(a * (u - cx) + b * (v - cy) + center[0])
        ys.append(c * (u - cx) + d * (v - cy) + center[1])
    left = max(math.floor(min(xs) - 1), 0)
    top = max(math.floor(min(ys) - 1), 0)
    right = min(math.ceil(max(xs) + 1), image_w)
    bottom = min(math.ceil(max(ys) + 1), image_h)
    box = (left, top, right - left, bottom - top) if right > left and bottom > top else None
    # libvips' output coordinate X = A x + (odx, ody), x in libvips input coordinates; relative to the box.
    odx = a * (0.5 - cx) + b * (0.5 - cy) + center[0] - 0.5
    ody = c * (0.5 - cx) + d * (0.5 - cy) + center[1] - 0.5
    return {"scale": s, "matrix": [a, b, c, d], "odx": odx, "ody": ody, "box": box}
