#!/usr/bin/env python3
"""Checks a headless run for NaN, tunnelling through the ground and bodies escaping their container.

Issue 5's acceptance: every big scene runs 1000 steps "without NaN, tunnelling through the ground,
or bodies escaping the container". Reads the run's --trace CSV and its --state-out scene file (for
the static bodies) and prints one line per scene; exits 1 if any check fails, 2 on unreadable input.

    contactlab-cli run jacks --steps 1000 --trace jacks.csv --state-out jacks.json
    bench/check_containment.py jacks.csv jacks.json

What the checks mean (the built-in scenes' statics, scenes/scene_building.h):
  - NaN: any non-finite number in the trace.
  - tunnelled: a dynamic body's centre of mass below the top face of the static box named "ground"
    at any step (a body resting on the ground has its centre above it by at least its own
    half-thickness, so a centre below the face has passed through it).
  - escaped: at the end, a body outside its container: inside the inner faces of the walls named
    wall_x-, wall_x+, wall_y-, wall_y+ where they exist; inside the outer radius of the static
    mesh named "glass" (0.5 x its scale, docs/meshes.md) where that exists; otherwise on the
    ground's footprint. Also counted: a body that left the ground's footprint at any step.
"""
import csv
import json
import math
import sys


def fail_input(message):
    print(f"check_containment: {message}", file=sys.stderr)
    sys.exit(2)


def load_statics(scene_path):
    try:
        with open(scene_path) as f:
            scene = json.load(f)
    except (OSError, json.JSONDecodeError) as error:
        fail_input(f"{scene_path}: {error}")
    statics = {}
    for body in scene.get("bodies", []):
        if body.get("static") and "name" in body:
            statics[body["name"]] = body
    if "ground" not in statics or statics["ground"].get("shape") != "box":
        fail_input(f"{scene_path}: no static box named 'ground'")
    return statics


def box_bounds(body):
    centre, size = body["position"], body["size"]
    return [(centre[i] - size[i] / 2, centre[i] + size[i] / 2) for i in range(3)]


def main():
    if len(sys.argv) != 3:
        fail_input("usage: check_containment.py TRACE.csv STATE_OUT.json")
    trace_path, scene_path = sys.argv[1], sys.argv[2]
    statics = load_statics(scene_path)
    ground = box_bounds(statics["ground"])
    ground_top = ground[2][1]

    walls = [statics.get(name) for name in ("wall_x-", "wall_x+", "wall_y-", "wall_y+")]
    if all(walls):
        x_inner = (box_bounds(walls[0])[0][1], box_bounds(walls[1])[0][0])
        y_inner = (box_bounds(walls[2])[1][1], box_bounds(walls[3])[1][0])
        container = "walls"
        def inside(x, y):
            return x_inner[0] <= x <= x_inner[1] and y_inner[0] <= y <= y_inner[1]
    elif "glass" in statics:
        glass = statics["glass"]
        radius = 0.5 * glass["scale"]
        cx, cy = glass["position"][0], glass["position"][1]
        container = f"glass r={radius:.3f}"
        def inside(x, y):
            return math.hypot(x - cx, y - cy) <= radius
    else:
        container = "ground"
        def inside(x, y):
            return ground[0][0] <= x <= ground[0][1] and ground[1][0] <= y <= ground[1][1]

    non_finite = 0
    tunnelled, left_ground, final = set(), set(), {}
    lowest = math.inf
    last_step = 0
    try:
        with open(trace_path, newline="") as f:
            for row in csv.DictReader(f):
                values = [float(row[k]) for k in ("x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz")]
                body = int(row["body"])
                last_step = max(last_step, int(row["step"]))
                if not all(math.isfinite(v) for v in values):
                    non_finite += 1
                    continue
                x, y, z = values[0], values[1], values[2]
                lowest = min(lowest, z - ground_top)
                if z < ground_top:
                    tunnelled.add(body)
                if not (ground[0][0] <= x <= ground[0][1] and ground[1][0] <= y <= ground[1][1]):
                    left_ground.add(body)
                final[body] = (x, y)
    except (OSError, KeyError, ValueError) as error:
        fail_input(f"{trace_path}: {error}")
    if not final:
        fail_input(f"{trace_path}: no rows")
    escaped = {b for b, (x, y) in final.items() if not inside(x, y)} | left_ground

    ok = non_finite == 0 and not tunnelled and not escaped
    print(f"{trace_path}: steps {last_step}, bodies {len(final)}, container {container}: "
          f"non-finite rows {non_finite}, tunnelled {len(tunnelled)}, escaped {len(escaped)}, "
          f"lowest centre {lowest:.3f} m above the ground -> {'ok' if ok else 'FAILED'}")
    if tunnelled:
        print(f"  tunnelled bodies: {sorted(tunnelled)[:20]}")
    if escaped:
        print(f"  escaped bodies: {sorted(escaped)[:20]}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
