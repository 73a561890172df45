"""``splitchat``: the desktop app with no arguments; subcommands ask | pseudonymise | worker | export-worker |
worker-token | train-draft | bench | privacy for headless use."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from app import cli_parser
from app.cli_parser import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE
from app.progress_display import stderr_progress as _progress
from app.thread_policy import apply_thread_wait_policy

TOKEN_ENV = "SPLITCHAT_TOKEN"
DEBUG_ENV = "SPLITCHAT_DEBUG"


def cmd_ask(args: argparse.Namespace) -> int:
    from app.data.command_policy import CommandFlags, bind_to_policy
    from app.engine.speculation.modes import Speculation

    # The app's path: the administrator's policy binds the flags, and the app's checks apply to them.
    bound = bind_to_policy(
        CommandFlags(
            model=args.model,
            split=args.split,
            device=args.device,
            mode=args.mode,
            budget=args.budget,
            temperature=args.temperature,
            top_p=args.top_p,
            max_new_tokens=args.max_new_tokens,
            endpoint=args.endpoint,
            cert_sha256=args.pin,
            pseudonymise=args.pseudonymise,
            compress_wire=args.compress_wire,
        )
    )
    chosen = bound.settings
    messages = ([{"role": "system", "content": args.system}] if args.system else []) + [
        {"role": "user", "content": args.prompt}
    ]
    token = os.environ.get(TOKEN_ENV) if bound.endpoint else None
    if bound.endpoint and not token:  # the command line takes its token from the environment only
        raise ValueError(f"a worker endpoint needs its bearer token in ${TOKEN_ENV}")
    # torch loads here, after the policy and the token have had their say: a refusal is said at once.
    from app.engine.chat import SplitChat
    from app.engine.decode.sampling import Sampling

    sampling = Sampling(temperature=chosen.temperature, top_p=chosen.top_p, seed=args.seed)
    pseudonymise = bound.pseudonymise
    detector = _office_detector(args) if pseudonymise else None

    async def run() -> dict:
        chat = await SplitChat.open(
            chosen.model,
            chosen.split_spec,
            bound.endpoint,
            token,
            chosen.device,
            args.dtype,
            args.wire_dtype,
            args.max_frame,
            speculation=Speculation(mode=chosen.decoding_mode, max_nodes=chosen.budget),
            progress=None if args.json else _progress,
            cert_sha256=bound.cert_sha256,
            compress_wire=bound.compress_wire,
            allow_unencrypted=bound.allow_unencrypted,
        )
        _progress.close()  # the answer streams to stdout: no bar left open on the terminal
        printed = 0

        def stream(text: str) -> None:
            nonlocal printed
            if not args.json:
                print(text[printed:], end="", flush=True)
                printed = len(text)

        pseudonymiser = None
        if pseudonymise:
            from app.identifiers.pseudonyms import Pseudonymiser

            pseudonymiser = Pseudonymiser(detector=detector)
        try:
            reply = await chat.reply(
                messages, chosen.max_new_tokens, sampling, on_text=stream, pseudonymiser=pseudonymiser
            )
        finally:
            await chat.close()
        stats = reply.generation.stats
        return {
            "text": reply.text,
            "tokens": reply.generation.tokens,
            "stop_reason": reply.generation.stop_reason,
            "round_trips": stats.round_trips,
            "tokens_per_round_trip": round(stats.tokens_per_round_trip, 3),
            "tok_per_s": round(stats.tok_per_s, 2),
            "step_ms": stats.mean_step_ms().rounded(),
            "mode": chosen.mode,
            # The live break-even: tokens per step the last plan had to average to beat sequential.
            "break_even": round(reply.generation.plans[-1].break_even, 3) if reply.generation.plans else 1.0,
            "split": str(chat.split),
            "model": chat.source.spec,
            "endpoint": "embedded" if chat.local_worker else bound.endpoint,
            "pseudonymised": pseudonymise,
            "model_prompt": reply.model_prompt,
            "entities": reply.identifiers,
        }

    result = asyncio.run(run())
    if args.json:
        print(json.dumps(result))
    else:
        step = result["step_ms"]
        print(
            f"\n\n[{len(result['tokens'])} tokens, {result['tok_per_s']} tok/s, {result['round_trips']} round trips "
            f"({result['tokens_per_round_trip']} tokens each, break-even a* {result['break_even']}); "
            f"per step: network {step['network']:.1f} ms, local {step['local_compute']:.1f} ms, "
            f"remote {step['remote_compute']:.1f} ms, serialization {step['serialization']:.2f} ms]",
            file=sys.stderr,
        )
    return 0


def cmd_export_worker(args: argparse.Namespace) -> int:
    from app.engine.link.export import export_worker_shard
    from app.engine.source.specs import resolve_model
    from app.model.choices import SplitSpec

    source = resolve_model(args.model, _progress)
    if args.bundle:
        from app.engine.link.worker_bundle import export_worker_bundle as export
    else:
        export = export_worker_shard
    manifest = export(source, SplitSpec.parse(args.split), args.out, args.dtype, _progress)
    _progress.close()
    what = "a worker bundle (shard, worker code, requirements, systemd unit, Dockerfile)" if args.bundle else ""
    print(f"wrote layers [{manifest.first_layer}, {manifest.last_layer}) to {args.out} {what}".rstrip())
    print(f"fingerprint {manifest.fingerprint}")
    return 0


def cmd_train_draft(args: argparse.Namespace) -> int:
    import torch
    from transformers import AutoModelForCausalLM

    from app.engine.chat import stop_token_ids
    from app.engine.source.fingerprints import model_fingerprint
    from app.engine.source.specs import resolve_model
    from app.engine.speculation.head_file import cached_head_path, save_head
    from app.engine.speculation.training import TrainConfig, load_training_prompts, train_draft_head
    from app.model.devices import resolve_device, resolve_dtype

    if args.fuse_layer < 0:
        raise ValueError("--fuse-layer takes 0 (none) or a number of layers")
    source = resolve_model(args.model, _progress)
    if args.fuse_layer >= source.num_layers:
        raise ValueError(f"--fuse-layer {args.fuse_layer}: the model has {source.num_layers} layers")
    out = args.out or cached_head_path(model_fingerprint(source))
    if out.exists() and not args.force:
        raise FileExistsError(f"{out} exists; pass --force to train again")
    config = TrainConfig(
        epochs=args.epochs,
        new_tokens=args.new_tokens,
        sampled_answers=args.sampled_answers,
        seed=args.seed,
        fuse_layer=args.fuse_layer or None,
    )
    prompts = load_training_prompts(args.prompts) if args.prompts else load_training_prompts()
    tokenizer = source.tokenizer()
    torch.manual_seed(args.seed)
    device = resolve_device(args.device)
    dtype = resolve_dtype(args.dtype, device)
    model = AutoModelForCausalLM.from_pretrained(source.folder, dtype=dtype).to(device).eval()
    head, info = train_draft_head(
        model,
        tokenizer,
        model_fingerprint(source),
        config,
        set(stop_token_ids(source, tokenizer)),
        prompts,
        _progress,
        answers_file=args.answers,
    )
    _progress.close()
    save_head(head, info, out)
    accuracy = ", ".join(f"{k} {v:.1%}" for k, v in info.training["held_out_accuracy"].items())
    print(
        f"wrote {out}: {info.training['train_positions']} positions from {info.training['answers']} answers "
        f"in {info.training['seconds']:.0f} s; held-out chain accuracy {accuracy}"
    )
    return 0


def cmd_install_draft(args: argparse.Namespace) -> int:
    from app.engine.source.fingerprints import model_fingerprint
    from app.engine.source.specs import resolve_model
    from app.engine.speculation.head_file import install_head

    if not args.file.is_file():
        raise ValueError(f"{args.file} is not a file")
    source = resolve_model(args.model, _progress)
    target, info = install_head(args.file, model_fingerprint(source), args.force)
    _progress.close()
    print(f"installed {target} for {args.model}")
    layers = info.fuse_layer
    if layers:
        print(f"it reads the drafted-from token after {layers} layers: a split keeping fewer local drafts without it")
    return 0


def _office_detector(args: argparse.Namespace):
    """The detector with the office's lists of terms: the policy's, and those of --hide-terms / --keep-terms
    (a term the policy hides stays hidden whatever --keep-terms says); reading with the bundled model unless
    the settings (or the policy) leave that out."""
    from app.data.settings import office_term_lists, reading_in_context
    from app.identifiers.detect import IdentifierDetector
    from app.identifiers.office_terms import OfficeTerms, read_terms

    office = office_term_lists()
    hidden = set(office.hidden) | (read_terms(args.hide_terms) if args.hide_terms else set())
    kept = set(office.kept) | (read_terms(args.keep_terms) if args.keep_terms else set())
    return IdentifierDetector(office_terms=OfficeTerms.of(hidden, kept), use_context=reading_in_context())


def cmd_pseudonymise(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if str(args.file) == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"splitchat pseudonymise: cannot read {args.file}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    from app.identifiers.pseudonyms import Pseudonymiser

    result = Pseudonymiser(detector=_office_detector(args)).pseudonymise(text)
    print(result.text, end="" if result.text.endswith("\n") else "\n")
    if not args.json:
        return 0
    entities = [
        {"type": entity.type.value, "start": entity.start, "end": entity.end, "surrogate": surrogate}
        for entity, surrogate in result.replaced
    ]
    print(json.dumps({"text": result.text, "entities": entities}, ensure_ascii=False))
    return 0


def cmd_worker_token(args: argparse.Namespace) -> int:
    from app.wire.worker_tokens import issue_token

    token = issue_token(args.token_file)
    print(f"Added a token to {args.token_file}. Give it to the workstation admin; it is not stored anywhere:")
    print(token)
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    from app.remote_worker.__main__ import run_worker

    return run_worker(args)


def _plotting_first(args: argparse.Namespace) -> None:
    # Before the measurement, not after it: a missing matplotlib should not cost a run of many minutes.
    if getattr(args, "plot", None):
        from app.plotting import require_matplotlib

        require_matplotlib()


def cmd_bench(args: argparse.Namespace) -> int:
    _plotting_first(args)
    from app.bench.command import run_bench_command

    return run_bench_command(args)


def cmd_privacy(args: argparse.Namespace) -> int:
    _plotting_first(args)
    from app.privacy.command import run_privacy_command

    return run_privacy_command(args)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line (``cli_parser.py``), each command bound to the function that runs it."""
    return cli_parser.build_parser(
        {
            "ask": cmd_ask,
            "export-worker": cmd_export_worker,
            "worker": cmd_worker,
            "train-draft": cmd_train_draft,
            "install-draft": cmd_install_draft,
            "pseudonymise": cmd_pseudonymise,
            "worker-token": cmd_worker_token,
            "bench": cmd_bench,
            "privacy": cmd_privacy,
        }
    )


