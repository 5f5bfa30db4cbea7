#!/usr/bin/python3
"""render-blind: an independent renderer of Korean taxi meters and receipts.

Written without reading the project's extraction code or its own renderer
(issue 15, section 1). Draws photo-like images with their ground truth:

  render-blind --out DIR --count N --seed S [--kind taxi|receipt|all] [--jobs J]

Each image NAME.jpg (or NAME.png) gets NAME.json in the label format of
testdata/extract. Uses only Debian's python3-pil and python3-numpy.
"""
import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont, ImageChops

# --------------------------------------------------------------------------
# Fonts

FONT_DIRS = ["/usr/share/fonts/truetype", "/usr/share/fonts/opentype"]

# (path, ttc index). Print-like Korean faces only (no brush/pen faces for
# receipts); the list is filtered by what is installed.
_RECEIPT_FONTS = [
    ("unfonts-core/UnDotum.ttf", 0), ("unfonts-core/UnDotumBold.ttf", 0),
    ("unfonts-core/UnBatang.ttf", 0), ("unfonts-core/UnBatangBold.ttf", 0),
    ("unfonts-core/UnGraphic.ttf", 0), ("unfonts-core/UnGraphicBold.ttf", 0),
    ("unfonts-core/UnDinaru.ttf", 0), ("unfonts-core/UnDinaruBold.ttf", 0),
    ("unfonts-extra/UnShinmun.ttf", 0), ("unfonts-extra/UnTaza.ttf", 0),
    ("baekmuk/gulim.ttf", 0), ("baekmuk/dotum.ttf", 0), ("baekmuk/batang.ttf", 0),
    ("nanum/NanumGothic.ttf", 0), ("nanum/NanumGothicBold.ttf", 0),
    ("nanum/NanumGothicCoding.ttf", 0), ("nanum/NanumGothicCodingBold.ttf", 0),
    ("nanum/NanumMyeongjo.ttf", 0), ("nanum/NanumBarunGothic.ttf", 0),
    ("nanum/NanumSquareR.ttf", 0), ("nanum/NanumSquare_acR.ttf", 0),
    ("nanum/NanumSquareRoundR.ttf", 0), ("nanum/NanumGothicEcoR.ttf", 0),
    ("noto/NotoSansCJK-Regular.ttc", 1), ("noto/NotoSansCJK-Regular.ttc", 6),
    ("noto/NotoSerifCJK-Regular.ttc", 1), ("noto/NotoSansCJK-Bold.ttc", 1),
]
_UI_FONTS = [
    ("noto/NotoSansCJK-Regular.ttc", 1), ("noto/NotoSansCJK-Bold.ttc", 1),
    ("nanum/NanumBarunGothic.ttf", 0), ("nanum/NanumBarunGothicBold.ttf", 0),
    ("nanum/NanumSquareB.ttf", 0), ("nanum/NanumSquareRoundB.ttf", 0),
    ("nanum/NanumGothicBold.ttf", 0), ("unfonts-core/UnDotumBold.ttf", 0),
]


def _find(rel):
    for d in FONT_DIRS:
        p = os.path.join(d, rel)
        if os.path.exists(p):
            return p
    return None


_font_cache = {}


def font(spec, size):
    key = (spec, int(size))
    f = _font_cache.get(key)
    if f is None:
        f = ImageFont.truetype(spec[0], int(size), index=spec[1])
        _font_cache[key] = f
    return f


def _has_glyph(spec, ch):
    f = font(spec, 32)
    a = f.getmask(ch)
    b = f.getmask("\U000E0FFF")  # unassigned: draws .notdef
    if a.size[0] == 0:
        return False
    return not (a.size == b.size and bytes(a) == bytes(b))


def available(lst):
    out = []
    for rel, idx in lst:
        p = _find(rel)
        if p:
            out.append((p, idx))
    return out


RECEIPT_FONTS = []
UI_FONTS = []
WON_OK = {}  # spec -> set of currency signs the face has


def init_fonts():
    global RECEIPT_FONTS, UI_FONTS
    RECEIPT_FONTS = available(_RECEIPT_FONTS)
    UI_FONTS = available(_UI_FONTS) or RECEIPT_FONTS
    if not RECEIPT_FONTS:
        sys.exit("render-blind: no Korean font found (install fonts-nanum, fonts-unfonts-core, ...)")
    for s in RECEIPT_FONTS + UI_FONTS:
        if s not in WON_OK:
            WON_OK[s] = {c for c in "₩￦" if _has_glyph(s, c)}


# --------------------------------------------------------------------------
# Geometry and image helpers

def homography(src, dst):
    """Coefficients for PIL PERSPECTIVE mapping dst (output) -> src (input)."""
    A, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return np.linalg.solve(np.array(A, float), np.array(b, float)).tolist()


def project_quad(w, h, yaw, pitch, roll, f=1.6):
    """Corners of a w x h plane rotated in 3D (degrees), perspective-projected."""
    yaw, pitch, roll = map(math.radians, (yaw, pitch, roll))
    s = max(w, h)
    F = f * s
    pts = []
    for x, y in [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]:
        # roll (z), then pitch (x), then yaw (y)
        x1 = x * math.cos(roll) - y * math.sin(roll)
        y1 = x * math.sin(roll) + y * math.cos(roll)
        z1 = 0.0
        y2 = y1 * math.cos(pitch) - z1 * math.sin(pitch)
        z2 = y1 * math.sin(pitch) + z1 * math.cos(pitch)
        x3 = x1 * math.cos(yaw) + z2 * math.sin(yaw)
        z3 = -x1 * math.sin(yaw) + z2 * math.cos(yaw)
        Z = F + z3
        pts.append((F * x3 / Z, F * y2 / Z))
    return pts


def place(bg, obj, rng, yaw=0, pitch=0, roll=0, fill=0.8, center_jitter=0.05):
    """Perspective-place RGBA obj onto RGB bg; returns (bg, quad in bg coords)."""
    W, H = bg.size
    w, h = obj.size
    q = project_quad(w, h, yaw, pitch, roll)
    xs = [p[0] for p in q]; ys = [p[1] for p in q]
    qw, qh = max(xs) - min(xs), max(ys) - min(ys)
    sc = min(W * fill / qw, H * fill / qh)
    cx = W / 2 + rng.uniform(-center_jitter, center_jitter) * W
    cy = H / 2 + rng.uniform(-center_jitter, center_jitter) * H
    mx, my = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    dst = [((x - mx) * sc + cx, (y - my) * sc + cy) for x, y in q]
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    coef = homography(src, dst)
    warped = obj.transform((W, H), Image.PERSPECTIVE, coef, Image.BICUBIC)
    bg = bg.convert("RGBA")
    bg.alpha_composite(warped)
    return bg.convert("RGB"), dst


def value_noise(rng, w, h, cells, octaves=3):
    """Smooth noise in [0,1] of shape (h, w)."""
    acc = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    for o in range(octaves):
        c = max(2, int(cells * (2 ** o)))
        g = np.array([[rng.random() for _ in range(c + 1)] for _ in range(c + 1)], np.float32)
        im = Image.fromarray((g * 255).astype(np.uint8), "L").resize((w, h), Image.BICUBIC)
        acc += amp * np.asarray(im, np.float32) / 255.0
        tot += amp
        amp *= 0.5
    return acc / tot


def remap(arr, mx, my):
    """Bilinear sample arr (h,w,c) at float coords mx,my (h,w)."""
    h, w = arr.shape[:2]
    mx = np.clip(mx, 0, w - 1.001); my = np.clip(my, 0, h - 1.001)
    x0 = mx.astype(np.int32); y0 = my.astype(np.int32)
    fx = (mx - x0)[..., None]; fy = (my - y0)[..., None]
    a = arr[y0, x0]; b = arr[y0, x0 + 1]; c = arr[y0 + 1, x0]; d = arr[y0 + 1, x0 + 1]
    top = a * (1 - fx) + b * fx
    bot = c * (1 - fx) + d * fx
    return top * (1 - fy) + bot * fy


def radial_glare(size, cx, cy, rx, ry, strength, angle=0.0):
    W, H = size
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    ca, sa = math.cos(angle), math.sin(angle)
    dx, dy = xx - cx, yy - cy
    u = (dx * ca + dy * sa) / rx
    v = (-dx * sa + dy * ca) / ry
    return strength * np.exp(-(u * u + v * v) * 2.0)


