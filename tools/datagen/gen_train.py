#!/usr/bin/env python3
"""Dev-time generator of data/train/congestion-train.jsonl (the training set of
the embedded default judge). Phrase grammar + hand-written templates, seeded,
every text distinct. Output is committed; nothing here runs at service time.

    python3 tools/datagen/gen_train.py > data/train/congestion-train.jsonl

Labels follow /work/shared/congestion-labels.md. Written from the label guide
only; never from the held-out dev set.
"""
import json
import random
import sys

from phrases import (SPOTS, LEVEL_PHRASES, CAUSE_PHRASES, UNKNOWN_PHRASES, QUESTIONS, REACTIONS,
                     ADS, INJECTIONS, ARRIVALS, PAST_PHRASES, FUTURE_PHRASES, OTHER_PLACE_LEVEL,
                     IRONY, NEGATION_LOW, NEG_MEDIUM, REPLIES_AGREE, INTROS, ADVICE, FILLERS,
                     EXPECT_THEN, CLOSERS, NOW_PREFIX, LOW_CAUSE, OPINIONS, ENGLISH, HEDGES,
                     QUEUE_REACH, LANDMARKS, STUCK, CLOCK, CLOCKS, HEARSAY, ELSEWHERE, TIPS)

SEED = 20261130
rng = random.Random(SEED)
seen = set()

REL, IRR = "RELEVANT", "IRRELEVANT"


def lab(rel, level="UNKNOWN", cause="NONE"):
    if rel == IRR:
        return {"relevance": IRR, "level": "UNKNOWN", "cause": "NONE"}
    return {"relevance": REL, "level": level, "cause": cause}


TYPOS = [("진짜", "진자"), ("사람", "사램"), ("많아요", "만아요"), ("없어요", "업어요"),
         ("웨이팅", "웨이딩"), ("기다려", "기달려"), ("붐벼요", "붐벼여"), ("있어요", "잇어요"),
         ("같아요", "가타요"), ("완전", "완젼"), ("너무", "넘"), ("정도", "쯤"), ("그냥", "걍"),
         ("지금", "지굼"), ("했어요", "햇어요"), ("들어가", "드러가")]
TAILS = ["", "", "", "", " ㅋㅋ", " ㅋㅋㅋ", " ㅠㅠ", " ㅜㅜ", "!!", "~", "...", " ㄷㄷ", " 😭", " 🔥",
         " ㅎㅎ", "!", ".", " 참고하세요", " 참고요", " ㅎ"]


def noisify(t):
    r = rng.random()
    if r < 0.12:
        t = t.replace(" ", "", rng.randint(1, 3))
    elif r < 0.18:
        t = t.replace(" ", "")
    if rng.random() < 0.15:
        a, b = rng.choice(TYPOS)
        t = t.replace(a, b, 1)
    if rng.random() < 0.08 and t.endswith("요"):
        t = t[:-1] + rng.choice(["용", "여", "욧"])
    return t + rng.choice(TAILS)