def main(argv: list[str] | None = None) -> int:
    """Run ``splitchat`` and return its exit status (see EXIT_CODES_EPILOG)."""
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        print("splitchat: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _run(argv: list[str]) -> int:
    if "torch" not in sys.modules:  # OpenMP reads the policy once, when torch loads it
        apply_thread_wait_policy(argv, os.environ)
    parser = build_parser()
    args = parser.parse_args(argv)  # a usage error exits here with EXIT_USAGE
    if args.self_test:
        from app.ui.self_test import run_self_test

        return run_self_test()
    if not getattr(args, "func", None):  # no subcommand: the desktop app
        from app.ui.app import main as run_app

        return run_app()
    try:
        return args.func(args)
    except KeyboardInterrupt:
        _progress.close()
        raise
    except Exception as exc:  # a person reads this: say what failed, in one line, not a traceback
        _progress.close()  # the message goes on a line of its own, not after a half-drawn bar
        return _report_failure(exc)
    finally:
        _progress.close()


def _loaded_classes(*names: str) -> tuple[type, ...]:
    """The classes ``module:Class`` whose module this process has imported, the others left out.

    An exception can only be an instance of a class whose module was loaded (a subclass's definition loads
    its base's), so this answers isinstance exactly, and reporting a failure imports nothing: importing
    the transport or the model config for the check loaded torch, seconds for a one-line message.
    """
    found = []
    for name in names:
        module, _, attribute = name.partition(":")
        cls = getattr(sys.modules.get(module), attribute, None)
        if cls is not None:
            found.append(cls)
    return tuple(found)


def _report_failure(exc: Exception) -> int:
    if os.environ.get(DEBUG_ENV):
        import traceback

        traceback.print_exception(exc)
    message = " ".join(str(exc).split()) or type(exc).__name__
    # A value the command cannot use is a usage error like argparse's own; the rest happened while running.
    if isinstance(exc, (ValueError, *_loaded_classes("app.privacy.corpus:CorpusError"))):
        print(f"splitchat: {message}", file=sys.stderr)
        return EXIT_USAGE
    expected = (
        OSError,
        *_loaded_classes(
            "app.model.config:ModelError",
            "app.engine.link.transport:WorkerError",
            "app.identifiers.detect:DetectorUnavailable",
            "app.plotting:PlottingUnavailable",
            "app.identifiers.office_terms:TermListError",
            "app.data.settings:PolicyError",
        ),
    )
    if isinstance(exc, _loaded_classes("app.privacy.annotated:AnnotatedSetError")):
        print(f"splitchat: {message}", file=sys.stderr)
        return EXIT_USAGE
    if isinstance(exc, expected):
        print(f"splitchat: {message}", file=sys.stderr)
    else:  # a bug rather than a circumstance: name its kind and say how to see the traceback
        print(
            f"splitchat: unexpected {type(exc).__name__}: {message} (set {DEBUG_ENV}=1 for the traceback)",
            file=sys.stderr,
        )
    return EXIT_FAILED