def add_glare(img, rng, strength=None, streak=None):
    W, H = img.size
    a = np.asarray(img, np.float32)
    s = strength if strength is not None else rng.uniform(0.15, 0.6)
    g = radial_glare((W, H), rng.uniform(0.1, 0.9) * W, rng.uniform(0.1, 0.9) * H,
                     rng.uniform(0.08, 0.35) * W, rng.uniform(0.05, 0.25) * H, s,
                     rng.uniform(0, math.pi))
    if streak if streak is not None else rng.random() < 0.5:
        # a long reflection band across the glass
        g += radial_glare((W, H), rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H,
                          rng.uniform(0.6, 1.2) * W, rng.uniform(0.02, 0.06) * H,
                          s * rng.uniform(0.3, 0.7), rng.uniform(-0.8, 0.8))
    a = a + g[..., None] * (255 - a) * 0.9
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def add_moire(img, rng, strength=None):
    W, H = img.size
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    s = strength if strength is not None else rng.uniform(0.04, 0.16)
    f1 = rng.uniform(0.15, 0.45); th = rng.uniform(0, math.pi)
    warp = 6 * value_noise(rng, W, H, 2, 1)
    p = np.sin(2 * math.pi * f1 * (xx * math.cos(th) + yy * math.sin(th)) + warp)
    f2 = f1 * rng.uniform(0.9, 1.1); th2 = th + rng.uniform(0.03, 0.15)
    p2 = np.sin(2 * math.pi * f2 * (xx * math.cos(th2) + yy * math.sin(th2)))
    m = 1 + s * (p * p2)
    a = np.asarray(img, np.float32)
    if rng.random() < 0.5:  # colour fringes: RGB channels shifted in phase
        m3 = np.stack([m, 1 + s * np.sin(2 * math.pi * f1 * xx * 0.5 + 2.1) * p2,
                       1 + s * np.sin(2 * math.pi * f1 * xx * 0.5 + 4.2) * p2], -1)
        a = a * m3
    else:
        a = a * m[..., None]
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def add_shadow(img, rng, strength=None):
    """A soft cast shadow (hand, phone, head) over part of the scene."""
    W, H = img.size
    m = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(m)
    side = rng.choice(["l", "r", "t", "b", "blob"])
    if side == "blob":
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        r = rng.uniform(0.2, 0.5) * max(W, H)
        d.ellipse([cx - r, cy - r * 0.7, cx + r, cy + r * 0.7], fill=255)
    else:
        k = rng.uniform(0.15, 0.55)
        j = rng.uniform(-0.25, 0.25)
        if side == "l":
            poly = [(0, 0), (W * (k + j), 0), (W * (k - j), H), (0, H)]
        elif side == "r":
            poly = [(W, 0), (W * (1 - k - j), 0), (W * (1 - k + j), H), (W, H)]
        elif side == "t":
            poly = [(0, 0), (W, 0), (W, H * (k + j)), (0, H * (k - j))]
        else:
            poly = [(0, H), (W, H), (W, H * (1 - k - j)), (0, H * (1 - k + j))]
        d.polygon(poly, fill=255)
    m = m.filter(ImageFilter.GaussianBlur(rng.uniform(0.02, 0.08) * max(W, H)))
    s = strength if strength is not None else rng.uniform(0.15, 0.5)
    a = np.asarray(img, np.float32)
    k = 1 - s * np.asarray(m, np.float32)[..., None] / 255.0
    return Image.fromarray(np.clip(a * k, 0, 255).astype(np.uint8))


