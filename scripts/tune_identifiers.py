"""The detector's edit-and-measure loop: scores every evaluation source, and lists what it missed and what
it replaced wrongly — for the development sources only. A held-out source is scored, never shown, so
tuning cannot read it (docs/PRIVACY.md, "The evaluation sets").

    .venv/bin/python scripts/tune_identifiers.py [--source NAME] [--misses N] [--type TYPE] [--rules-only]

The learned stage was trained on the development sources, so their figures with it are in-sample:
``--rules-only`` leaves it out, to read what the rules alone miss there.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.identifiers.detect import IdentifierDetector  # noqa: E402
from app.privacy.annotated import Role, project_sources  # noqa: E402
from app.privacy.detection_scores import TITLES, score  # noqa: E402

_TOKEN = re.compile(r"[^\W_]+")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", help="only these sources")
    parser.add_argument("--misses", type=int, default=40, help="how many misses and wrong replacements to list")
    parser.add_argument("--type", help="list only misses of this type")
    parser.add_argument("--rules-only", action="store_true", help="leave the learned stages out")
    parser.add_argument("--no-context", action="store_true", help="leave the language model's reading out")
    args = parser.parse_args()
    detector = IdentifierDetector(use_tagger=not args.rules_only, use_context=not args.no_context)
    detector.warm()
    for source in project_sources():
        if args.source and source.name not in args.source:
            continue
        started = time.perf_counter()
        cache = {}

        def detect(text: str, _cache=cache) -> list:
            if text not in _cache:
                _cache[text] = detector.detect(text)
            return _cache[text]

        for language in sorted({d.language for d in source.documents}):
            documents = [d for d in source.documents if d.language == language]
            scores = score(documents, detect)
            overall = scores.token_recall["overall"]
            worst = (
                "(types of a held-out source are not shown)"
                if source.role is not Role.DEVELOPMENT
                else ", ".join(
                    f"{k} {v.value:.3f} ({v.total - v.hits}/{v.total})"
                    for k, v in sorted(scores.token_recall.items(), key=lambda kv: kv[1].value)[:6]
                    if k != "overall"
                )
            )
            print(
                f"{source.name:<20} {source.role.value:<11} {language} {len(documents):>3} docs  recall "
                f"{overall.value:.4f} ({overall.total - overall.hits} missed of {overall.total})  precision "
                f"{scores.token_precision.value:.4f}  worst: {worst}"
            )
        print(f"  {time.perf_counter() - started:.1f} s")
        if source.role is not Role.DEVELOPMENT:
            continue
        missed, wrong = [], []
        for document in source.documents:
            found = detect(document.text)
            for entity in document.entities:
                tokens = [
                    m.span()
                    for m in _TOKEN.finditer(document.text, entity.start, entity.end)
                    if m.group(0).lower() not in TITLES
                ]
                if not all(any(f.start <= s and e <= f.end for f in found) for s, e in tokens):
                    if args.type is None or entity.type.value == args.type:
                        context = document.text[max(0, entity.start - 30) : entity.end + 30].replace("\n", "⏎")
                        missed.append(f"    {entity.type.value:<14} {entity.text_in(document.text)!r:<32} …{context}…")
            for finding in found:
                tokens = [
                    m.span()
                    for m in _TOKEN.finditer(document.text, finding.start, finding.end)
                    if m.group(0).lower() not in TITLES
                ]
                bad = [
                    document.text[s:e]
                    for s, e in tokens
                    if not any(a.start <= s and e <= a.end for a in document.entities)
                ]
                if bad:
                    wrong.append(
                        f"    {finding.type.value:<14} {' '.join(bad)!r:<32} in {finding.text_in(document.text)!r}"
                    )
        print(f"  missed ({len(missed)}):")
        print("\n".join(missed[: args.misses]))
        print(f"  replaced but not identifiers ({len(wrong)}):")
        print("\n".join(wrong[: args.misses]))


if __name__ == "__main__":
    main()
