"""The recorder in a real browser: headless Chromium, driven over the DevTools protocol, makes gestures on the page
that `stampcam record` serves (real multi-touch through Input.dispatchTouchEvent, a Shift+drag with the mouse), then
checks (a) the page's stamps, read from the DOM, against the server's StampSession after every frame, (b) `stampcam
explain` on the saved manifest against the session, (c) each stamp's centroid in a screenshot against where the
session puts it, (d) `stampcam render` of the saved job against the page's Render, byte for byte, (e) that
requests without the token, from another host or origin, or too large, are refused and write nothing; then (f) the
page at a phone's size keeps its controls on screen, (g) two pages at once record apart, their fingers never
crossing, and (h) at the event cap (made small for the test) the page says so, the lift is taken and Undo works.

Usage: browser_test.py STAMPCAM CHROMIUM WORKDIR [--screenshot FILE]"""
import base64
import http.client
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse

import png
from cdp import Browser, Tab

MAGENTA = lambda r, g, b: r > 180 and g < 90 and b > 180
GREEN = lambda r, g, b: g > 180 and r < 90 and b < 90
WIDTH, HEIGHT = 900, 900


def fixtures(work):
    """A 780 x 1688 photo (f = 0.5 on the 390 x 844 screen) in dull blues, a magenta and a green stamp, and a
    manifest whose job `rec` lies between two others, so that a save that touched them would show."""
    png.write(os.path.join(work, "photo.png"), 780, 1688,
              lambda x, y: (40 + x * 60 // 780, 60 + y * 60 // 1688, 140 + (x + y) % 40, 255))
    png.write(os.path.join(work, "magenta.png"), 200, 200, lambda x, y: (255, 0, 255, 255))
    png.write(os.path.join(work, "green.png"), 240, 120, lambda x, y: (0, 255, 0, 255))
    text = """{
  "version": 1,
  "jobs": [
    {"id": "before", "base": "photo.png", "output": "before.png"},
    {
      "id": "rec",
      "base": "photo.png",
      "output": "rec.png",
      "viewOutput": "rec-screen.png",
      "view": {"width": 390, "height": 844},
      "stamps": [
        {"id": "m", "image": "magenta.png", "center": [190, 250], "width": 60},
        {"id": "g", "image": "green.png", "center": [270, 560], "width": 120}
      ],
      "gestures": []
    },
    {"id": "after",   "base": "photo.png", "output": "after.png", "stamps": [{"id": "s", "image": "green.png", "center": [9, 9]}]}
  ]
}
"""
    with open(os.path.join(work, "manifest.json"), "w") as f:
        f.write(text)
    return text.encode()


class Recorder:
    """`stampcam record` running, and plain HTTP to it (http.client lets a test send any Host or Origin)."""

    def __init__(self, stampcam, arguments, cwd=None, env=None):
        self.process = subprocess.Popen([stampcam, "record", *arguments], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, cwd=cwd,
                                        env=None if env is None else {**os.environ, **env})
        line = self.process.stdout.readline()
        if not line.startswith("open "):
            raise SystemExit(f"test-recorder: stampcam record printed {line!r}: {self.process.stderr.read()}")
        self.url = line.split()[1]
        parsed = urllib.parse.urlsplit(self.url)
        self.host, self.port, self.base = parsed.hostname, parsed.port, parsed.path

    def request(self, method, path, body=None, headers=None, raw=False):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        sent = {"Host": f"{self.host}:{self.port}"}
        if body is not None:
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for key, value in sent.items():
            connection.putheader(key, value)
        if data is not None:
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        content = response.read()
        connection.close()
        return response.status, content if raw else (json.loads(content) if content else None)

    def state(self, page=None):
        """The state of page `page` (an id), or of the page that fed last."""
        status, state = self.request("GET", self.base + "api/state" + (f"/{page}" if page else ""))
        assert status == 200, state
        return state

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def main():
    stampcam, chromium, work = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    screenshot_file = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
    original = fixtures(work)
    manifest = os.path.join(work, "manifest.json")
    recorder = Recorder(stampcam, [manifest, "--job", "rec"])
    browser = Browser(chromium, recorder.url, WIDTH, HEIGHT, os.path.join(work, "profile"))
    try:
        figures = run(recorder, browser, stampcam, work, manifest, original)
        figures["phone"] = phone(browser, recorder)
        two_pages(browser, recorder, os.path.join(work, "profile"))
        recorder.stop()
        recorder = new_job(browser, stampcam, work, screenshot_file)
        recorder.stop()
        recorder = cap(browser, stampcam, work, manifest)
        recorder.stop()
        recorder, folder_figures = folder_job(browser, stampcam, work)
    finally:
        browser.close()
        recorder.stop()
    print(f"frames fed: {figures['frames']}")
    print(f"state mismatches (DOM vs session, after every frame): {figures['mismatches']}")
    print(f"largest centroid error: {figures['centroid']:.3f} CSS px")
    print(f"round trip of a frame: median {figures['median']:.1f} ms, max {figures['max']:.1f} ms")
    print(f"explain vs session (rounded to the 6 places explain prints): largest difference {figures['explain']:.1e}")
    print("security: 6 bad requests refused, the manifest unchanged by them; save changed only the job's gestures")
    print("render: the page's Render equals stampcam render byte for byte")
    print("new job: pinch, drag undone (stamps back exactly), saved into a new manifest that explain replays")
    bar, canvas = figures["phone"]
    print(f"phone (390 x 844): Undo, Save and Render on screen (bottom {bar:.0f} px), the screen {canvas:.0f} px tall, "
          "no scrolling")
    print("two pages at once: each page's finger moved its own stamp only (same finger ids in both)")
    print("event cap (12, for the test): the page says so, the lift is taken, Undo works")
    print(f"folder job: stepped to the landscape photo and back with the keyboard and the buttons, the drag at the "
          f"same view point on both (centroid error {folder_figures['centroid']:.3f} CSS px); the photo bar fits "
          f"{folder_figures['phone']} CSS px; saved once into the job, which renders the page's Render")


def run(recorder, browser, stampcam, work, manifest, original):
    browser.wait_for("typeof recorderIdle === 'function' && recorderIdle() && "
                     "document.querySelectorAll('tr.stamp').length === 2 && document.readyState === 'complete'")
    time.sleep(0.2)  # the photo and stamps decode
    box = browser.evaluate("document.getElementById('screen').getBoundingClientRect().toJSON()")
    view = recorder.state()["view"]
    fit = box["width"] / view[0]
    css = lambda p: (box["x"] + p[0] * fit, box["y"] + p[1] * fit)
    checks = {"frames": 0, "mismatches": 0}

    def compare():
        """(a): the page's stamps and zoom, read from the DOM, against the session's after this frame."""
        page = browser.evaluate("""JSON.stringify({frames: +document.getElementById('frames').dataset.frames,
            zoom: +document.getElementById('zoom').dataset.zoom,
            phases: [...document.querySelectorAll('#phases li')].map(li => li.textContent.split(' ')[0]),
            stamps: [...document.querySelectorAll('tr.stamp')].map(r => [r.dataset.id, +r.dataset.cx, +r.dataset.cy,
              +r.dataset.scale, +r.dataset.rotation])})""")
        page = json.loads(page)
        state = recorder.state()
        session = {"frames": state["frames"], "zoom": state["zoom"], "phases": [e["kind"] for e in state["phases"]],
                   "stamps": [[s["id"], s["center"][0], s["center"][1], s["scale"], s["rotation"]]
                              for s in state["stamps"]]}
        if page != session:
            checks["mismatches"] += 1
            print(f"mismatch:\n  page    {page}\n  session {session}", file=sys.stderr)
        return state

    def frame(send):
        """One frame: sends the input, waits until the page has drawn the server's answer, compares."""
        before = recorder.state()["frames"]
        send()
        browser.wait_for(f"recorderIdle() && +document.getElementById('frames').dataset.frames > {before}")
        checks["frames"] += 1
        return compare()

    def touch(kind, points):
        points = [{"x": css(p)[0], "y": css(p)[1], "id": i} for i, p in points]
        frame(lambda: browser.call("Input.dispatchTouchEvent", type=kind, touchPoints=points))

    def mouse(kind, p, shift, buttons):
        x, y = css(p)
        frame(lambda: browser.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                                   buttons=buttons, clickCount=1, modifiers=8 if shift else 0))

    # A two-finger pinch and turn on the magenta stamp (its scale clamps at 2), moves 16+ px apart, a frame apart.
    centre = (190, 250)
    def pair(r, degrees):
        a = math.radians(degrees)
        return [(0, (centre[0] - r * math.cos(a), centre[1] - r * math.sin(a))),
                (1, (centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)))]
    touch("touchStart", pair(20, 0))
    for k in range(1, 6):
        touch("touchMove", pair(20 + 16 * k, 8 * k))
    state = recorder.state()
    m = next(s for s in state["stamps"] if s["id"] == "m")
    assert m["scale"] == 2 and abs(m["rotation"] - 40) < 1e-3, f"the pinch left {m}"
    touch("touchEnd", [])
    phases = [(e["kind"], e["phase"], e["target"]) for e in recorder.state()["phases"]]
    assert phases == [("pinch", "began", "m"), ("pinch", "changed", "m"), ("pinch", "ended", "m")], phases
    # A one-finger drag of the green stamp.
    start = (270, 560)
    touch("touchStart", [(0, start)])
    for k in range(1, 5):
        touch("touchMove", [(0, (start[0] - 20 * k, start[1] + 20 * k))])
    touch("touchEnd", [])
    g = next(s for s in recorder.state()["stamps"] if s["id"] == "g")
    assert abs(g["center"][0] - (540 - 160)) < 0.05 and abs(g["center"][1] - (1120 + 160)) < 0.05, f"drag left {g}"
    # A Shift+drag pinch with the mouse on the green stamp: a second finger mirrored about where the drag began.
    start = (190, 640)
    mouse("mousePressed", start, True, 1)
    saw_two = False
    for k in range(1, 5):
        a = math.radians(10 * k)
        mouse("mouseMoved", (start[0] + 16 * k * math.cos(a), start[1] + 16 * k * math.sin(a)), True, 1)
        saw_two = saw_two or len(recorder.state()["fingers"]) == 2
    mouse("mouseReleased", (start[0] + 64 * math.cos(math.radians(40)), start[1] + 64 * math.sin(math.radians(40))),
          True, 0)
    g = next(s for s in recorder.state()["stamps"] if s["id"] == "g")
    assert saw_two and g["scale"] == 2 and abs(g["rotation"] - 30) < 1e-3, f"the Shift+drag left {g}"
    # A double tap that zooms in (to 4, the toggle), and a double-click with the mouse that zooms back out.
    zooms = []
    for _ in range(2):
        touch("touchStart", [(0, (195, 800))])
        touch("touchEnd", [])
    zooms.append(recorder.state()["zoom"])
    for _ in range(2):
        mouse("mousePressed", (195, 800), False, 1)
        mouse("mouseReleased", (195, 800), False, 0)
    zooms.append(recorder.state()["zoom"])
    assert zooms == [4, 1], f"the double tap and the double-click zoomed to {zooms}"
    browser.wait_for("recorderIdle()")
    time.sleep(0.5)  # the last item's deadline passes and the page closes it
    browser.wait_for("recorderIdle()")
    state = compare()

    # (c) Each stamp's centroid in a screenshot, against where the session says it is.
    shot = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
    width, height, channels, rows = png.read(shot)
    worst = 0.0
    for stamp in state["stamps"]:
        test = MAGENTA if stamp["id"] == "m" else GREEN
        sx = sy = n = 0
        for y in range(height):
            row = rows[y]
            for x in range(width):
                i = x * channels
                if test(row[i], row[i + 1], row[i + 2]):
                    sx, sy, n = sx + x + 0.5, sy + y + 0.5, n + 1
        assert n > 100, f"stamp {stamp['id']} is not in the screenshot"
        expected = css(stamp["at"])
        error = math.hypot(sx / n - expected[0], sy / n - expected[1])
        worst = max(worst, error)
    assert worst <= 1.5, f"a stamp's centroid is {worst:.2f} CSS px from where the session puts it"

    # Save, with a real click on the button: "unsaved changes" until then, not after.
    assert browser.evaluate("document.getElementById('unsaved').textContent") == "unsaved changes"
    click(browser, "save")
    browser.wait_for("document.getElementById('status').textContent.startsWith('saved')")
    assert browser.evaluate("document.getElementById('unsaved').textContent") == ""
    saved = open(manifest, "rb").read()
    # Only the job's gestures changed: everything before its "gestures" value and after it is as it was.
    at = original.index(b'"gestures": []') + len(b'"gestures": ')
    assert saved[:at] == original[:at] and saved.endswith(original[at + 2:]), "the save changed more than the job"
    # (b) explain on the saved manifest gives the session's stamps and viewport.
    explained = json.loads(subprocess.run([stampcam, "explain", manifest, "--job", "rec"], check=True,
                                          capture_output=True, text=True).stdout)["jobs"][0]
    # explain prints 6 decimal places: the session's values rounded so must be what it prints, to 1e-9.
    differences = [abs(round(state["zoom"], 6) - explained["viewport"]["zoom"])]
    differences += [abs(round(a, 6) - b) for a, b in zip(state["visible"], explained["viewport"]["visible"])]
    assert [s["id"] for s in state["stamps"]] == [s["id"] for s in explained["stamps"]]
    for mine, theirs in zip(state["stamps"], explained["stamps"]):
        differences += [abs(round(mine[key], 6) - theirs[key]) for key in ("scale", "rotation")]
        differences += [abs(round(a, 6) - b) for a, b in zip(mine["center"] + mine["size"], theirs["center"] + theirs["size"])]
    largest = max(differences)
    assert largest <= 1e-9, f"explain differs from the session by {largest}"

    # (d) The page's Render against stampcam render of the saved job, byte for byte.
    click(browser, "render")
    browser.wait_for("(() => { const i = document.getElementById('render-output'); "
                     "return i && i.complete && i.naturalWidth > 0; })()", timeout=60)
    status, page_render = recorder.request("GET", recorder.base + "render/output", raw=True)
    status_view, page_view = recorder.request("GET", recorder.base + "render/view", raw=True)
    assert status == 200 and status_view == 200
    out = os.path.join(work, "out")
    subprocess.run([stampcam, "render", manifest, "--out", out, "--quiet"], check=True)
    assert open(os.path.join(out, "rec.png"), "rb").read() == page_render, "the page's Render differs from render"
    assert open(os.path.join(out, "rec-screen.png"), "rb").read() == page_view, "the view outputs differ"

    # (e) Refused: no token, a wrong token, a foreign Host, a foreign Origin, a body over 1 MB, not JSON.
    before_state = recorder.state()
    base = recorder.base
    port = recorder.port
    refusals = [
        ("POST", "/api/save", {}, {}, 404),
        ("POST", "/" + "0" * 32 + "/api/save", {}, {}, 404),
        ("POST", base + "api/save", {}, {"Host": f"attacker.example:{port}"}, 421),
        ("POST", base + "api/save", {}, {"Origin": "http://attacker.example"}, 403),
        ("POST", base + "api/frames", b"{\"frames\": [" + b" " * (1 << 20) + b"]}", {}, 413),
        ("POST", base + "api/save", b"{}", {"Content-Type": "text/plain"}, 415),
    ]
    for method, path, body, headers, expected in refusals:
        status, _ = recorder.request(method, path, body, headers)
        assert status == expected, f"{method} {path} {headers}: {status}, expected {expected}"
    assert open(manifest, "rb").read() == saved, "a refused request changed the manifest"
    assert recorder.state()["frames"] == before_state["frames"]

    times = browser.evaluate("recorderTimes")
    return {"frames": state["frames"], "mismatches": checks["mismatches"], "centroid": worst,
            "median": statistics.median(times), "max": max(times), "explain": largest, "checked": checks["frames"]}


