"""What identifier detection costs on this machine: the first load, the time for a 1,000-word note in
English and in Spanish after it, and the memory the detector adds to the process — the figures of
docs/PRIVACY.md ("Cost"). The load is what the app runs before the first message
(``warm_pseudonymisation``); ``first_note_ms`` is the first 1,000-word note after it, which pays for what
the load left lazy, and ``ms`` the notes after that. Each figure is measured in a fresh process, as the
app meets it: the app's engine has imported torch before the detector loads (spaCy's thinc imports it
too), so torch is imported first and its time and memory are not the detector's; ``cold_first_load_s``
is the whole of it, torch included, for a process that has nothing loaded.

    .venv/bin/python scripts/identifier_cost.py [--runs 7] [--no-context | --float32]

``--no-context`` leaves the language model's reading out: the cost of that stage is the difference.
``--float32`` reads in float32 where the processor has bfloat16, as a processor without it reads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, sys, time, psutil
sys.path.insert(0, sys.argv[1])
process = psutil.Process()
cold = time.perf_counter()
import torch
torch_s = time.perf_counter() - cold
from app.privacy.annotated import project_sources
language, runs, context = sys.argv[2], int(sys.argv[3]), sys.argv[4] != "plain"
if sys.argv[4] == "float32":  # as a processor without bfloat16 reads
    from app.identifiers import contextual_tagger
    contextual_tagger.reading_dtype = lambda: torch.float32
documents = [d for s in project_sources() if s.name == "written-dev" for d in s.documents if d.language == language]
note = ""
for document in documents:
    note += document.text + "\n"
    if len(note.split()) >= 1000:
        break
before = process.memory_info().rss
started = time.perf_counter()
from app.identifiers.pseudonyms import Pseudonymiser
from app.identifiers.detect import IdentifierDetector
from app.identifiers.language import Language
from app.identifiers.warming import warm_pseudonymisation
from app.identifiers.contextual_tagger import reading_dtype
detector = IdentifierDetector(use_context=context)
warm_pseudonymisation([Language(language)], detector)
first = time.perf_counter() - started
cold_first = first + torch_s
started = time.perf_counter()
Pseudonymiser(detector=detector).pseudonymise(note)
first_note = (time.perf_counter() - started) * 1000
times = []
for _ in range(runs):
    pseudonymiser = Pseudonymiser(detector=detector)
    started = time.perf_counter()
    pseudonymiser.pseudonymise(note)
    times.append((time.perf_counter() - started) * 1000)
added = round((process.memory_info().rss - before) / 2**20)
print(json.dumps({"language": language, "words": len(note.split()), "first_load_s": round(first, 2),
                  "cold_first_load_s": round(cold_first, 2), "first_note_ms": round(first_note, 1),
                  "ms": [round(t, 1) for t in times], "added_rss_mb": added,
                  "reading": str(reading_dtype()).removeprefix("torch.") if context else None}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-context", action="store_true", help="leave the language model's reading out")
    parser.add_argument("--float32", action="store_true", help="read in float32 whatever the processor has")
    args = parser.parse_args()
    stages = "plain" if args.no_context else "float32" if args.float32 else "context"
    for language in ("en", "es"):
        result = subprocess.run(
            [sys.executable, "-c", _CHILD, str(ROOT), language, str(args.runs), stages],
            capture_output=True,
            text=True,
            check=True,
        )
        figures = json.loads(result.stdout.strip().splitlines()[-1])
        figures["median_ms"] = round(statistics.median(figures["ms"]), 1)
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