def wait_phrase(level):
    if level == "LOW":
        return rng.choice(["대기 없음", "웨이팅 0팀", "대기 없이 바로 입장했어요", "기다림 없이 바로 들어감",
                           "줄 안 서고 바로 탔어요", "앞에 한 팀밖에 없어요", "대기 0분", "1분도 안 기다렸어요",
                           "대기줄 없음", "줄 한 명도 없음", "바로 앉았어요", "웨이팅 없어요", "2분만에 들어옴",
                           "대기 1팀", "줄 두세 명"])
    if level == "MEDIUM":
        n = rng.choice([5, 7, 8, 10, 10, 12, 15, 15, 20])
        k = rng.choice([3, 4, 5, 6, 7, 8, 10])
        p = rng.choice([10, 15, 20, 25, 30])
        return rng.choice([f"대기 {n}분", f"웨이팅 {n}분 정도", f"{n}분 정도 기다렸어요", f"{n}분 기다리고 들어왔어요",
                           f"{n}분째 줄 서는 중", f"예상 대기 {n}분이래요", f"대기 {n}분 안쪽", f"앞에 {k}팀",
                           f"대기 {k}팀 있어요", f"줄 {p}명 정도", f"{n}분이면 들어갈 듯", f"웨이팅 {k}팀",
                           f"{n}분 컷", f"줄은 {p}명쯤인데 금방 빠져요", f"대기번호 {k}번 받았어요",
                           f"{n}분 정도 줄 섰어요", f"한 {n}분 기다린 듯"])
    n = rng.choice([30, 35, 40, 40, 45, 50, 60, 70, 80, 90])
    h = rng.choice(["1시간", "한 시간", "1시간 반", "2시간", "두 시간", "1시간 넘게", "3시간"])
    k = rng.choice([20, 25, 30, 40, 50, 60, 80, 120])
    p = rng.choice([100, 150, 200, 300, 500])
    m = rng.choice([50, 80, 100, 200])
    return rng.choice([f"대기 {n}분", f"웨이팅 {n}분 넘어요", f"{n}분째 줄 서는 중", f"{n}분 기다렸어요",
                       f"대기 {h}", f"{h}째 줄 서 있어요", f"{h} 기다려야 한대요", f"예상 대기 {h}",
                       f"앞에 {k}팀", f"대기 {k}팀", f"줄 {p}명 넘게 서 있어요", f"줄이 {m}미터는 돼요",
                       f"대기번호 {k * 3}번", f"웨이팅 {h}", f"{n}분 넘게 기다리는 중", f"{h} 각",
                       f"{h}은 기본인 듯", f"줄 {m}m 이상"])


def level_text(level, spot):
    """One first-hand present-tense report of `level` at spot."""
    r = rng.random()
    place = rng.choice(spot["places"])
    if level == "UNKNOWN":
        return rng.choice(UNKNOWN_PHRASES).format(place=place)
    if rng.random() < 0.16:
        k = rng.random()
        if k < 0.3:
            return rng.choice(ENGLISH[level])
        if k < 0.45 and level in HEDGES:
            return rng.choice(HEDGES[level]).format(n=rng.choice([5, 10, 15, 20]), h=rng.choice([30, 40, 50]))
        if k < 0.6 and level == "HIGH":
            return rng.choice(QUEUE_REACH + STUCK).format(lm=rng.choice(LANDMARKS), n=rng.choice([5, 10, 15]))
        if k < 0.8:
            return rng.choice(CLOCK[level]).format(c=rng.choice(CLOCKS))
        return rng.choice(HEARSAY[level])
    if r < 0.45:
        t = rng.choice(LEVEL_PHRASES[level])
    elif r < 0.62:
        t = wait_phrase(level)
    elif r < 0.82:
        t = rng.choice(LEVEL_PHRASES[level]) + " " + wait_phrase(level)
    elif level == "LOW" and r < 0.92:
        t = rng.choice(NEGATION_LOW)
    elif level == "MEDIUM" and r < 0.88:
        t = rng.choice(NEG_MEDIUM)
    elif level == "HIGH" and r < 0.92:
        t = rng.choice(IRONY).format(w=wait_phrase("HIGH"))
    else:
        t = rng.choice(EXPECT_THEN[level])
    if rng.random() < 0.35:
        t = place + " " + t
    if rng.random() < 0.3:
        t = rng.choice(NOW_PREFIX) + " " + t
    return t


def cause_for(spot, level):
    if level == "LOW":
        return ("NONE", "") if rng.random() < 0.8 else ("WEATHER", rng.choice(LOW_CAUSE))
    if rng.random() < 0.25:
        return ("EVENT" if spot["event_spot"] else "NONE", "")
    c = rng.choice(spot["causes"])
    return (c, rng.choice(CAUSE_PHRASES[c]).format(ev=rng.choice(spot["events"]) if spot["events"] else "행사"))