def new_job(browser, stampcam, work, screenshot_file):
    """A new job from the example photo and two stamps, into a manifest that does not exist yet: a pinch (the
    screenshot the README shows is taken with the fingers down), a drag taken back with Undo, then Save, which writes
    the manifest with the job's files named relative to it; explain then replays the saved job to the page's
    stamps."""
    folder = os.path.join(work, "new")
    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Examples")
    os.makedirs(os.path.join(folder, "stamps"))
    shutil.copytree(os.path.join(examples, "photos"), os.path.join(folder, "photos"))
    for name in ("camera.png", "bookmark.png"):
        shutil.copy(os.path.join(examples, "stamps", name), os.path.join(folder, "stamps"))
    recorder = Recorder(stampcam, ["new.json", "--base", "photos/dragonfly.jpg", "--stamp", "stamps/camera.png",
                                   "--stamp", "stamps/bookmark.png"], cwd=folder)
    browser.call("Page.navigate", url=recorder.url)
    browser.wait_for("typeof recorderIdle === 'function' && recorderIdle() && document.readyState === 'complete' && "
                     "document.querySelectorAll('tr.stamp').length === 2")
    time.sleep(0.3)
    box = browser.evaluate("document.getElementById('screen').getBoundingClientRect().toJSON()")
    fit = box["width"] / recorder.state()["view"][0]
    centre = (130, 422)  # the first stamp: a third of the way across, half way down
    def pinch(kind, r, degrees):
        a = math.radians(degrees)
        points = [{"x": box["x"] + (centre[0] + sign * r * math.cos(a)) * fit,
                   "y": box["y"] + (centre[1] + sign * r * math.sin(a)) * fit, "id": i}
                  for i, sign in enumerate((-1, 1))] if kind != "touchEnd" else []
        before = recorder.state()["frames"]
        browser.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)
        browser.wait_for(f"recorderIdle() && +document.getElementById('frames').dataset.frames > {before}")
    pinch("touchStart", 40, 0)
    for k in range(1, 3):
        pinch("touchMove", 40 + 16 * k, -8 * k)
    state = recorder.state()
    assert len(state["fingers"]) == 2 and abs(state["stamps"][0]["scale"] - 72 / 40) < 1e-3, state
    if screenshot_file:
        with open(screenshot_file, "wb") as f:
            f.write(base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"]))
    pinch("touchEnd", 0, 0)
    state = recorder.state()
    # A drag of the second stamp, then Undo: the page and the session are back where the pinch left them.
    other = (260, 422)
    for kind, p in (("touchStart", other), ("touchMove", (280, 442)), ("touchMove", (300, 462)), ("touchEnd", None)):
        points = [] if p is None else [{"x": box["x"] + p[0] * fit, "y": box["y"] + p[1] * fit, "id": 0}]
        before = recorder.state()["frames"]
        browser.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)
        browser.wait_for(f"recorderIdle() && +document.getElementById('frames').dataset.frames > {before}")
    assert recorder.state()["stamps"][1]["center"] != state["stamps"][1]["center"] and recorder.state()["items"] == 2
    click(browser, "undo")
    browser.wait_for("document.getElementById('status').textContent === 'undone'")
    undone = recorder.state()
    assert undone["stamps"] == state["stamps"] and undone["items"] == 1, undone
    shown = browser.evaluate("[...document.querySelectorAll('tr.stamp')].map(r => +r.dataset.cx)")
    assert shown == [s["center"][0] for s in state["stamps"]], shown
    click(browser, "save")
    browser.wait_for("document.getElementById('status').textContent.startsWith('saved')")
    saved = json.load(open(os.path.join(folder, "new.json")))
    job = saved["jobs"][0]
    assert job["id"] == "recorded" and job["base"] == "photos/dragonfly.jpg", job
    assert [s["image"] for s in job["stamps"]] == ["stamps/camera.png", "stamps/bookmark.png"], job
    explained = json.loads(subprocess.run([stampcam, "explain", "new.json"], check=True, capture_output=True,
                                          text=True, cwd=folder).stdout)["jobs"][0]
    for mine, theirs in zip(state["stamps"], explained["stamps"]):
        for key in ("scale", "rotation"):
            assert abs(round(mine[key], 6) - theirs[key]) <= 1e-9, (mine, theirs)
    return recorder


