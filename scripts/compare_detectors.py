"""Score off-the-shelf identifier detectors on the held-out half of splitchat's evaluation set.

The comparison behind the choice in docs/PRIVACY.md ("Choosing the detector"). It needs what the project
installs, plus `pip install presidio-analyzer` and `pip install scrubadub` for those candidates (each left out
when absent). Nothing downloads:
Presidio's e-mail recogniser asks tldextract for the public-suffix list on first use, so the list is
pinned to the copy tldextract ships.

    .venv/bin/python scripts/compare_detectors.py
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.identifiers.detect import IdentifierDetector, spacy_model  # noqa: E402
from app.identifiers.entities import Entity, EntityType  # noqa: E402
from app.privacy.detection_scores import score  # noqa: E402
from app.privacy.identifier_corpus import load_corpus  # noqa: E402

Detect = Callable[[str], list[Entity]]


def offline_public_suffixes() -> None:
    try:
        import tldextract
        from presidio_analyzer.predefined_recognizers.generic import email_recognizer
    except ImportError:
        return

    email_recognizer.tldextract.extract = tldextract.TLDExtract(suffix_list_urls=())


def presidio_default() -> Detect:
    """Presidio's AnalyzerEngine as documented: every predefined recogniser, spaCy as the NLP engine."""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    configuration = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": spacy_model()}]}
    engine = AnalyzerEngine(nlp_engine=NlpEngineProvider(nlp_configuration=configuration).create_engine())
    # Scoring counts covered tokens whatever the type, so each finding is typed alike.
    return lambda text: [Entity(r.start, r.end, EntityType.PERSON) for r in engine.analyze(text, language="en")]


def scrubadub_default() -> Detect:
    import scrubadub

    scrubber = scrubadub.Scrubber()
    return lambda text: [Entity(f.beg, f.end, EntityType.PERSON) for f in scrubber.iter_filth(text)]


def main() -> int:
    offline_public_suffixes()
    held_out = [d for d in load_corpus() if d.half == "held_out"]
    candidates = {
        "Presidio, default recognisers + spaCy en_core_web_sm": presidio_default,
        "scrubadub, default detectors": scrubadub_default,
        "splitchat (spaCy NER + checked numbers + rules)": lambda: IdentifierDetector().detect,
    }
    for name, make in candidates.items():
        try:
            detect = make()
        except ImportError as exc:
            print(f"{name}: not installed ({exc.name})")
            continue
        detect("Warm-up for Ms Ada Lovelace.")
        started = time.perf_counter()
        scores = score(held_out, detect)
        per_document_ms = (time.perf_counter() - started) * 1000 / len(held_out)
        kind, worst = scores.worst_type()
        print(
            f"{name}: token recall {scores.token_recall['overall'].value:.4f}, "
            f"precision {scores.token_precision.value:.4f}, span recall {scores.span_recall['overall'].value:.4f}, "
            f"worst type {kind} {worst:.3f}, {per_document_ms:.0f} ms per document"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
