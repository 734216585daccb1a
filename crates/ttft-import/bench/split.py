#!/usr/bin/env python3
"""The same parse-and-split as ttft-import's OTLP reader, in plain Python with
the standard `json` module, to compare against the native Rust importer.

Usage: python3 bench/split.py FILE.otlp.jsonl [ROUNDS]
Prints one line: `python_seconds=<best of ROUNDS> requests=<n>`.

Per span named llm_request it reads the vLLM latency attributes (seconds),
converts them to integer microseconds, computes the unattributed remainder
(TTFT - queue - prefill) and the largest piece, as the Rust side does. It
does not build CSV or summaries; neither does the timed Rust loop.
"""
import json
import sys
import time

KEYS = {
    "gen_ai.latency.time_in_queue": "queue",
    "gen_ai.latency.time_in_model_prefill": "prefill",
    "gen_ai.latency.time_to_first_token": "ttft",
    "gen_ai.latency.time_in_model_decode": "decode",
    "gen_ai.latency.e2e": "e2e",
}


def split_file(text):
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        doc = json.loads(line)
        for rs in doc.get("resourceSpans", []):
            for ss in rs.get("scopeSpans", []):
                for span in ss.get("spans", []):
                    if span.get("name") != "llm_request":
                        continue
                    f = {}
                    for kv in span.get("attributes", []):
                        key = KEYS.get(kv["key"])
                        if key is not None:
                            f[key] = int(round(float(kv["value"]["doubleValue"]) * 1_000_000))
                        elif kv["key"] == "gen_ai.request.id":
                            f["id"] = kv["value"]["stringValue"]
                        elif kv["key"] == "gen_ai.usage.completion_tokens":
                            f["out"] = int(kv["value"]["intValue"])
                    q, p, t = f.get("queue"), f.get("prefill"), f.get("ttft")
                    pieces = None
                    if q is not None and t is not None:
                        rest = t - q - (p or 0)
                        pieces = [("queue", q), ("prefill_with_emit", p or 0)]
                        if rest != 0:
                            pieces.append(("unattributed", rest))
                        top = max(v for _, v in pieces)
                        largest = [k for k, v in pieces if v == top]
                    else:
                        largest = None
                    out.append((f.get("id"), pieces, largest))
    return out


def main():
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    best = None
    n = 0
    for _ in range(rounds):
        start = time.perf_counter()
        n = len(split_file(text))
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    print(f"python_seconds={best:.6f} requests={n}")


if __name__ == "__main__":
    main()