ORANGE = lambda r, g, b: r > 170 and 90 < g < 150 and b < 50
CYAN = lambda r, g, b: r < 50 and 130 < g < 190 and b > 170
BLACK = lambda r, g, b: r < 20 and g < 20 and b < 20


def folder_job(browser, stampcam, work):
    """A job over two photos of different orientation, a portrait one first and a landscape one second, on a 300 x
    300 screen with its stamp at the middle of each photo: a drag on the first photo; the photo bar steps to the
    second with the keyboard (the index field and Enter); a screenshot shows the second photo where the first had
    its letterbox bar, and the stamp at the same view point; back and forth with the buttons; out-of-range indexes
    refused; Render, Save (the job's gestures written once, the rest of the file as it was), and `stampcam render`
    of the saved manifest gives the page's Render. Returns the figures printed."""
    folder = os.path.join(work, "folder")
    os.makedirs(os.path.join(folder, "in"))
    # 300 x 600 (fit 0.5: shown 150 x 300 with 75-point bars left and right) and 600 x 300 (bars above and below).
    png.write(os.path.join(folder, "in", "a-tall.png"), 300, 600, lambda x, y: (200, 120, 20, 255))
    png.write(os.path.join(folder, "in", "b-wide.png"), 600, 300, lambda x, y: (20, 160, 200, 255))
    png.write(os.path.join(folder, "magenta.png"), 40, 40, lambda x, y: (255, 0, 255, 255))
    text = """{
  "version": 1,
  "jobs": [
    {"id": "one", "base": "in/a-tall.png", "output": "one.png"},
    {
      "id": "wm",
      "photos": "in/*.png",
      "output": "stamped/{stem}.png",
      "view": {"width": 300, "height": 300},
      "stamps": [{"id": "m", "image": "magenta.png", "photoCenter": [0.5, 0.5], "photoWidth": 0.2}],
      "gestures": []
    }
  ]
}
"""
    manifest = os.path.join(folder, "bulk.json")
    with open(manifest, "w") as f:
        f.write(text)
    original = text.encode()
    recorder = Recorder(stampcam, ["bulk.json", "--job", "wm"], cwd=folder)
    browser.call("Page.navigate", url=recorder.url)
    browser.wait_for("typeof recorderIdle === 'function' && recorderIdle() && document.readyState === 'complete' && "
                     "document.getElementById('photobar').dataset.shown === '0' && "
                     "document.querySelectorAll('tr.stamp').length === 1")
    label = lambda: browser.evaluate("document.getElementById('photo-label').textContent")
    assert label() == "photo 1 of 2: a-tall.png", label()
    box = browser.evaluate("document.getElementById('screen').getBoundingClientRect().toJSON()")
    fit = box["width"] / 300
    css = lambda p: (box["x"] + p[0] * fit, box["y"] + p[1] * fit)

    def pixel(shot, p):
        width, height, channels, rows = png.read(shot)
        x, y = (round(v) for v in css(p))
        i = x * channels
        return tuple(rows[y][i:i + 3])

    def screenshot():
        return base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])

    # The first photo: its orange at the top middle, the black bar at the left.
    shot = screenshot()
    assert ORANGE(*pixel(shot, (150, 20))) and BLACK(*pixel(shot, (20, 150))), (pixel(shot, (150, 20)),
                                                                                 pixel(shot, (20, 150)))
    # A drag of the stamp from the middle of the screen by (30, 20) points.
    for kind, p in (("touchStart", (150, 150)), ("touchMove", (165, 160)), ("touchMove", (180, 170)),
                    ("touchEnd", None)):
        points = [] if p is None else [{"x": css(p)[0], "y": css(p)[1], "id": 0}]
        before = recorder.state()["frames"]
        browser.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)
        browser.wait_for(f"recorderIdle() && +document.getElementById('frames').dataset.frames > {before}")
    near = lambda a, b: all(abs(x - y) < 0.01 for x, y in zip(a, b))  # the page's points go through CSS px
    first = recorder.state()["stamps"][0]
    # By hand: the photo's middle (150, 300) moves by (30, 20) / 0.5 = (60, 40) pixels; on screen (180, 170).
    assert near(first["center"], [210, 340]) and near(first["at"], [180, 170]), first

    # To the second photo with the keyboard: the index field, "2", Enter.
    browser.evaluate("document.getElementById('photo-number').focus(); document.getElementById('photo-number')"
                     ".select()")
    browser.call("Input.insertText", text="2")
    for kind in ("keyDown", "keyUp"):
        browser.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13,
                     text="\r" if kind == "keyDown" else "")
    browser.wait_for("document.getElementById('photobar').dataset.shown === '1' && recorderIdle()")
    time.sleep(0.2)
    assert label() == "photo 2 of 2: b-wide.png", label()
    state = recorder.state()
    second = state["stamps"][0]
    # By hand: the landscape photo's middle (300, 150) is at the screen's middle too; it moves by the same (60, 40).
    assert state["job"] == "wm/b-wide.png" and near(second["center"], [360, 190]), state
    # The same touches, so the same view point exactly.
    assert second["at"] == first["at"], (first, second)
    # The screenshot shows the second photo: its blue where the first had its bar, a bar where the first was orange.
    shot = screenshot()
    assert CYAN(*pixel(shot, (20, 150))) and BLACK(*pixel(shot, (150, 20))), (pixel(shot, (20, 150)),
                                                                              pixel(shot, (150, 20)))
    width, height, channels, rows = png.read(shot)
    sx = sy = n = 0
    for y in range(height):
        for x in range(width):
            i = x * channels
            if MAGENTA(rows[y][i], rows[y][i + 1], rows[y][i + 2]):
                sx, sy, n = sx + x + 0.5, sy + y + 0.5, n + 1
    assert n > 100, "the stamp is not on the second photo"
    expected = css(second["at"])
    centroid = math.hypot(sx / n - expected[0], sy / n - expected[1])
    assert centroid <= 1.5, f"the stamp's centroid is {centroid:.2f} CSS px from where the session puts it"

    # Back and forth with the buttons; the ends are disabled.
    assert browser.evaluate("document.getElementById('photo-next').disabled")
    click(browser, "photo-prev")
    browser.wait_for("document.getElementById('photobar').dataset.shown === '0' && recorderIdle()")
    assert label() == "photo 1 of 2: a-tall.png" and recorder.state()["stamps"][0]["center"] == first["center"]
    assert browser.evaluate("document.getElementById('photo-prev').disabled")
    click(browser, "photo-next")
    browser.wait_for("document.getElementById('photobar').dataset.shown === '1' && recorderIdle()")
    # The endpoint refuses an index that names no photo, and a request without the token; nothing changes.
    base = recorder.base
    page = recorder.state()["page"]
    for path, body, expected in ((base + "api/photo", {"index": 2, "page": page}, 422), (base + "api/photo", {"index": -1, "page": page}, 422),
                                 (base + "api/photo", {"index": "b-wide.png", "page": page}, 400),
                                 ("/api/photo", {"index": 0}, 404)):
        status, answer = recorder.request("POST", path, body)
        assert status == expected, (path, body, status, answer)
    assert recorder.state()["job"] == "wm/b-wide.png"

    # The photo bar fits a phone's screen (390 x 844 CSS px).
    browser.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
    overflow = browser.evaluate("Math.max(...[...document.querySelectorAll('#photobar > *')].map(e => "
                                "e.getBoundingClientRect().right))")
    assert overflow <= 390, f"the photo bar reaches {overflow} CSS px on a 390-px screen"
    browser.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1, mobile=False)

    # Render the photo shown, then Save.
    click(browser, "render")
    browser.wait_for("(() => { const i = document.getElementById('render-output'); "
                     "return i && i.complete && i.naturalWidth > 0; })()", timeout=60)
    status, page_render = recorder.request("GET", base + "render/output", raw=True)
    assert status == 200
    click(browser, "save")
    browser.wait_for("document.getElementById('status').textContent.startsWith('saved')")
    saved = open(manifest, "rb").read()
    at = original.index(b'"gestures": []') + len(b'"gestures": ')
    assert saved[:at] == original[:at] and saved.endswith(original[at + 2:]), "the save changed more than the job"
    job = json.loads(saved)["jobs"][1]
    assert job["photos"] == "in/*.png" and job["output"] == "stamped/{stem}.png" and len(job["gestures"]) == 1, job
    assert "touches" in job["gestures"][0] and b"wm/" not in saved
    out = os.path.join(folder, "out")
    subprocess.run([stampcam, "render", "bulk.json", "--out", out, "--quiet"], check=True, cwd=folder)
    assert open(os.path.join(out, "stamped", "b-wide.png"), "rb").read() == page_render, \
        "the page's Render of the second photo differs from render"
    return recorder, {"centroid": centroid, "phone": math.ceil(overflow)}