def report(spot, level, with_cause=True):
    t = level_text(level, spot)
    cause, cp = ("NONE", "")
    if with_cause and level != "UNKNOWN":
        cause, cp = cause_for(spot, level)
    if cp:
        t = (cp + " " + t) if rng.random() < 0.7 else (t + " " + cp)
    return t, cause


def long_post(spot, level):
    parts = [rng.choice(INTROS).format(name=spot["short"])]
    t, cause = report(spot, level)
    parts.append(t + ".")
    fill = rng.sample(FILLERS, rng.randint(2, 14) if rng.random() < 0.5 else rng.randint(2, 5))
    parts += fill[:len(fill) // 2]
    if level in LEVEL_PHRASES and rng.random() < 0.6:
        parts.append(rng.choice(spot["places"]) + " 쪽도 " + rng.choice(LEVEL_PHRASES[level]) + ".")
    parts += fill[len(fill) // 2:]
    if level in ("MEDIUM", "HIGH") and rng.random() < 0.5:
        parts.append(wait_phrase(level) + ".")
    parts.append(rng.choice(ADVICE[level] if level in ADVICE else CLOSERS))
    if rng.random() < 0.5:
        parts.append(rng.choice(CLOSERS))
    text = " ".join(parts)
    if rng.random() < 0.35:
        text = text.replace(". ", " ").replace(".", "")
    return text[:500], cause


def fix_josa(t):
    """Picks 은/는, 이/가, 으로/로 after {o}-style substitutions by the final consonant."""
    out = []
    for i, ch in enumerate(t):
        prev = out[-1] if out else ""
        if ch in "은는" and prev and "가" <= prev <= "힣" and (i + 1 == len(t) or t[i + 1] in " ,.!?~"):
            ch = "은" if (ord(prev) - 0xAC00) % 28 else "는"
        out.append(ch)
    return "".join(out)


def irrelevant(spot, kind=None):
    kind = kind or rng.choice(["q", "q", "react", "react", "ad", "inj", "arr", "past", "future",
                               "other", "other", "opinion", "opinion", "elsewhere", "tip", "tip"])
    if kind == "tip":
        return rng.choice(TIPS)
    if kind == "opinion":
        return rng.choice(OPINIONS)
    if kind == "elsewhere":
        return fix_josa(rng.choice(ELSEWHERE).format(o=rng.choice(spot["others"])))
    ev = rng.choice(spot["events"]) if spot["events"] else "행사"
    if kind == "q":
        return rng.choice(QUESTIONS).format(place=rng.choice(spot["places"]), name=spot["short"], ev=ev)
    if kind == "react":
        return rng.choice(REACTIONS)
    if kind == "ad":
        return rng.choice(ADS).format(n=rng.randint(10, 99), name=spot["short"])
    if kind == "inj":
        return rng.choice(INJECTIONS).format(lv=rng.choice(["HIGH", "LOW", "MEDIUM", "혼잡", "여유"]))
    if kind == "arr":
        return rng.choice(ARRIVALS).format(name=spot["short"])
    if kind == "past":
        lv = rng.choice(["LOW", "MEDIUM", "HIGH"])
        return rng.choice(PAST_PHRASES[lv])
    if kind == "future":
        return rng.choice(FUTURE_PHRASES).format(ev=ev)
    other = rng.choice(spot["others"])
    lv = rng.choice(["LOW", "MEDIUM", "HIGH"])
    return fix_josa(rng.choice(OTHER_PLACE_LEVEL[lv]).format(o=other))


def distinct(fn):
    for _ in range(200):
        t, lbl = fn()
        t = t.strip()
        if t and t not in seen and len(t) <= 500:
            seen.add(t)
            return t, lbl
    return None, None


def make_bundle(idx):
    spot = rng.choice(SPOTS)
    bid = f"t{idx:04d}"
    r = rng.random()
    post_level = None
    if r < 0.72:
        post_level = rng.choices(["LOW", "MEDIUM", "HIGH", "UNKNOWN"], [0.27, 0.28, 0.4, 0.05])[0]

        def mk():
            if rng.random() < 0.18:
                t, c = long_post(spot, post_level)
            else:
                t, c = report(spot, post_level)
                t = noisify(t)
            return t, lab(REL, post_level, c)
    else:
        def mk():
            t = irrelevant(spot)
            return noisify(t) if rng.random() < 0.4 else t, lab(IRR)
    ptext, plab = distinct(mk)
    if ptext is None:
        return None
    post_cause = plab["cause"]
    if plab["relevance"] == IRR:
        # a question or notice that names the event still gives the context cause
        post_cause = "NONE"
        for c, words in (("EVENT", spot["events"]),):
            if any(w in ptext for w in words):
                post_cause = c
    if post_cause == "NONE" and spot["event_spot"]:
        post_cause = "EVENT"
    signals = [(ptext, plab)]
    n_comments = rng.choices(range(0, 9), [0.08, 0.12, 0.14, 0.15, 0.14, 0.12, 0.1, 0.08, 0.07])[0]
    # the crowd of the moment: comments mostly agree with the post, sometimes drift
    now = post_level if post_level in ("LOW", "MEDIUM", "HIGH") else rng.choice(["LOW", "MEDIUM", "HIGH"])
    for _ in range(n_comments):
        parent_text, parent_lab = signals[-1]
        k = rng.random()
        if k < 0.45:
            lv = now if rng.random() < 0.7 else rng.choice(["LOW", "MEDIUM", "HIGH", "UNKNOWN"])

            def mk():
                t, c = report(spot, lv, with_cause=rng.random() < 0.3)
                if c == "NONE" and lv in ("MEDIUM", "HIGH"):
                    c = post_cause
                return noisify(t), lab(REL, lv, c)
        elif k < 0.62:
            def mk():
                t = rng.choice(REPLIES_AGREE)
                if parent_lab["relevance"] == IRR:
                    return t, lab(IRR)
                lv = parent_lab["level"]
                c = "NONE"
                if lv in ("MEDIUM", "HIGH"):
                    c = parent_lab["cause"] if parent_lab["cause"] != "NONE" else post_cause
                return t, lab(REL, lv, c)
        else:
            def mk():
                t = irrelevant(spot)
                return (noisify(t) if rng.random() < 0.3 else t), lab(IRR)
        t, lb = distinct(mk)
        if t is None:
            # replies repeat a lot; decorate to keep texts distinct without changing meaning
            base, lb = mk()
            for _ in range(50):
                t = base + rng.choice([" ㅠ", " ㅋ", "!", "~~", " ㅎ", "..", " 😂", " ㅜ", "!!!"]) * rng.randint(1, 3)
                if t not in seen:
                    seen.add(t)
                    break
            else:
                continue
        signals.append((t, lb))
    m = rng.randint(3, 20)
    ago = sorted([m] + [rng.randint(0, m) for _ in signals[1:]], reverse=True)
    post = {"signal_id": f"{bid}-p", "author_id": f"u{rng.randint(1, 400)}", "minutes_ago": ago[0],
            "text": signals[0][0], "label": signals[0][1]}
    comments = []
    for i, (t, lb) in enumerate(signals[1:], 1):
        comments.append({"signal_id": f"{bid}-c{i}", "author_id": f"u{rng.randint(1, 400)}",
                         "minutes_ago": ago[i], "text": t, "label": lb})
    return {"bundle_id": bid, "spot": {"spot_id": spot["id"], "name": spot["name"],
                                       "description": spot["desc"]},
            "post": post, "comments": comments}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    out = []
    i = 0
    while len(out) < n:
        b = make_bundle(i)
        i += 1
        if b:
            out.append(b)
    for b in out:
        print(json.dumps(b, ensure_ascii=False))


if __name__ == "__main__":
    main()
