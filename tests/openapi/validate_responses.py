#!/usr/bin/env python3
"""Checks every HTTP response the black-box suites receive against docs/openapi.yaml.

  validate_responses.py --spec docs/openapi.yaml --run BLACKBOX_TEST [--run ...]
  validate_responses.py --spec docs/openapi.yaml --recorded FILE.jsonl

Each --run binary is started with BLACKBOX_RECORD=FILE, so its clients append
every exchange (method, path, status, headers, body) to FILE as JSON lines
(tests/blackbox/server_process.cpp). Then each exchange must match the spec:
the path and method are documented (or the answer is the documented 404/405
problem), the status is listed for that operation, the Content-Type is one the
response declares, the JSON body validates against its schema (JSON Schema
2020-12, as OpenAPI 3.1 uses), and every required response header is present.
Exits 0 when all match, 1 listing each mismatch.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
    import yaml
except ImportError as e:  # CTest reads 77 as skipped
    print(f"validate_responses: SKIPPED, {e} (Debian: python3-jsonschema python3-yaml)")
    sys.exit(77)


def media_type(value):
    return value.split(";")[0].strip().lower()


class Spec:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.doc = yaml.safe_load(f)
        self.validators = {}

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            assert ref.startswith("#/"), ref
            node = self.doc
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def errors(self, schema, instance):
        # A schema validated in the context of the whole document, so that
        # '#/components/...' references resolve.
        key = json.dumps(schema, sort_keys=True)
        v = self.validators.get(key)
        if v is None:
            root = dict(self.doc)
            root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
            root["allOf"] = [schema]
            v = jsonschema.Draft202012Validator(
                root, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
            self.validators[key] = v
        return [f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}"
                for e in v.iter_errors(instance)]

    def check(self, ex):
        """The list of mismatches for one recorded exchange."""
        method, path, status = ex["method"], ex["path"], ex["status"]
        headers = {k.lower(): v for k, v in ex["headers"].items()}
        where = f"{method} {path} -> {status}"
        out = []
        if "x-request-id" not in headers:
            out.append(f"{where}: no X-Request-Id header")
        item = self.doc["paths"].get(path)
        problem_schema = {"$ref": "#/components/schemas/Problem"}
        if item is None:
            if status != 404:
                out.append(f"{where}: undocumented path answered {status}, not 404")
            return out + self.body_errors(where, headers, ex["body"],
                                          {"application/problem+json": {"schema": problem_schema}},
                                          expect_code="NOT_FOUND")
        op_name = "get" if method == "HEAD" else method.lower()
        op = item.get(op_name)
        if op is None:
            allowed = sorted(m.upper() for m in item if m in ("get", "post", "put", "patch", "delete"))
            if method == "OPTIONS" and status == 204:
                return out
            if status != 405:
                out.append(f"{where}: method not in the spec answered {status}, not 405")
            allow = headers.get("allow", "")
            for m in allowed:
                if m not in [a.strip() for a in allow.split(",")]:
                    out.append(f"{where}: Allow '{allow}' lacks {m}")
            return out + self.body_errors(where, headers, ex["body"],
                                          {"application/problem+json": {"schema": problem_schema}},
                                          expect_code="METHOD_NOT_ALLOWED")
        responses = op.get("responses", {})
        resp = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
        if resp is None:
            return out + [f"{where}: status {status} is not documented "
                          f"(documented: {', '.join(sorted(responses))})"]
        resp = self.resolve(resp)
        for name, h in (resp.get("headers") or {}).items():
            h = self.resolve(h)
            if h.get("required") and name.lower() not in headers:
                out.append(f"{where}: required header {name} missing")
        if method == "HEAD":
            return out
        return out + self.body_errors(where, headers, ex["body"], resp.get("content") or {})

    def body_errors(self, where, headers, body, content, expect_code=None):
        if not content:
            return [f"{where}: body sent but none documented"] if body else []
        ct = media_type(headers.get("content-type", ""))
        declared = {media_type(k): v for k, v in content.items()}
        if ct not in declared:
            return [f"{where}: Content-Type '{ct}' not in {sorted(declared)}"]
        schema = (declared[ct] or {}).get("schema")
        if not (ct == "application/json" or ct.endswith("+json")):
            return []
        try:
            value = json.loads(body)
        except ValueError as e:
            return [f"{where}: body is not JSON ({e})"]
        out = [f"{where}: {e}" for e in self.errors(schema, value)] if schema else []
        if expect_code and isinstance(value, dict) and value.get("code") != expect_code:
            out.append(f"{where}: code {value.get('code')!r}, expected {expect_code}")
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spec", required=True)
    ap.add_argument("--run", action="append", default=[], help="a black-box test binary to run")
    ap.add_argument("--recorded", action="append", default=[], help="a recorded JSON-lines file")
    ap.add_argument("--min", type=int, default=1, help="fail when fewer exchanges were recorded")
    args = ap.parse_args()
    spec = Spec(args.spec)
    files = list(args.recorded)
    tmp = tempfile.mkdtemp(prefix="nunchi-openapi-")
    for i, binary in enumerate(args.run):
        rec = os.path.join(tmp, f"run{i}.jsonl")
        env = dict(os.environ, BLACKBOX_RECORD=rec)
        r = subprocess.run([binary], env=env)
        if r.returncode != 0:
            print(f"validate_responses: {binary} failed ({r.returncode}); checking what it recorded")
        files.append(rec)
    exchanges = []
    for f in files:
        if os.path.exists(f):
            with open(f, encoding="utf-8") as fh:
                exchanges += [json.loads(line) for line in fh if line.strip()]
    failures = []
    seen = set()
    for ex in exchanges:
        seen.add((ex["method"], ex["path"], ex["status"]))
        failures += spec.check(ex)
    print(f"validate_responses: {len(exchanges)} exchanges, {len(seen)} distinct "
          f"(method, path, status):")
    for m, p, s in sorted(seen):
        print(f"  {m} {p} {s}")
    if len(exchanges) < args.min:
        failures.append(f"only {len(exchanges)} exchanges recorded (want at least {args.min})")
    for f in sorted(set(failures)):
        print("MISMATCH " + f)
    print(f"validate_responses: {len(set(failures))} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
