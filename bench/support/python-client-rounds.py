"""The Python side of bench/python-client.ts: CPU time of this process (every thread: the application's, the client's
sender thread, its JSON and gzip work) per openai chat completion, traced through vigil_llm and untraced, in
alternating rounds; and per trace recorded by hand. The calls go through the openai stand-in (httpx, as openai) to
the fake OpenAI server; the traces to a receiver. Prints one JSON object."""

import json
import os
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "clients", "python", "src"))
sys.path.insert(0, os.path.join(ROOT, "clients", "python", "tests"))

import openai_standin as openai  # noqa: E402
from vigil_llm import Vigil  # noqa: E402

fake, receiver, calls, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
errors = []
vigil = Vigil(project_key="test-key", base_url=receiver, flush_interval=60, on_error=errors.append)
plain = openai.OpenAI(base_url=fake)
traced = vigil.wrap_openai(openai.OpenAI(base_url=fake))
SYSTEM = {"role": "system", "content": "You are the support assistant of Acme. Answer in one sentence."}


def run(client, n):
    for i in range(n):
        client.chat.completions.create(model="gpt-4o-mini", messages=[SYSTEM, {"role": "user", "content": f"Where is order {i}?"}], temperature=0.2)


def cpu_per_call(fn, n):
    t0 = time.process_time()
    fn(n)
    vigil.flush(60)
    return (time.process_time() - t0) / n * 1e6


def record(n):
    for i in range(n):
        vigil.record({"model": "gpt-4o-mini", "input": [SYSTEM, {"role": "user", "content": f"Where is order {i}?"}],
                      "output": {"role": "assistant", "content": "It left yesterday."}, "latency_ms": 840,
                      "tokens": {"input": 40, "output": 8}, "metadata": {"feature": "faq"}})


run(plain, 50)
run(traced, 50)
vigil.flush(60)
out = {"untraced_us": [], "traced_us": [], "record_us": []}
for r in range(rounds):
    # Alternate which side goes first: a machine that warms up or slows down within a round favours neither.
    order = [("untraced_us", lambda n: run(plain, n)), ("traced_us", lambda n: run(traced, n))]
    for name, fn in order if r % 2 == 0 else reversed(order):
        out[name].append(cpu_per_call(fn, calls))
    out["record_us"].append(cpu_per_call(record, calls))
vigil.close()
out["stats"] = vigil.stats()
out["errors"] = [e.code for e in errors]
print(json.dumps(out))