def lighting(img, rng, lo=0.75, hi=1.1):
    W, H = img.size
    n = value_noise(rng, W, H, 1.5, 2)
    k = lo + (hi - lo) * n
    tint = np.array([rng.uniform(0.94, 1.04), 1.0, rng.uniform(0.9, 1.04)], np.float32)
    a = np.asarray(img, np.float32) * k[..., None] * tint
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def camera_finish(img, rng, blur=(0.0, 1.4), noise=(2.0, 9.0)):
    b = rng.uniform(*blur)
    if rng.random() < 0.2:  # motion blur: a short line kernel
        k = rng.choice([3, 5])
        ker = [0.0] * (k * k)
        if rng.random() < 0.5:
            for i in range(k):
                ker[(k // 2) * k + i] = 1.0 / k
        else:
            for i in range(k):
                ker[i * k + i] = 1.0 / k
        img = img.filter(ImageFilter.Kernel((k, k), ker, scale=1.0))
    if b > 0.25:
        img = img.filter(ImageFilter.GaussianBlur(b))
    a = np.asarray(img, np.float32)
    sd = rng.uniform(*noise)
    nrng = np.random.default_rng(rng.getrandbits(32))
    a = a + nrng.normal(0, sd, a.shape[:2])[..., None] * rng.uniform(0.6, 1.0) \
        + nrng.normal(0, sd * 0.4, a.shape)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def background(rng, W, H, kind=None):
    """A surface under the object: desk, wood, cloth, car dashboard."""
    kind = kind or rng.choice(["wood", "desk", "cloth", "dark", "stone"])
    sw, sh = max(4, W // 4), max(4, H // 4)
    n = value_noise(rng, sw, sh, 3, 4)
    if kind == "wood":
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        base = np.array([rng.uniform(120, 180), rng.uniform(80, 120), rng.uniform(40, 80)])
        rings = 0.5 + 0.5 * np.sin(yy * rng.uniform(0.15, 0.5) + n * 8)
        a = base * (0.75 + 0.35 * rings[..., None])
    elif kind == "desk":
        g = rng.uniform(150, 230)
        base = np.array([g, g * rng.uniform(0.95, 1.02), g * rng.uniform(0.9, 1.02)])
        a = base * (0.9 + 0.15 * n[..., None])
    elif kind == "cloth":
        base = np.array([rng.uniform(30, 200) for _ in range(3)])
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        weave = 0.5 + 0.25 * (np.sin(xx * 1.7) + np.sin(yy * 1.7))
        a = base * (0.8 + 0.2 * weave[..., None] + 0.15 * n[..., None])
    elif kind == "stone":
        g = rng.uniform(90, 170)
        a = np.array([g, g, g * 0.97]) * (0.7 + 0.5 * n[..., None])
    else:  # dark plastic / dashboard
        g = rng.uniform(15, 55)
        a = np.array([g, g * 1.02, g * 1.05]) * (0.8 + 0.4 * n[..., None])
    im = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).resize((W, H), Image.BILINEAR)
    return im


def save(img, path_noext, rng, label, png_share=0.1):
    if rng.random() < png_share:
        img.save(path_noext + ".png", optimize=False)
    else:
        img.save(path_noext + ".jpg", quality=rng.randint(50, 90),
                 subsampling=rng.choice([0, 1, 2]))
    with open(path_noext + ".json", "w", encoding="utf-8") as f:
        json.dump(label, f, ensure_ascii=False, indent=2, sort_keys=True)
        f.write("\n")


# --------------------------------------------------------------------------
# Seven-segment faces, drawn as separate polygons

SEGS = {
    "0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc",
    "5": "afgcd", "6": "afgedc", "7": "abc", "8": "abcdefg", "9": "abcdfg",
    "-": "g", " ": "",
}


class Face:
    """One seven-segment style: proportions, stroke, gap, slant, ends."""

    def __init__(self, rng, h):
        self.h = h
        self.w = h * rng.uniform(0.46, 0.62)
        self.t = h * rng.choice([rng.uniform(0.06, 0.1), rng.uniform(0.1, 0.15), rng.uniform(0.15, 0.21)])
        self.t = min(self.t, self.w * 0.26)  # keep segments longer than wide
        self.gap = self.t * rng.uniform(0.05, 0.25)
        self.slant = rng.choice([0.0, 0.0, rng.uniform(0.06, 0.2)])
        self.ends = rng.choice(["hex", "hex", "flat", "bevel"])
        self.seven_f = rng.random() < 0.3   # 7 with the top-left stroke
        self.six_a = rng.random() < 0.85    # 6 with its top bar
        self.nine_d = rng.random() < 0.85   # 9 with its bottom bar
        self.pitch = self.w * rng.uniform(1.2, 1.55)

    def segs(self, ch):
        s = SEGS.get(ch, "")
        if ch == "7" and self.seven_f:
            s += "f"
        if ch == "6" and not self.six_a:
            s = s.replace("a", "")
        if ch == "9" and not self.nine_d:
            s = s.replace("d", "")
        return s

    def _hseg(self, x0, x1, yc):
        t, g = self.t, self.gap
        x0 += g; x1 -= g
        h2 = t / 2
        if self.ends == "flat":
            return [(x0 + h2 * 0.3, yc - h2), (x1 - h2 * 0.3, yc - h2), (x1 - h2 * 0.3, yc + h2), (x0 + h2 * 0.3, yc + h2)]
        if self.ends == "bevel":
            return [(x0 + h2, yc - h2), (x1 - h2, yc - h2), (x1, yc), (x1 - h2 * 0.4, yc + h2),
                    (x0 + h2 * 0.4, yc + h2), (x0, yc)]
        return [(x0, yc), (x0 + h2, yc - h2), (x1 - h2, yc - h2), (x1, yc), (x1 - h2, yc + h2), (x0 + h2, yc + h2)]

    def _vseg(self, xc, y0, y1):
        return [(y, x) for x, y in self._hseg(y0, y1, xc)]

    def polygons(self, ch, x, y):
        """Segment polygons of ch with its cell's top-left at (x, y)."""
        w, h, t = self.w, self.h, self.t
        L, R = t / 2, w - t / 2
        T, M, B = t / 2, h / 2, h - t / 2
        raw = {
            "a": self._hseg(L, R, T), "g": self._hseg(L, R, M), "d": self._hseg(L, R, B),
            "f": self._vseg(L, T, M), "b": self._vseg(R, T, M),
            "e": self._vseg(L, M, B), "c": self._vseg(R, M, B),
        }
        out = {}
        for k, poly in raw.items():
            out[k] = [(x + px + (h - py) * self.slant, y + py) for px, py in poly]
        return out

    def draw(self, d, ch, x, y, lit, unlit):
        on = self.segs(ch)
        for k, poly in self.polygons(ch, x, y).items():
            if k in on:
                d.polygon(poly, fill=lit)
            elif unlit is not None:
                d.polygon(poly, fill=unlit)

    def dot(self, d, x, y, col, comma=False):
        r = self.t * 0.55
        cx = x + self.slant * r
        d.ellipse([cx - r, y - r, cx + r, y + r], fill=col) if rng_round(self) else \
            d.rectangle([cx - r, y - r, cx + r, y + r], fill=col)
        if comma:
            d.polygon([(cx + r * 0.2, y + r * 0.6), (cx + r, y + r * 0.3),
                       (cx - r * 0.6 - self.slant * r * 2, y + r * 2.6)], fill=col)

    def colon(self, d, x, y, col):
        r = self.t * 0.5
        for yy in (y + self.h * 0.32, y + self.h * 0.7):
            sx = x + (self.h - (yy - y)) * self.slant
            d.rectangle([sx - r, yy - r, sx + r, yy + r], fill=col)


def rng_round(face):
    return face.ends != "flat"


def draw_counter(d, face, text, x, y, lit, unlit, comma_slots=None):
    """Draw a seven-segment string (digits, ',', '.', ':', ' ') at (x, y).

    comma_slots: positions (after cell i) where the display has a comma
    element; it is drawn lit when text has a comma there, else unlit.
    Returns the x after the last cell."""
    cells = []
    marks = {}
    for ch in text:
        if ch in ",.:" and cells:
            marks[len(cells) - 1] = ch
        else:
            cells.append(ch)
    cx = x
    for i, ch in enumerate(cells):
        face.draw(d, ch, cx, y, lit, unlit)
        mark = marks.get(i)
        mx = cx + face.w + (face.pitch - face.w) / 2 - face.slant * face.h * 0.02
        if mark is not None and mark in ",.":
            face.dot(d, mx, y + face.h - face.t * 0.55, lit, comma=(mark == ","))
        elif mark == ":":
            face.colon(d, mx, y, lit)
        elif comma_slots and i in comma_slots and unlit is not None:
            face.dot(d, mx, y + face.h - face.t * 0.55, unlit, comma=True)
        cx += face.pitch
    return cx


def group(n):
    return f"{n:,}"


# --------------------------------------------------------------------------
# Taxi meters

LED_COLOURS = [(255, 40, 30), (255, 60, 40), (60, 255, 90), (40, 230, 120),
               (255, 170, 20), (255, 140, 0), (255, 200, 60)]


def taxi_amount(rng):
    # base fare ~4,800, most rides 5,000-40,000, some long rides to 150,000
    r = rng.random()
    if r < 0.6:
        v = rng.uniform(4800, 25000)
    elif r < 0.9:
        v = rng.uniform(25000, 70000)
    else:
        v = rng.uniform(70000, 150000)
    return int(round(v / 100.0)) * 100


def second_counter(rng):
    """Text of a smaller counter: distance, time or surcharge percentage."""
    k = rng.choice(["km", "time", "pct", "km", "time"])
    if k == "km":
        return k, f"{rng.uniform(0.5, 95):.1f}" if rng.random() < 0.8 else f"{rng.uniform(0.5, 95):.2f}"
    if k == "time":
        m = rng.randint(1, 150)
        return k, f"{m // 60}:{m % 60:02d}" if rng.random() < 0.5 else f"{m:02d}:{rng.randint(0, 59):02d}"
    return k, rng.choice(["20", "40", "0"])


def render_meter_display(rng, amount, lcd):
    """The meter face itself (RGBA), at ~2x, with its bezel and labels."""
    S = 2
    digits = str(amount)
    ncells = rng.randint(max(4, len(digits)), 7)
    commas = rng.random() < 0.5
    dh = rng.uniform(70, 110) * S
    face = Face(rng, dh)
    text = digits
    if commas:
        text = group(amount)
    pad_cells = ncells - len(digits)
    fare_text = " " * pad_cells + text
    # display comma elements: after cells whose right side has 3k digits
    comma_slots = {i for i in range(ncells - 1) if (ncells - 1 - i) % 3 == 0}

    # colours
    if lcd:
        bgc = rng.choice([(150, 170, 120), (165, 180, 140), (175, 178, 170), (160, 165, 160), (185, 190, 165)])
        bgc = tuple(int(c * rng.uniform(0.8, 1.08)) for c in bgc)
        ink = tuple(int(c * rng.uniform(0.1, 0.35)) for c in bgc)
        contrast = rng.uniform(0.0, 0.15)
        unlit = tuple(int(b + (i - b) * contrast) for b, i in zip(bgc, ink)) if contrast > 0.03 else None
        lit = ink
    else:
        bgc = tuple(rng.randint(3, 25) for _ in range(3))
        base = rng.choice(LED_COLOURS)
        br = rng.uniform(0.65, 1.0)
        lit = tuple(int(c * br) for c in base)
        # unlit/lit ratio: from invisible to a barely visible difference
        r = rng.choice([rng.uniform(0.0, 0.08), rng.uniform(0.08, 0.22), rng.uniform(0.22, 0.38)])
        unlit = tuple(int(b + (c - b) * r) for b, c in zip(bgc, lit)) if r > 0.02 else None

    small = second_counter(rng) if rng.random() < 0.8 else None
    face2 = Face(rng, dh * rng.uniform(0.35, 0.55)) if small else None
    if face2 and rng.random() < 0.6:  # same family as the fare
        face2.slant, face2.ends, face2.gap = face.slant, face.ends, face2.t * face.gap / face.t

    won_style = rng.choice(["lit", "lit", "lit", "bezel", "none"]) if not lcd else rng.choice(["lit", "bezel", "none"])
    ui = rng.choice(UI_FONTS)
    fare_w = ncells * face.pitch + face.h * face.slant
    won_w = dh * 0.7 if won_style == "lit" else 0
    margin = dh * rng.uniform(0.25, 0.5)
    top_h = (face2.h + dh * 0.35) if small else dh * rng.uniform(0.1, 0.3)
    win_w = fare_w + won_w + 2 * margin
    win_h = dh + top_h + 2 * margin * 0.8
    bez = dh * rng.uniform(0.35, 0.8)
    W, H = int(win_w + 2 * bez), int(win_h + 2 * bez + dh * 0.25)
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    bzc = tuple(rng.randint(15, 70) for _ in range(1)) * 3 if rng.random() < 0.8 else (rng.randint(150, 210),) * 3
    rad = int(bez * 0.5)
    d.rounded_rectangle([0, 0, W - 1, H - 1], radius=rad, fill=bzc + (255,))
    # bevel highlight
    d.rounded_rectangle([3, 3, W - 4, H - 4], radius=rad, outline=tuple(min(255, c + 35) for c in bzc) + (255,), width=max(2, S * 2))
    wx0, wy0 = bez, bez
    d.rectangle([wx0, wy0, wx0 + win_w, wy0 + win_h], fill=bgc + (255,))
    lab_col = (230, 230, 230, 255) if sum(bzc) < 300 else (30, 30, 30, 255)
    lf = font(ui, dh * 0.22)
    d.text((wx0, bez * 0.15), rng.choice(["요 금", "요금", "택시요금", "FARE  요금", "미터요금"]), font=lf, fill=lab_col)
    brand = rng.choice(["KTM-3000", "한국미터 HM-7", "TX-900 택시미터", "SEOUL TAXI", "대한계기 DM-50", "MT-2024", ""])
    if brand:
        d.text((wx0 + win_w * 0.55, wy0 + win_h + bez * 0.15), brand, font=font(ui, dh * 0.18), fill=lab_col)

    # small counter row
    if small:
        kind, stxt = small
        sy = wy0 + margin * 0.6
        sx = wx0 + margin
        lab = {"km": rng.choice(["거리", "주행거리", "km"]), "time": rng.choice(["시간", "운행시간", "대기"]),
               "pct": rng.choice(["할증", "할증%"])}[kind]
        lab_f = font(ui, face2.h * 0.55)
        if rng.random() < 0.5:
            d.text((sx, sy + face2.h * 0.2), lab, font=lab_f, fill=lit + (255,) if not lcd else ink + (255,))
            sx += lab_f.getlength(lab) + face2.w * 0.6
        else:
            d.text((sx, wy0 - bez * 0.02 - lab_f.size), "", font=lab_f, fill=lab_col)
        end = draw_counter(d, face2, stxt, sx, sy, lit + (255,), (unlit + (255,)) if unlit else None)
        unit = {"km": "km", "time": "", "pct": "%"}[kind]
        if unit:
            d.text((end + face2.w * 0.1, sy + face2.h * 0.35), unit, font=font(ui, face2.h * 0.5), fill=lit + (255,))
        # status lamps: 할증 / 빈차 / 주행
        lamps = rng.sample(["할증", "빈차", "주행", "호출", "심야"], rng.randint(1, 3))
        lx = wx0 + win_w - margin
        for lamp in lamps:
            on = rng.random() < 0.4
            lf2 = font(ui, face2.h * 0.5)
            lx -= lf2.getlength(lamp) + face2.w * 0.6
            col = lit if on else (unlit if unlit else tuple(int(b + (c - b) * 0.15) for b, c in zip(bgc, lit)))
            d.text((lx, sy + face2.h * 0.25), lamp, font=lf2, fill=col + (255,))
    # fare
    fy = wy0 + top_h + margin * 0.4
    fx = wx0 + margin
    wonf = font(ui, dh * rng.uniform(0.38, 0.55))
    end = draw_counter(d, face, fare_text, fx, fy, lit + (255,), (unlit + (255,)) if unlit else None,
                       comma_slots if (unlit and rng.random() < 0.7) else None)
    if won_style == "lit":
        d.text((end + face.w * 0.05, fy + dh - wonf.size * 1.15), "원", font=wonf, fill=lit + (255,))
    elif won_style == "bezel":
        d.text((wx0 + win_w + bez * 0.1, fy + dh - dh * 0.3), "원", font=font(ui, min(bez * 0.8, dh * 0.35)), fill=lab_col)

    if not lcd:
        # LED glow: blurred copy of the lit parts added back
        arr = np.asarray(img, np.float32)
        col = np.array(lit, np.float32)
        dist = np.abs(arr[..., :3] - col).sum(-1)
        m = (dist < 30).astype(np.float32)
        glow = Image.fromarray((m * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(face.t * rng.uniform(0.3, 1.0)))
        g = np.asarray(glow, np.float32)[..., None] / 255.0 * rng.uniform(0.3, 0.8)
        arr[..., :3] = np.clip(arr[..., :3] + g * col * 0.8, 0, 255)
        img = Image.fromarray(arr.astype(np.uint8), "RGBA")
    else:
        # LCD: digit shadow on the back plate, backlight gradient
        if rng.random() < 0.7:
            arr = np.asarray(img, np.float32)
            col = np.array(ink, np.float32)
            m = (np.abs(arr[..., :3] - col).sum(-1) < 20)
            sh = np.roll(np.roll(m, int(face.t * 0.5), 0), int(face.t * 0.5), 1) & ~m
            win = np.zeros_like(m); win[int(wy0):int(wy0 + win_h), int(wx0):int(wx0 + win_w)] = True
            sh &= win
            arr[sh, :3] *= rng.uniform(0.75, 0.9)
            img = Image.fromarray(arr.astype(np.uint8), "RGBA")
    # glass reflections and glare on the face, moire of the camera
    rgb = img.convert("RGB")
    if rng.random() < 0.35:
        rgb = add_moire(rgb, rng, rng.uniform(0.03, 0.1))
    if rng.random() < 0.75:
        rgb = add_glare(rgb, rng, rng.uniform(0.1, 0.45) if not lcd else rng.uniform(0.1, 0.4))
    img2 = rgb.convert("RGBA")
    img2.putalpha(img.getchannel("A"))
    return img2.resize((W // S, H // S), Image.LANCZOS)


def render_phone_screen(rng, draw_fn, dark, screenshot=False):
    """A phone (RGBA) with its screen content drawn by draw_fn(img, draw);
    with screenshot=True the bare screen (RGB), as a sent screenshot."""
    sw, sh = 540, 1080
    scr = Image.new("RGB", (sw, sh), (18, 18, 22) if dark else (250, 250, 252))
    d = ImageDraw.Draw(scr)
    uf = rng.choice(UI_FONTS)
    fg = (235, 235, 235) if dark else (25, 25, 30)
    # status bar: clock and battery, numbers that are not the amount
    d.text((28, 14), f"{rng.randint(0, 23)}:{rng.randint(0, 59):02d}", font=font(uf, 26), fill=fg)
    d.text((sw - 110, 14), f"{rng.randint(5, 100)}%", font=font(uf, 24), fill=fg)
    d.rectangle([sw - 44, 20, sw - 16, 38], outline=fg, width=2)
    draw_fn(scr, d, uf, fg, dark)
    if screenshot:
        return scr
    # pixel grid of the panel (source of moire when photographed)
    if rng.random() < 0.7:
        a = np.asarray(scr, np.float32)
        k = rng.choice([3, 4])
        a[::k, :, :] *= rng.uniform(0.75, 0.92)
        a[:, ::k, :] *= rng.uniform(0.8, 0.95)
        scr = Image.fromarray(a.astype(np.uint8))
    if rng.random() < 0.85:  # camera against the panel: moire on the screen only
        scr = add_moire(scr, rng)
    bez = rng.randint(18, 34)
    W, H = sw + 2 * bez, sh + 2 * bez + 40
    ph = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    pd = ImageDraw.Draw(ph)
    bc = rng.choice([(20, 20, 22), (235, 235, 238), (60, 60, 70), (180, 160, 140)])
    pd.rounded_rectangle([0, 0, W - 1, H - 1], radius=60, fill=bc + (255,))
    pd.rounded_rectangle([bez - 4, bez + 16, bez + sw + 4, bez + 20 + sh + 4], radius=30, fill=(5, 5, 5, 255))
    ph.paste(scr, (bez, bez + 20))
    return ph


def app_meter_content(rng, amount):
    def draw(scr, d, uf, fg, dark):
        sw, sh = scr.size
        acc = rng.choice([(255, 200, 0), (60, 130, 255), (0, 190, 120), (255, 90, 60)])
        sub = (150, 150, 160) if dark else (110, 110, 120)
        d.text((30, 80), rng.choice(["택시 미터", "앱미터기", "T 미터", "미터 요금", "운행 중"]), font=font(uf, 34), fill=fg)
        d.text((30, 130), rng.choice(["서울 12가 3456", "경기 34바 7788", "서울 31사 1029", "인천 55아 2020"]), font=font(uf, 22), fill=sub)
        fy = rng.randint(250, 380)
        d.text((30, fy - 50), rng.choice(["현재 요금", "예상 요금", "요금", "미터 요금"]), font=font(uf, 28), fill=sub)
        big = font(uf, rng.randint(80, 120))
        s = group(amount) if rng.random() < 0.85 else str(amount)
        style = rng.choice(["after", "after", "after_small", "sign"])
        if style == "sign":
            s = "₩ " + s if "₩" in WON_OK.get(uf, set()) else s + "원"
        d.text((30, fy), s + ("원" if style == "after" else ""), font=big, fill=fg if rng.random() < 0.6 else acc)
        if style == "after_small":
            d.text((40 + big.getlength(s), fy + big.size * 0.45), "원", font=font(uf, 44), fill=fg)
        y = fy + big.size + 70
        rows = [("운행 거리", f"{rng.uniform(0.8, 80):.1f} km"),
                ("운행 시간", f"{rng.randint(3, 120)}분"),
                ("할증", rng.choice(["없음", "20%", "40%", "심야 20%"])),
                ("기본요금", group(rng.choice([4800, 4800, 5000, 4300])) + "원")]
        rng.shuffle(rows)
        for k, v in rows[:rng.randint(2, 4)]:
            d.text((30, y), k, font=font(uf, 30), fill=sub)
            vf = font(uf, 30)
            d.text((sw - 30 - vf.getlength(v), y), v, font=vf, fill=fg)
            y += 62
        d.rounded_rectangle([30, sh - 170, sw - 30, sh - 80], radius=20, fill=acc)
        bt = rng.choice(["결제하기", "운행 종료", "하차"])
        bf = font(uf, 34)
        d.text(((sw - bf.getlength(bt)) / 2, sh - 145), bt, font=bf, fill=(20, 20, 20))
    return draw


def render_taxi(rng, layout=None):
    amount = taxi_amount(rng)
    layout = layout or rng.choice(["led7", "led7", "led7", "lcd7", "app_meter"])
    if layout == "app_meter":
        obj = render_phone_screen(rng, app_meter_content(rng, amount), rng.random() < 0.6)
        W, H = rng.choice([(900, 1200), (1000, 1300), (800, 1100)])
        bg = background(rng, W, H)
        img, _ = place(bg, obj, rng, yaw=rng.uniform(-20, 20), pitch=rng.uniform(-20, 20),
                       roll=rng.uniform(-6, 6), fill=rng.uniform(0.65, 0.9))
    else:
        obj = render_meter_display(rng, amount, lcd=(layout == "lcd7"))
        W = rng.choice([960, 1024, 1100, 1200])
        H = int(W * rng.uniform(0.6, 0.8))
        bg = background(rng, W, H, rng.choice(["dark", "dark", "stone", "cloth"]))
        img, _ = place(bg, obj, rng, yaw=rng.uniform(-20, 20), pitch=rng.uniform(-15, 15),
                       roll=rng.uniform(-6, 6), fill=rng.uniform(0.6, 0.88))
    if rng.random() < 0.5:
        img = add_glare(img, rng, rng.uniform(0.08, 0.35))
    if rng.random() < 0.4:
        img = add_shadow(img, rng, rng.uniform(0.1, 0.4))
    img = lighting(img, rng, 0.7, 1.08)
    img = camera_finish(img, rng)
    return img, {"kind": "taxi", "layout": layout, "amount": amount}


# --------------------------------------------------------------------------
# Receipts

CARD_ISSUERS = ["신한카드", "국민카드", "삼성카드", "현대카드", "롯데카드", "하나카드",
                "우리카드", "BC카드", "NH농협카드"]
BANKS = ["국민은행", "신한은행", "우리은행", "하나은행", "NH농협은행", "IBK기업은행",
         "카카오뱅크", "토스뱅크", "SC제일은행", "케이뱅크", "부산은행", "대구은행"]
MERCHANTS = [
    ("스타벅스 강남역점", "cafe"), ("투썸플레이스 판교역점", "cafe"), ("이디야커피 합정점", "cafe"),
    ("파리바게뜨 잠실새내점", "bakery"), ("뚜레쥬르 분당서현점", "bakery"),
    ("GS25 역삼센터점", "cvs"), ("CU 홍대입구역점", "cvs"), ("세븐일레븐 종로3가점", "cvs"),
    ("이마트 성수점", "mart"), ("홈플러스 영등포점", "mart"), ("롯데마트 서울역점", "mart"),
    ("농협하나로마트 양재점", "mart"), ("올리브영 명동본점", "drug"), ("다이소 종로본점", "mart"),
    ("김밥천국 신림점", "food"), ("본죽 노원역점", "food"), ("교촌치킨 신촌점", "food"),
    ("BBQ치킨 일산백석점", "food"), ("맘스터치 건대입구점", "food"), ("한솥도시락 둔산점", "food"),
    ("명동교자 본점", "food"), ("봉피양 방이점", "food"), ("새마을식당 서면점", "food"),
    ("교보문고 광화문점", "book"), ("영풍문고 종각점", "book"),
    ("미소치과의원", "clinic"), ("서울정형외과의원", "clinic"), ("온누리약국", "drug"),
    ("롯데하이마트 수원점", "elec"), ("삼성디지털프라자 강남본점", "elec"),
    ("GS칼텍스 마포주유소", "fuel"), ("SK에너지 판교주유소", "fuel"),
    ("CGV 용산아이파크몰", "cinema"), ("메가박스 코엑스", "cinema"),
]
ITEMS = {
    "cafe": [("아메리카노", 4500), ("카페라떼", 5000), ("바닐라라떼", 5500), ("콜드브루", 4900), ("치즈케이크", 6500), ("샌드위치", 5900)],
    "bakery": [("소보로빵", 1800), ("단팥빵", 1700), ("생크림케이크", 28000), ("우유식빵", 3800), ("크로와상", 3200)],
    "cvs": [("삼각김밥", 1300), ("바나나우유", 1700), ("생수 500ml", 950), ("컵라면", 1500), ("도시락", 4900), ("맥주 500ml", 3000)],
    "mart": [("한우 등심 500g", 45900), ("우유 1L", 2980), ("계란 30구", 8990), ("삼겹살 600g", 15800), ("사과 1.5kg", 12900), ("휴지 30롤", 19900), ("세제 3L", 11900)],
    "drug": [("선크림", 18000), ("립밤", 6500), ("마스크팩", 1500), ("비타민C", 15000), ("종합감기약", 4500)],
    "food": [("김치찌개", 9000), ("된장찌개", 8500), ("후라이드치킨", 20000), ("양념치킨", 22000), ("김밥", 3500), ("공기밥", 1000), ("소주", 5000), ("맥주", 6000), ("냉면", 12000)],
    "book": [("소설책", 16800), ("참고서", 22000), ("잡지", 9000), ("문구세트", 7500)],
    "clinic": [("진료비", 15300), ("치료비", 120000), ("검사비", 45000)],
    "elec": [("무선이어폰", 189000), ("노트북", 1390000), ("모니터", 329000), ("청소기", 459000)],
    "fuel": [("휘발유", 60000), ("경유", 80000)],
    "cinema": [("일반 2D", 15000), ("팝콘 콤보", 12000), ("IMAX", 20000)],
}
NAMES = ["김민수", "이서연", "박지훈", "최유진", "정하늘", "강도윤", "조수빈", "윤서준",
         "장예린", "임현우", "한지민", "오세훈", "서지원", "신동현", "권나래", "(주)한빛상사", "주식회사 다온", "홍길동"]


def rand_datetime(rng):
    y = rng.choice([2024, 2025, 2025, 2026])
    mo = rng.randint(1, 12)
    dd = rng.randint(1, 28)
    hh = rng.randint(7, 23)
    mi = rng.randint(0, 59)
    ss = rng.randint(0, 59)
    return y, mo, dd, hh, mi, ss


def fmt_datetime(rng, dt, with_seconds=None):
    y, mo, dd, hh, mi, ss = dt
    if with_seconds is None:
        with_seconds = rng.random() < 0.6
    sec = ss if with_seconds else 0
    iso = f"{y:04d}-{mo:02d}-{dd:02d}T{hh:02d}:{mi:02d}:{sec:02d}"
    styles = [
        f"{y:04d}-{mo:02d}-{dd:02d} {hh:02d}:{mi:02d}" + (f":{ss:02d}" if with_seconds else ""),
        f"{y:04d}/{mo:02d}/{dd:02d} {hh:02d}:{mi:02d}" + (f":{ss:02d}" if with_seconds else ""),
        f"{y:04d}.{mo:02d}.{dd:02d} {hh:02d}:{mi:02d}" + (f":{ss:02d}" if with_seconds else ""),
        f"{y % 100:02d}.{mo:02d}.{dd:02d} {hh:02d}:{mi:02d}" + (f":{ss:02d}" if with_seconds else ""),
        f"{y}년 {mo}월 {dd}일 {hh:02d}:{mi:02d}" + (f":{ss:02d}" if with_seconds else ""),
        f"{y:04d}{mo:02d}{dd:02d} {hh:02d}{mi:02d}" + (f"{ss:02d}" if with_seconds else ""),
    ]
    return rng.choice(styles), iso


def won(rng, v, style=None, fontspec=None):
    s = group(v)
    style = style or rng.choice(["plain", "plain", "won", "won_sp", "sign", "sign_sp", "fw_sign"])
    have = WON_OK.get(fontspec, {"₩", "￦"}) if fontspec else {"₩", "￦"}
    if style in ("sign", "sign_sp") and "₩" not in have:
        style = "won"
    if style == "fw_sign" and "￦" not in have:
        style = "won_sp"
    return {"plain": s, "won": s + "원", "won_sp": s + " 원", "sign": "₩" + s,
            "sign_sp": "₩ " + s, "fw_sign": "￦" + s}[style]


def spaced(rng, label):
    """'합계' -> '합 계' sometimes (labels with spaces)."""
    if rng.random() < 0.35 and " " not in label and len(label) <= 5:
        return (" " if rng.random() < 0.7 else "  ").join(label)
    return label


def biz_no(rng):
    return f"{rng.randint(100, 899)}-{rng.randint(10, 99)}-{rng.randint(10000, 99999)}"


def card_no(rng):
    return f"{rng.randint(4000, 6599)}-{rng.randint(10, 99)}**-****-{rng.randint(1000, 9999)}" if rng.random() < 0.6 \
        else f"{rng.randint(4000, 6599)}********{rng.randint(1000, 9999)}"


def phone_no(rng):
    return f"0{rng.choice([2, 31, 32, 51, 53, 62])}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}"


ADDRS = ["서울특별시 강남구 테헤란로 152", "서울 마포구 양화로 160", "경기도 성남시 분당구 판교역로 235",
         "부산광역시 부산진구 중앙대로 672", "대전광역시 서구 둔산로 100", "서울 종로구 종로 33",
         "인천광역시 연수구 센트럴로 123", "서울 송파구 올림픽로 300"]


class Paper:
    """A line layout engine over a white strip; records the amount line box."""

    def __init__(self, rng, width, fontspec, size):
        self.rng = rng
        self.w = width
        self.f = fontspec
        self.size = size
        self.lines = []   # (kind, payload, size, tag)
        self.margin = int(width * rng.uniform(0.05, 0.09))

    def add(self, kind, payload=None, size=None, tag=None):
        self.lines.append((kind, payload, size or self.size, tag))

    def render(self):
        rng = self.rng
        lh = 1.0 + rng.uniform(0.25, 0.6)
        H = int(self.size * 4 + sum((s * lh + s * 0.6 if k != "gap" else s * 0.6) for k, _, s, _ in self.lines))
        ink = Image.new("L", (self.w, H), 0)
        d = ImageDraw.Draw(ink)
        y = self.size * 2
        boxes = {}
        L, R = self.margin, self.w - self.margin
        for kind, p, s, tag in self.lines:
            f = font(self.f, s)
            if kind == "gap":
                y += s * 0.6
                continue
            if kind == "center":
                x = (self.w - f.getlength(p)) / 2
                d.text((x, y), p, font=f, fill=255)
                bx = (x, y, x + f.getlength(p), y + s * 1.2)
            elif kind == "left":
                d.text((L, y), p, font=f, fill=255)
                bx = (L, y, L + f.getlength(p), y + s * 1.2)
            elif kind == "lr":
                a, b = p
                d.text((L, y), a, font=f, fill=255)
                xb = R - f.getlength(b)
                d.text((xb, y), b, font=f, fill=255)
                bx = (xb, y, R, y + s * 1.2)
            elif kind == "lr_inv":
                # reverse print: white text in a black bar (a total line)
                a, b = p
                y += s * 0.3
                d.rectangle([L - s * 0.3, y - s * 0.15, R + s * 0.3, y + s * 1.3], fill=255)
                d.text((L, y), a, font=f, fill=0)
                xb = R - f.getlength(b)
                d.text((xb, y), b, font=f, fill=0)
                bx = (xb, y, R, y + s * 1.2)
            elif kind == "box":
                # a boxed total line
                a, b = p
                y += s * 0.3
                d.rectangle([L - s * 0.3, y - s * 0.2, R + s * 0.3, y + s * 1.35], outline=255, width=max(2, s // 10))
                d.text((L, y), a, font=f, fill=255)
                xb = R - f.getlength(b)
                d.text((xb, y), b, font=f, fill=255)
                bx = (xb, y, R, y + s * 1.2)
            elif kind == "cols":
                # item, qty, price: at fractions of the width
                names, fr = p
                for t, fx in zip(names, fr):
                    if fx < 0.3:
                        d.text((L + (R - L) * fx, y), t, font=f, fill=255)
                    else:
                        d.text((L + (R - L) * fx - f.getlength(t), y), t, font=f, fill=255)
                bx = None
            elif kind == "rule":
                ch = p or "-"
                if ch == "line":
                    d.line([(L, y + s * 0.6), (R, y + s * 0.6)], fill=255, width=max(1, int(s / 12)))
                else:
                    n = int((R - L) / max(1, f.getlength(ch)))
                    d.text((L, y), ch * n, font=f, fill=255)
                bx = None
            if tag and bx:
                boxes[tag] = bx
            y += s * lh + (s * 0.3 if kind in ("lr_inv", "box") else 0)
        ink = ink.crop((0, 0, self.w, min(H, int(y + self.size * 2))))
        return ink, boxes


def thermal(rng, ink, boxes, paper_rgb, ink_rgb, fade_amount, cut_amount):
    w, h = ink.size
    a = np.asarray(ink, np.float32) / 255.0
    # overall fading: low frequency field, plus print head column streaks
    lo = rng.choice([1.0, 1.0, rng.uniform(0.55, 0.9), rng.uniform(0.3, 0.55)])
    field = lo + (1 - lo) * value_noise(rng, w, h, 2, 2)
    if rng.random() < 0.4:
        cols = np.ones(w, np.float32)
        for _ in range(rng.randint(1, 6)):
            c = rng.randint(0, w - 1); cw = rng.randint(1, 4)
            cols[c:c + cw] *= rng.uniform(0.2, 0.7)
        field = field * cols[None, :]
    if "amount" in boxes and (fade_amount or cut_amount):
        x0, y0, x1, y1 = [int(v) for v in boxes["amount"]]
        x0 = max(0, x0 - 4); y0 = max(0, y0); x1 = min(w, x1 + 4); y1 = min(h, y1)
        if fade_amount:
            field[y0:y1, x0:x1] *= rng.uniform(0.4, 0.65)
        if cut_amount:
            bh = int((y1 - y0) * rng.uniform(0.12, 0.25))
            if rng.random() < 0.5:
                field[y0:y0 + bh, x0:x1] *= 0.05
            else:
                yb = y1 - bh - int((y1 - y0) * 0.15)
                field[yb:yb + bh, x0:x1] *= 0.05
    a = a * field
    pr = np.array(paper_rgb, np.float32); ir = np.array(ink_rgb, np.float32)
    rgb = pr * (1 - a[..., None]) + ir * a[..., None]
    # paper grain
    g = value_noise(rng, max(4, w // 3), max(4, h // 3), 12, 1)
    g = np.asarray(Image.fromarray((g * 255).astype(np.uint8)).resize((w, h), Image.BILINEAR), np.float32) / 255.0
    rgb += (g[..., None] - 0.5) * 12
    return np.clip(rgb, 0, 255)


def crumple(rng, rgba, amp=None):
    """Crumpled-paper warping: smooth displacement plus shading of the folds."""
    arr = np.asarray(rgba, np.float32)
    h, w = arr.shape[:2]
    amp = amp if amp is not None else rng.choice([0.0, rng.uniform(1.5, 4), rng.uniform(4, 8)])
    if amp <= 0:
        return rgba
    sw, sh = max(4, w // 8), max(4, h // 8)
    base = value_noise(rng, sw, sh, 2.5, 3)
    hy_ = value_noise(rng, sw, sh, 2.5, 2)

    def up(a):
        return np.asarray(Image.fromarray(a.astype(np.float32), "F").resize((w, h), Image.BILINEAR), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    mx = xx + (up(base) - 0.5) * 2 * amp
    my = yy + (up(hy_) - 0.5) * amp
    out = remap(arr, mx, my)
    # shading from the slope of the height field (normalised coordinates)
    gy, gx = np.gradient(base)
    slope = up((gx * sw - gy * sh * 0.5))
    shade = 1 + np.clip(slope * rng.uniform(0.04, 0.1), -0.18, 0.12)
    # a few sharp folds
    for _ in range(rng.randint(0, 3)):
        ang = rng.uniform(0, math.pi); c = rng.uniform(0.2, 0.8)
        dist = (xx / w - 0.5) * math.cos(ang) + (yy / h - c) * math.sin(ang)
        shade *= 1 - 0.12 * np.exp(-(dist * 80) ** 2) + 0.05 * np.tanh(dist * 40)
    out[..., :3] *= shade[..., None]
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8), "RGBA")


def amount_for(rng, cat):
    if cat in ("elec",):
        v = rng.uniform(80000, 2000000)
    elif cat in ("clinic",):
        v = rng.uniform(5000, 300000)
    elif cat in ("mart",):
        v = rng.uniform(8000, 250000)
    elif cat in ("fuel",):
        v = rng.choice([30000, 50000, 60000, 70000, 80000, 100000, rng.uniform(20000, 120000)])
    else:
        v = rng.uniform(1000, 80000)
    return max(1000, int(round(v / 10.0)) * 10 if rng.random() < 0.3 else int(round(v / 100.0)) * 100)


def items_summing(rng, cat, total):
    """A few items whose line totals add up to total (no token 100-won lines)."""
    base = ITEMS[cat]
    n = max(1, min(rng.randint(1, 5), total // 1000))
    ws = [rng.uniform(0.5, 1.5) for _ in range(n)]
    step = 10 if total % 100 else 100
    amts = [max(step, int(total * w / sum(ws) / step) * step) for w in ws]
    amts[-1] = total - sum(amts[:-1])
    lines = []
    for amt in amts:
        nm, _ = rng.choice(base)
        q = rng.choice([1, 1, 1, 2, 3])
        if amt % (q * 10):
            q = 1
        lines.append((nm, q, amt // q, amt))
    return lines


def receipt_common(rng, width=None):
    fs = rng.choice(RECEIPT_FONTS)
    width = width or rng.randint(470, 600)
    size = int(width / rng.uniform(22, 30))
    return fs, width, size


def total_style(rng):
    r = rng.random()
    return "lr_inv" if r < 0.1 else "box" if r < 0.2 else "lr"


def build_card_slip(rng):
    merchant, cat = rng.choice(MERCHANTS)
    total = amount_for(rng, cat)
    issuer = rng.choice(CARD_ISSUERS)
    appr = f"{rng.randint(0, 99999999):08d}"
    dt = rand_datetime(rng)
    dts, iso = fmt_datetime(rng, dt)
    fs, width, size = receipt_common(rng)
    p = Paper(rng, width, fs, size)
    p.add("center", rng.choice(["신용카드 매출전표", "카드 영수증", "신용승인", "[ 카드매출전표 ]", "매출전표(고객용)"]), int(size * 1.3))
    p.add("rule", rng.choice(["-", "=", "line"]))
    p.add("lr", (spaced(rng, "가맹점명"), merchant))
    p.add("lr", ("사업자번호", biz_no(rng)))
    p.add("lr", ("대표자", rng.choice(NAMES[:15])))
    if rng.random() < 0.7:
        p.add("left", rng.choice(ADDRS), int(size * 0.9))
    p.add("lr", ("TEL", phone_no(rng)))
    p.add("rule", rng.choice(["-", "line"]))
    p.add("lr", (spaced(rng, "카드종류"), issuer))
    p.add("lr", ("카드번호", card_no(rng)))
    p.add("lr", (spaced(rng, "거래일시"), dts))
    p.add("lr", (spaced(rng, "할부"), rng.choice(["일시불", "일시불", "03개월", "00"])))
    p.add("lr", (spaced(rng, "승인번호"), appr))
    p.add("rule", "-")
    tax_free = rng.random() < 0.2
    if tax_free:
        tf = int(total * rng.uniform(0.2, 0.6) / 10) * 10
        taxable = total - tf
    else:
        tf, taxable = 0, total
    supply = int(round(taxable / 1.1))
    vat = taxable - supply
    p.add("lr", (spaced(rng, "공급가액"), won(rng, supply, fontspec=fs)))
    p.add("lr", (spaced(rng, "부가세"), won(rng, vat, fontspec=fs)))
    if tax_free:
        p.add("lr", (spaced(rng, "면세"), won(rng, tf, fontspec=fs)))
    if rng.random() < 0.3:
        p.add("lr", ("봉사료", "0"))
    tl = spaced(rng, rng.choice(["합계", "합계금액", "결제금액", "승인금액", "합 계", "결 제 금 액"]))
    big = int(size * rng.choice([1.0, 1.0, 1.25, 1.5]))
    p.add(total_style(rng), (tl, won(rng, total, fontspec=fs)), big, tag="amount")
    p.add("rule", "-")
    if rng.random() < 0.5:
        pts = rng.randint(0, 300000) + total
        p.add("lr", (rng.choice(["포인트 잔액", "가용포인트", "누적포인트"]), group(pts) + "P"))
    p.add("center", rng.choice(["감사합니다", "이용해 주셔서 감사합니다", "서명  ________", "*** 고객용 ***"]))
    label = {"kind": "receipt", "layout": "card_slip", "amount": total, "paid_at": iso,
             "merchant": merchant, "issuer": issuer, "approval_number": appr}
    return p, label


def build_pos(rng):
    merchant, cat = rng.choice(MERCHANTS)
    total = amount_for(rng, cat)
    dt = rand_datetime(rng)
    dts, iso = fmt_datetime(rng, dt)
    fs, width, size = receipt_common(rng)
    p = Paper(rng, width, fs, size)
    p.add("center", merchant, int(size * rng.uniform(1.2, 1.6)))
    p.add("center", f"사업자 {biz_no(rng)}  {rng.choice(NAMES[:15])}", int(size * 0.85))
    if rng.random() < 0.8:
        p.add("center", rng.choice(ADDRS), int(size * 0.85))
    p.add("center", f"TEL {phone_no(rng)}", int(size * 0.85))
    p.add("left", f"[{rng.choice(['판매', '영수증', '매출'])}] {dts}")
    p.add("left", f"POS:{rng.randint(1, 9):02d}  No.{rng.randint(1, 9999):04d}", int(size * 0.85))
    p.add("rule", rng.choice(["-", "="]))
    p.add("cols", (["상품명", "수량", "금액"], [0.0, 0.68, 1.0]))
    p.add("rule", "-")
    # discount: the pre-discount sum is larger than the paid total
    disc = 0
    if rng.random() < 0.45:
        disc = int(total * rng.uniform(0.05, 0.3) / 100) * 100
        disc = max(disc, 500)
    gross = total + disc
    for nm, q, unit, amt in items_summing(rng, cat, gross):
        p.add("cols", ([nm, str(q), group(amt)], [0.0, 0.68, 1.0]))
    p.add("rule", "-")
    p.add("lr", (spaced(rng, rng.choice(["총구매액", "소계", "합계"])), group(gross)))
    if disc:
        p.add("lr", (rng.choice(["할인금액", "행사할인", "제휴할인", "쿠폰할인"]), "-" + group(disc)))
    tax_free = rng.random() < 0.3
    tf = int(total * rng.uniform(0.1, 0.5) / 10) * 10 if tax_free else 0
    supply = int(round((total - tf) / 1.1))
    if tax_free:
        p.add("lr", (spaced(rng, "면세물품"), group(tf)))
    p.add("lr", (spaced(rng, "과세물품"), group(supply)))
    p.add("lr", (spaced(rng, "부가세"), group(total - tf - supply)))
    tl = spaced(rng, rng.choice(["결제금액", "받을금액", "합계", "결 제 금 액", "합 계", "총 결제금액"]))
    big = int(size * rng.choice([1.0, 1.2, 1.4]))
    p.add(total_style(rng), (tl, won(rng, total, fontspec=fs)), big, tag="amount")
    p.add("rule", "-")
    cash = rng.random() < 0.2
    if cash:
        recv = int(math.ceil(total / 10000.0) * 10000)
        if recv == total:
            recv += 10000
        p.add("lr", ("현금", group(recv)))
        p.add("lr", ("거스름돈", group(recv - total)))
        issuer, appr = "", ""
    else:
        issuer = rng.choice(CARD_ISSUERS)
        appr = f"{rng.randint(0, 99999999):08d}"
        p.add("lr", ("카드사", issuer))
        p.add("lr", ("카드번호", card_no(rng)))
        p.add("lr", ("승인번호", appr))
        p.add("lr", ("할부", "일시불"))
    if rng.random() < 0.6:
        p.add("rule", "-")
        p.add("lr", (rng.choice(["적립포인트", "금회적립"]), group(total // 100) + "P"))
        p.add("lr", (rng.choice(["잔여포인트", "누적포인트", "포인트잔액"]), group(total + rng.randint(1000, 900000)) + "P"))
    p.add("center", rng.choice(["교환/환불은 영수증 지참 7일 이내", "감사합니다", "또 오세요!"]), int(size * 0.85))
    label = {"kind": "receipt", "layout": "pos", "amount": total, "paid_at": iso,
             "merchant": merchant, "issuer": issuer, "approval_number": appr}
    return p, label


def transfer_amount(rng):
    r = rng.random()
    if r < 0.5:
        v = rng.uniform(1000, 200000)
    elif r < 0.85:
        v = rng.uniform(200000, 1000000)
    else:
        v = rng.uniform(1000000, 2000000)
    return int(round(v / 1000.0)) * 1000 if rng.random() < 0.7 else int(round(v / 10.0)) * 10


def acct(rng):
    return f"{rng.randint(100, 999)}-{rng.randint(10, 999999):06d}-{rng.randint(10, 99)}-{rng.randint(100, 999)}"


def build_transfer_slip(rng):
    recip = rng.choice(NAMES)
    frm = rng.choice(BANKS)
    to = rng.choice(BANKS)
    amt = transfer_amount(rng)
    dt = rand_datetime(rng)
    dts, iso = fmt_datetime(rng, dt)
    fs, width, size = receipt_common(rng, rng.randint(560, 720))
    p = Paper(rng, width, fs, size)
    p.add("center", rng.choice(["이체확인증", "이 체 확 인 증", "송금영수증", "계좌이체 확인증", "타행이체 확인증"]), int(size * 1.5))
    p.add("gap")
    p.add("rule", "line")
    p.add("lr", (spaced(rng, "출금은행"), frm))
    p.add("lr", (spaced(rng, "출금계좌"), acct(rng)[:-3] + "***"))
    p.add("lr", (spaced(rng, "보내는분"), rng.choice(NAMES[:15])))
    p.add("rule", "line")
    p.add("lr", (spaced(rng, "입금은행"), to))
    p.add("lr", (spaced(rng, "입금계좌"), acct(rng)))
    p.add("lr", (spaced(rng, "받는분"), recip))
    p.add("rule", "line")
    p.add("lr", (spaced(rng, "이체금액"), won(rng, amt, fontspec=fs)), int(size * rng.choice([1.0, 1.2])), tag="amount")
    p.add("lr", (spaced(rng, "수수료"), won(rng, rng.choice([0, 0, 500, 1000]), "won")))
    if rng.random() < 0.7:
        p.add("lr", (spaced(rng, "거래후잔액"), won(rng, amt + rng.randint(10000, 9000000), "won")))
    p.add("lr", (spaced(rng, "이체일시"), dts))
    p.add("lr", ("거래번호", f"{rng.randint(10**9, 10**10 - 1)}"))
    p.add("rule", "line")
    p.add("gap")
    p.add("center", "위와 같이 이체되었음을 확인합니다.", int(size * 0.9))
    p.add("center", frm, int(size * 1.2))
    label = {"kind": "receipt", "layout": "transfer_slip", "amount": amt, "paid_at": iso,
             "merchant": recip, "issuer": frm, "approval_number": ""}
    return p, label


def transfer_screen_content(rng, label_out):
    recip = rng.choice(NAMES)
    frm = rng.choice(BANKS)
    to = rng.choice(BANKS)
    amt = transfer_amount(rng)
    dt = rand_datetime(rng)
    dts, iso = fmt_datetime(rng, dt)
    label_out.update({"kind": "receipt", "layout": "transfer_screen", "amount": amt, "paid_at": iso,
                      "merchant": recip, "issuer": frm, "approval_number": ""})

    def draw(scr, d, uf, fg, dark):
        sw, sh = scr.size
        sub = (150, 150, 160) if dark else (120, 120, 130)
        acc = rng.choice([(0, 100, 255), (255, 200, 0), (0, 180, 110), (250, 80, 60)])
        y = 110
        d.ellipse([sw / 2 - 40, y, sw / 2 + 40, y + 80], fill=acc)
        d.line([(sw / 2 - 18, y + 42), (sw / 2 - 3, y + 56), (sw / 2 + 22, y + 28)], fill=(255, 255, 255), width=7)
        y += 110
        for t, s in [(f"{recip}님에게", 34), (won(rng, amt, rng.choice(["won", "won"])) + rng.choice(["을", ""]), 48),
                     (rng.choice(["보냈어요", "이체했습니다", "이체가 완료되었습니다"]), 34)]:
            f = font(uf, s)
            d.text(((sw - f.getlength(t)) / 2, y), t, font=f, fill=fg)
            y += s * 1.5
        y += 40
        d.line([(30, y), (sw - 30, y)], fill=sub, width=1)
        y += 30
        rows = [("받는 분", recip), ("입금 계좌", f"{to} {acct(rng)}"), ("출금 계좌", f"{frm} {acct(rng)[:8]}***"),
                ("이체 금액", won(rng, amt, "won")), ("수수료", rng.choice(["면제", "0원", "500원"])), ("이체 일시", dts)]
        if rng.random() < 0.5:
            rows.append(("이체 후 잔액", won(rng, amt + rng.randint(1000, 5000000), "won")))
        if rng.random() < 0.4:
            rows.append(("메모", rng.choice(["회비", "월세", "식비 정산", "축의금", "용돈"])))
        f = font(uf, 24)
        for k, v in rows:
            d.text((30, y), k, font=f, fill=sub)
            while f.getlength(v) > sw - 200 and len(v) > 4:
                v = v[:-1]
            d.text((sw - 30 - f.getlength(v), y), v, font=f, fill=fg)
            y += 50
        d.rounded_rectangle([30, sh - 150, sw - 30, sh - 70], radius=18, fill=acc)
        bf = font(uf, 30)
        d.text(((sw - bf.getlength("확인")) / 2, sh - 128), "확인", font=bf, fill=(255, 255, 255))
    return draw


def render_paper_receipt(rng, p, label, laser=False):
    ink, boxes = p.render()
    paper_rgb = (rng.randint(235, 252), rng.randint(233, 250), rng.randint(225, 245))
    ink_rgb = (rng.randint(10, 60), rng.randint(10, 50), rng.randint(20, 70)) if not laser else (15, 15, 18)
    fade = rng.random() < 0.15
    cut = rng.random() < 0.12
    rgb = thermal(rng, ink, boxes, paper_rgb, ink_rgb, fade, cut)
    w, h = ink.size
    alpha = np.full((h, w), 255, np.float32)
    # torn / zig-zag receipt edges
    if not laser and rng.random() < 0.7:
        for edge in (0, h - 1):
            teeth = rng.randint(4, 9)
            for x in range(w):
                dd = abs(((x // teeth) % 2) * teeth - x % teeth)
                if edge == 0:
                    alpha[:dd, x] = 0
                else:
                    alpha[h - dd:, x] = 0
    rgba = np.dstack([rgb, alpha]).astype(np.uint8)
    obj = Image.fromarray(rgba, "RGBA")
    obj = crumple(rng, obj)
    ratio = h / w
    W = rng.choice([900, 1000, 1100])
    H = int(W * min(1.9, max(1.1, ratio * rng.uniform(0.75, 0.95))))
    bg = background(rng, W, H)
    # drop shadow of the paper: the same placement on black, blurred and offset
    roll = rng.uniform(-6, 6)
    yaw, pitch = rng.uniform(-12, 12), rng.uniform(-14, 14)
    fill = rng.uniform(0.78, 0.92)
    st = rng.getstate()
    mask_obj = Image.new("RGBA", obj.size, (255, 255, 255, 0))
    mask_obj.putalpha(obj.getchannel("A"))
    m, _ = place(Image.new("RGB", (W, H), (0, 0, 0)), mask_obj, rng, yaw, pitch, roll, fill=fill)
    rng.setstate(st)
    m = m.convert("L").filter(ImageFilter.GaussianBlur(rng.uniform(4, 14)))
    m = ImageChops.offset(m, rng.randint(-10, 10), rng.randint(2, 14))
    k = 1 - rng.uniform(0.25, 0.6) * np.asarray(m, np.float32)[..., None] / 255.0
    bg = Image.fromarray(np.clip(np.asarray(bg, np.float32) * k, 0, 255).astype(np.uint8))
    img, quad = place(bg, obj, rng, yaw, pitch, roll, fill=fill)
    if rng.random() < 0.6:
        img = add_shadow(img, rng)
    img = lighting(img, rng)
    if rng.random() < 0.2:
        img = add_glare(img, rng, rng.uniform(0.05, 0.25), streak=False)
    img = camera_finish(img, rng, blur=(0.0, 1.2), noise=(1.5, 7.0))
    return img


def render_receipt(rng, layout=None):
    layout = layout or rng.choice(["card_slip", "card_slip", "pos", "pos", "pos", "transfer_slip", "transfer_screen"])
    if layout == "transfer_screen":
        label = {}
        draw = transfer_screen_content(rng, label)
        if rng.random() < 0.3:  # a screenshot sent as is
            scr = render_phone_screen(rng, draw, rng.random() < 0.4, screenshot=True)
            img = camera_finish(scr, rng, blur=(0.0, 0.6), noise=(0.0, 2.0))
        else:
            ph = render_phone_screen(rng, draw, rng.random() < 0.4)
            W, H = rng.choice([(900, 1200), (1000, 1300)])
            img, _ = place(background(rng, W, H), ph, rng, rng.uniform(-18, 18), rng.uniform(-18, 18),
                           rng.uniform(-6, 6), fill=rng.uniform(0.7, 0.9))
            if rng.random() < 0.5:
                img = add_glare(img, rng, rng.uniform(0.1, 0.35))
            img = lighting(img, rng)
            img = camera_finish(img, rng)
        return img, label
    build = {"card_slip": build_card_slip, "pos": build_pos, "transfer_slip": build_transfer_slip}[layout]
    p, label = build(rng)
    img = render_paper_receipt(rng, p, label, laser=(layout == "transfer_slip"))
    return img, label


# --------------------------------------------------------------------------
# CLI

def render_one(args):
    out, seed, i, kind = args
    rng = random.Random(seed * 1000003 + i * 7919 + 17)
    if kind == "all":
        k = "taxi" if i % 2 == 0 else "receipt"
    else:
        k = kind
    img, label = render_taxi(rng) if k == "taxi" else render_receipt(rng)
    name = os.path.join(out, f"{i + 1:04d}-{label['layout']}")
    save(img, name, rng, label)
    return name


def main():
    ap = argparse.ArgumentParser(prog="render-blind", description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--kind", choices=["taxi", "receipt", "all"], default="all")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    jobs = [(a.out, a.seed, i, a.kind) for i in range(a.count)]
    if a.jobs > 1 and a.count > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(a.jobs, initializer=init_fonts) as pool:
            for _ in pool.imap_unordered(render_one, jobs):
                pass
    else:
        init_fonts()
        for j in jobs:
            render_one(j)
    print(f"render-blind: {a.count} images in {a.out} ({time.time() - t0:.1f} s)")


if __name__ == "__main__":
    main()