def phone(browser, recorder):
    """(f) The page at a phone's size (390 x 844 CSS px, 3 device pixels each): Undo, Save and Render lie inside the
    window without scrolling, and the screen fills what is left below them."""
    browser.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=3, mobile=True)
    try:
        browser.call("Page.reload")
        browser.wait_for("typeof recorderIdle === 'function' && recorderIdle() && document.readyState === 'complete' "
                         "&& document.querySelectorAll('tr.stamp').length === 2")
        time.sleep(0.2)
        boxes = browser.evaluate("JSON.stringify(['undo', 'save', 'render', 'screen'].map(id => "
                                 "document.getElementById(id).getBoundingClientRect().toJSON()))")
        undo, save, render, screen = json.loads(boxes)
        inner = json.loads(browser.evaluate("JSON.stringify([innerWidth, innerHeight, scrollY])"))
        assert inner == [390, 844, 0], inner
        for name, box in (("Undo", undo), ("Save", save), ("Render", render), ("the screen", screen)):
            assert box["x"] >= 0 and box["y"] >= 0 and box["right"] <= 390 and box["bottom"] <= 844, (name, box)
        assert screen["top"] >= save["bottom"], (screen, save)
        assert screen["height"] >= 0.75 * 844 or screen["width"] >= 0.9 * 390, screen
        # The hints a first-time user needs: what a pinch does, the table's units, how to stop the recorder.
        assert browser.evaluate("document.getElementById('pinch-hint').textContent").startswith("Two fingers")
        assert "photo px" in browser.evaluate("document.querySelector('thead').textContent")
        assert "390 \u00D7 844 points" in browser.evaluate("document.getElementById('units').textContent")
        assert "Ctrl-C" in browser.evaluate("document.getElementById('stop-hint').textContent")
        return max(undo["bottom"], save["bottom"], render["bottom"]), screen["height"]
    finally:
        browser.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1,
                     mobile=False)
        browser.call("Page.reload")
        browser.wait_for("typeof recorderIdle === 'function' && recorderIdle() && document.readyState === 'complete'")


