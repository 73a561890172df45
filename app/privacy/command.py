"""``splitchat privacy``: the token-recovery evaluation per split depth, or with ``--identifiers`` the
identifier report (detection, what the attackers recover with pseudonymisation off and on, cost, fidelity)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
from pathlib import Path

from app.jobs import Cancelled
from app.privacy.settings import PrivacySettings
from app.progress_display import stderr_progress as _progress


def run_privacy_command(args: argparse.Namespace) -> int:
    if args.annotated is not None and not args.identifiers:
        raise ValueError("--annotated scores identifier detection: use it with --identifiers")
    if args.json is None and args.annotated is None:
        raise ValueError("the report needs a file: --json FILE")
    return identifier_command(args) if args.identifiers else recovery_command(args)


def recovery_command(args: argparse.Namespace) -> int:
    """Token recovery per depth and direction, cached per model fingerprint and settings."""
    from app.engine.source.specs import resolve_model
    from app.privacy.evaluation import run
    from app.privacy.plot import plot_report

    settings = PrivacySettings(
        depths=tuple(int(d) for d in args.depths.split(",")),
        corpus=str(args.corpus) if args.corpus else None,
        max_train_pairs=args.max_train_pairs,
        max_test_pairs=args.max_test_pairs,
        mlp_epochs=args.mlp_epochs,
        mlp_width=args.mlp_width,
        seed=args.seed,
        pseudonymise=args.pseudonymise,
    )
    source = resolve_model(args.model, _progress)
    try:
        report = run(source, settings, _progress, threading.Event(), refresh=args.refresh)
    except (Cancelled, KeyboardInterrupt):
        _progress.close()
        print("splitchat: privacy evaluation cancelled; nothing was cached", file=sys.stderr)
        return 130
    _progress.close()  # the table goes on lines of its own
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(report.to_json(indent=1))
    if args.plot:
        plot_report(report, args.plot)
    print(f"{'depth':>5} {'direction':<12} {'attacker':<19} {'top-1':>7} {'95% CI':>15} {'top-5':>7}")
    for row in report.results:
        low, high = row.ci95
        print(
            f"{row.depth:>5} {row.direction:<12} {row.attacker:<19} {100 * row.top1:6.1f}% "
            f"[{100 * low:5.1f}, {100 * high:5.1f}] {100 * row.top5:6.1f}%"
        )
    print(f"{report.corpus.test_pairs} test tokens; report written to {args.json}", file=sys.stderr)
    return 0


def annotated_command(args: argparse.Namespace) -> int:
    """``--identifiers --annotated DIR``: detection scored on an office's own annotated documents."""
    from app.privacy.annotated import Role, Source, load_annotated

    documents = load_annotated(args.annotated)  # a malformed file is refused before the detector loads
    if not documents:
        raise ValueError(f"{args.annotated} holds no documents")
    from app.identifiers.detect import IdentifierDetector
    from app.privacy.identifier_evaluation import score_sources, source_lines, sources_json

    source = Source(Path(args.annotated).name, Role.HELD_OUT, "your annotated documents", tuple(documents))
    _progress("Scoring detection on your documents", 0.0)
    scores = score_sources([source], IdentifierDetector())
    _progress.close()
    print("\n".join(source_lines(scores)))
    for item in scores:
        print(f"\n{item.language}: token recall by type")
        for kind, rate in sorted(item.scores.token_recall.items(), key=lambda kv: kv[1].value):
            low, high = rate.ci95
            print(f"  {kind:<14} {100 * rate.value:6.2f}% [{100 * low:5.1f}, {100 * high:5.1f}]  ({rate.total} words)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"format": "splitchat-annotated-scores", "sources": sources_json(scores)}, indent=1)
        )
        print(f"report written to {args.json}", file=sys.stderr)
    return 0


def identifier_command(args: argparse.Namespace) -> int:
    """``--identifiers``: detection scores, the attackers on what crosses the wire, the cost, the fidelity."""
    if args.annotated is not None:
        return annotated_command(args)
    from app.engine.chat import SplitChat
    from app.engine.decode.sampling import Sampling
    from app.engine.source.specs import resolve_model
    from app.model.choices import SplitSpec
    from app.privacy.activations import WholeModel
    from app.privacy.identifier_evaluation import IdentifierSettings, evaluate_identifiers, summary_lines

    settings = IdentifierSettings(
        depth=args.identifier_depth,
        attack_documents=args.identifier_documents,
        train_documents=args.identifier_documents,
        mlp_width=args.mlp_width,
        mlp_epochs=args.mlp_epochs,
        seed=args.seed,
        fidelity_variants=args.fidelity_variants,
    )
    source = resolve_model(args.model, _progress)
    loop = asyncio.new_event_loop()
    chat = None
    if settings.fidelity_variants:  # the chat model answers the fidelity questions, on its own loopback worker
        chat = loop.run_until_complete(SplitChat.open(source.spec, SplitSpec.parse(args.split)))

    def answer(messages, pseudonymiser) -> str:
        reply = chat.reply(messages, settings.fidelity_tokens, Sampling(), pseudonymiser=pseudonymiser)
        return loop.run_until_complete(reply).text

    try:
        report = evaluate_identifiers(
            WholeModel.from_source(source),
            source.tokenizer(),
            settings,
            _progress,
            answer=answer if chat is not None else None,
        )
    finally:
        if chat is not None:
            loop.run_until_complete(chat.close())
        loop.close()
    _progress.close()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(report.to_json())
    print("\n".join(summary_lines(report)))
    print(f"report written to {args.json}", file=sys.stderr)
    return 0