def two_pages(browser, recorder, profile):
    """(g) A second page, in another window, open at once: each page puts its finger 0 (the same id in both) on a
    different stamp and drags it; each page's stamp moves by its own finger's motion, the other page's stamp not at
    all, in its own recording."""
    tab = Tab(browser, recorder.url, WIDTH, HEIGHT)
    try:
        pages = []
        for page in (browser, tab):
            page.wait_for("typeof recorderIdle === 'function' && recorderIdle() && recorderPage() !== null && "
                          "document.readyState === 'complete'")
            pages.append(page.evaluate("recorderPage()"))
        assert pages[0] != pages[1], pages
        start = {p: {s["id"]: s for s in recorder.state(p)["stamps"]} for p in pages}
        boxes = [json.loads(page.evaluate("JSON.stringify(document.getElementById('screen').getBoundingClientRect()"
                                          ".toJSON())")) for page in (browser, tab)]
        fits = [box["width"] / recorder.state(p)["view"][0] for box, p in zip(boxes, pages)]
        # Page A holds stamp m, page B stamp g, by their centres' view points; both fingers down at once.
        targets = ["m", "g"]
        def touch(index, kind, offset):
            page, box, fit, p = (browser, tab)[index], boxes[index], fits[index], pages[index]
            at = start[p][targets[index]]["at"]
            points = [] if kind == "touchEnd" else [{"x": box["x"] + (at[0] + offset) * fit,
                                                      "y": box["y"] + at[1] * fit, "id": 0}]
            before = recorder.state(p)["frames"]
            page.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)
            page.wait_for(f"recorderIdle() && +document.getElementById('frames').dataset.frames > {before}")
        touch(0, "touchStart", 0)
        touch(1, "touchStart", 0)
        for k in range(1, 4):
            touch(0, "touchMove", 12 * k)
            touch(1, "touchMove", -12 * k)
        assert len(recorder.state(pages[0])["fingers"]) == 1 and len(recorder.state(pages[1])["fingers"]) == 1
        touch(0, "touchEnd", 0)
        touch(1, "touchEnd", 0)
        for index, p in enumerate(pages):
            now = {s["id"]: s for s in recorder.state(p)["stamps"]}
            moved, still = targets[index], targets[1 - index]
            dx = now[moved]["at"][0] - start[p][moved]["at"][0]
            assert abs(dx - (36 if index == 0 else -36)) < 0.05, (p, moved, dx)
            assert now[moved]["scale"] == start[p][moved]["scale"], now[moved]
            assert now[still] == start[p][still], (p, still, now[still], start[p][still])
    finally:
        tab.close()


def cap(browser, stampcam, work, manifest):
    """(h) A recorder whose pages may feed 12 touch events (set for tests only, by the environment): a finger drags
    until the cap refuses its moves; the page says the limit was reached, the lift is still taken (no finger stays
    down), and Undo then works."""
    recorder = Recorder(stampcam, [manifest, "--job", "rec"], env={"STAMPCAM_TEST_RECORD_MAX_EVENTS": "12"})
    browser.call("Page.navigate", url=recorder.url)
    browser.wait_for("typeof recorderIdle === 'function' && recorderIdle() && document.readyState === 'complete' && "
                     "document.querySelectorAll('tr.stamp').length === 2")
    box = browser.evaluate("document.getElementById('screen').getBoundingClientRect().toJSON()")
    state = recorder.state()
    fit = box["width"] / state["view"][0]
    items = state["items"]
    at = state["stamps"][1]["at"]
    def touch(kind, dx):
        points = [] if kind == "touchEnd" else [{"x": box["x"] + (at[0] + dx) * fit, "y": box["y"] + at[1] * fit,
                                                  "id": 0}]
        browser.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)
        browser.wait_for("recorderIdle()")
    touch("touchStart", 0)
    for k in range(1, 16):
        touch("touchMove", 4 * k)
    state = recorder.state()
    assert state["capped"] and state["events"] == 12 and len(state["fingers"]) == 1, state
    browser.wait_for("document.getElementById('notice').textContent.includes('limit of 12 touch events')")
    touch("touchEnd", 0)
    state = recorder.state()
    assert state["fingers"] == [] and state["items"] == items + 1 and state["events"] == 13, state
    click(browser, "undo")
    try:
        browser.wait_for("document.getElementById('status').textContent === 'undone'")
    except TimeoutError:
        raise SystemExit("test-recorder: Undo after the cap: " + browser.evaluate(
            "document.getElementById('status').textContent + ' / disabled: ' + document.getElementById('undo').disabled"))
    assert recorder.state()["items"] == items
    return recorder


def click(browser, element):
    box = browser.evaluate(f"document.getElementById('{element}').getBoundingClientRect().toJSON()")
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for kind, buttons in (("mousePressed", 1), ("mouseReleased", 0)):
        browser.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", buttons=buttons, clickCount=1)


if __name__ == "__main__":
    main()
