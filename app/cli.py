"""``splitchat``: the desktop app with no arguments; subcommands ask | pseudonymise | worker | export-worker |
worker-token | train-draft | bench | privacy for headless use."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from app.model.choices import DEVICE_CHOICES, DTYPE_CHOICES, STORED_DTYPE_CHOICES
from app.progress_display import stderr_progress as _progress
from app.thread_policy import apply_thread_wait_policy

EXAMPLE_PROMPT = "In two sentences, why should a clinic keep patient notes on its own computers?"
TOKEN_ENV = "SPLITCHAT_TOKEN"
DEBUG_ENV = "SPLITCHAT_DEBUG"

EXIT_OK = 0
EXIT_FAILED = 1  # the command ran and something failed: one line on stderr says what
EXIT_USAGE = 2  # argparse's own code: an unknown option, or a value the command cannot use
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program stopped by Ctrl+C

EXIT_CODES_EPILOG = f"""exit status:
  {EXIT_OK}    done
  {EXIT_FAILED}    the command failed while running (a file, the model, the worker); stderr says what, in one line
  {EXIT_USAGE}    usage: an unknown option, or a value the command cannot use (a split with no middle layers,
       an unknown mode, an endpoint without $SPLITCHAT_TOKEN)
  {EXIT_INTERRUPTED}  interrupted (Ctrl+C)"""


def cmd_ask(args: argparse.Namespace) -> int:
    from app.data.command_policy import CommandFlags, bind_to_policy
    from app.engine.speculation.modes import Speculation
    from app.model.choices import SplitSpec

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
            SplitSpec.parse(chosen.split),
            bound.endpoint,
            token,
            chosen.device,
            args.dtype,
            args.wire_dtype,
            args.max_frame,
            speculation=Speculation(mode=chosen.mode, max_nodes=chosen.budget),
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

    source = resolve_model(args.model, _progress)
    out = args.out or cached_head_path(model_fingerprint(source))
    if out.exists() and not args.force:
        raise FileExistsError(f"{out} exists; pass --force to train again")
    config = TrainConfig(
        epochs=args.epochs, new_tokens=args.new_tokens, sampled_answers=args.sampled_answers, seed=args.seed
    )
    prompts = load_training_prompts(args.prompts) if args.prompts else load_training_prompts()
    tokenizer = source.tokenizer()
    torch.manual_seed(args.seed)
    model = AutoModelForCausalLM.from_pretrained(source.folder, dtype=torch.float32).eval()
    head, info = train_draft_head(
        model, tokenizer, model_fingerprint(source), config, set(stop_token_ids(source, tokenizer)), prompts, _progress
    )
    _progress.close()
    save_head(head, info, out)
    accuracy = ", ".join(f"{k} {v:.1%}" for k, v in info.training["held_out_accuracy"].items())
    print(
        f"wrote {out}: {info.training['train_positions']} positions from {info.training['answers']} answers "
        f"in {info.training['seconds']:.0f} s; held-out chain accuracy {accuracy}"
    )
    return 0


def _office_detector(args: argparse.Namespace):
    """The detector with the office's lists of terms: the policy's, and those of --hide-terms / --keep-terms
    (a term the policy hides stays hidden whatever --keep-terms says)."""
    from app.data.settings import office_term_lists
    from app.identifiers.detect import IdentifierDetector
    from app.identifiers.office_terms import OfficeTerms, read_terms

    office = office_term_lists()
    hidden = set(office.hidden) | (read_terms(args.hide_terms) if args.hide_terms else set())
    kept = set(office.kept) | (read_terms(args.keep_terms) if args.keep_terms else set())
    return IdentifierDetector(office_terms=OfficeTerms.of(hidden, kept))


def term_list_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hide-terms",
        type=Path,
        metavar="FILE",
        help="a file of terms always replaced before the model reads the text, one a line (beside the policy's)",
    )
    parser.add_argument(
        "--keep-terms",
        type=Path,
        metavar="FILE",
        help="a file of terms never replaced (a product, the practice's own name), one a line",
    )


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
    """The whole command line. Building it (and so ``--help``) imports no torch: only light modules."""
    from app import __version__
    from app.engine.source.names import BUNDLED_SPEC
    from app.model.choices import MODE_NAMES
    from app.remote_worker.__main__ import add_worker_arguments
    from app.wire.limits import DEFAULT_MAX_FRAME

    formatting = dict(epilog=EXIT_CODES_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser = argparse.ArgumentParser(
        prog="splitchat",
        description="Private chat with a split language model. With no command: the desktop app.",
        **formatting,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="run one answer offscreen through the embedded worker, check it against the whole model, exit",
    )
    sub = parser.add_subparsers(
        dest="command", title="commands", metavar="COMMAND", help="with none, the desktop app opens"
    )
    add_parser = sub.add_parser

    def command(name: str, **kwargs) -> argparse.ArgumentParser:
        return add_parser(name, description=kwargs.get("help"), **formatting, **kwargs)

    def model_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--model", default=BUNDLED_SPEC, help=f"{BUNDLED_SPEC} or a local Hugging Face folder")
        p.add_argument("--split", default="2", help="layers kept local on each side: K or K_IN,K_OUT")

    def compute_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--device",
            default="auto",
            choices=DEVICE_CHOICES,
            help="where this side computes (auto: CUDA if any)",
        )
        p.add_argument(
            "--dtype",
            default="auto",
            choices=DTYPE_CHOICES,
            help="compute dtype (auto: float32 on CPU, bfloat16 on CUDA)",
        )
        p.add_argument(
            "--wire-dtype",
            default=None,
            choices=STORED_DTYPE_CHOICES,
            help="hidden-state dtype on the wire (default: the compute dtype)",
        )
        p.add_argument(
            "--max-frame",
            type=int,
            default=DEFAULT_MAX_FRAME,
            help="largest message on the wire, in bytes (%(default)s)",
        )

    ask = command("ask", help="one chat turn, headless; the token comes from $SPLITCHAT_TOKEN")
    ask.add_argument("prompt", nargs="?", default=EXAMPLE_PROMPT, help="what to ask (default: an example question)")
    ask.add_argument("--endpoint", help="ws://HOST:PORT of a worker (default: start one on loopback)")
    ask.add_argument(
        "--pin",
        metavar="SHA256",
        help="with a wss:// endpoint: trust only the worker certificate with this SHA-256 (a self-signed worker)",
    )
    ask.add_argument(
        "--no-compress",
        dest="compress_wire",
        action="store_false",
        help="with --endpoint: send hidden states uncompressed (compression is lossless and pays below "
        "~500 Mbit/s; the loopback worker never uses it)",
    )
    ask.add_argument("--system", help="a system message (default: none)")
    ask.add_argument("--max-new-tokens", type=int, help="most tokens in the answer (128)")
    ask.add_argument("--temperature", type=float, default=0.0, help="0 = greedy")
    ask.add_argument("--top-p", type=float, default=1.0, help="nucleus sampling mass when sampling (1 = all)")
    ask.add_argument("--seed", type=int, help="seed of the sampler, for a repeatable sampled answer")
    ask.add_argument("--json", action="store_true", help="print one JSON object instead of streaming text")
    ask.add_argument(
        "--mode",
        default="auto",
        choices=MODE_NAMES,
        help="decoding mode: auto chooses the speculation budget each step from live measurements",
    )
    ask.add_argument("--budget", type=int, help="most drafted tokens verified per round trip (48)")
    ask.add_argument(
        "--pseudonymise",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="replace identifiers before the model reads them, and put them back in the answer "
        "(default: on with --endpoint, off for the embedded worker on this computer)",
    )
    term_list_options(ask)
    model_options(ask)
    compute_options(ask)
    # No defaults of its own for what the policy can lock: a flag not given takes the policy's value, and
    # otherwise the command's default (app/data/command_policy.py).
    unset = dict.fromkeys(("model", "split", "device", "mode", "temperature", "top_p", "compress_wire"))
    ask.set_defaults(func=cmd_ask, **unset)

    export = command("export-worker", help="write the middle layers (only) for a worker")
    model_options(export)
    export.add_argument(
        "--out",
        required=True,
        type=Path,
        help="a new or empty folder, or one exported before (only the files it wrote are replaced)",
    )
    export.add_argument(
        "--dtype",
        default=None,
        choices=STORED_DTYPE_CHOICES,
        help="store the weights in this dtype (default: as in the model)",
    )
    export.add_argument(
        "--bundle",
        action="store_true",
        help="also write the worker's code, requirements, start script, systemd unit and Dockerfile",
    )
    export.set_defaults(func=cmd_export_worker)

    worker = command("worker", help="serve a shard's middle layers (the cloud half)")
    add_worker_arguments(worker)
    worker.set_defaults(func=cmd_worker)

    draft = command("train-draft", help="train the learned draft head for a model (where the whole model is)")
    draft.add_argument("--model", default=BUNDLED_SPEC, help=f"{BUNDLED_SPEC} or a local Hugging Face folder")
    draft.add_argument("--out", type=Path, help="write the head here (default: the user cache, found automatically)")
    draft.add_argument("--prompts", type=Path, help="a prompt file like app/resources/draft_prompts.json")
    draft.add_argument("--epochs", type=int, default=6, help="passes over the training positions (%(default)s)")
    draft.add_argument("--new-tokens", type=int, default=128, help="tokens per training answer")
    draft.add_argument(
        "--sampled-answers", type=int, default=1, help="sampled answers per prompt beside the greedy one"
    )
    draft.add_argument("--seed", type=int, default=0, help="seed of the sampled answers and the head's initial weights")
    draft.add_argument("--force", action="store_true", help="overwrite an existing head")
    draft.set_defaults(func=cmd_train_draft)

    pseudonymise = command(
        "pseudonymise", help="print a text as the model would read it: identifiers replaced by stand-ins"
    )
    pseudonymise.add_argument("file", nargs="?", default="-", help="a text file, or - for standard input")
    pseudonymise.add_argument(
        "--json", action="store_true", help="also print {text, entities: [{type, start, end, surrogate}]} last"
    )
    term_list_options(pseudonymise)
    pseudonymise.set_defaults(func=cmd_pseudonymise)

    token = command("worker-token", help="add a random token's hash to a token file and print the token once")
    token.add_argument(
        "--token-file", required=True, type=Path, help="the worker's token file (created if missing; one hash a line)"
    )
    token.set_defaults(func=cmd_worker_token)

    bench = command("bench", help="measure decoding over an emulated WAN")
    model_options(bench)
    bench.add_argument("--rtt-ms", default="0,20,80,150", help="round-trip times to emulate, comma-separated")
    bench.add_argument("--jitter-ms", type=float, default=0.0, help="random extra delay per message, in ms")
    bench.add_argument(
        "--bandwidth-mbps",
        default="0",
        help="link bandwidth each way in Mbit/s (0 = unlimited); with --document-tokens a comma-separated list",
    )
    bench.add_argument(
        "--document-tokens",
        help="instead: the wait for the first token after pasting documents of these sizes, e.g. 1000,4000",
    )
    bench.add_argument(
        "--no-ahead",
        action="store_true",
        help="with --document-tokens: skip the runs where the document was sent while the user typed",
    )
    bench.add_argument(
        "--wire-compression",
        choices=("on", "off", "both"),
        default="on",
        help="with --document-tokens: compress large frames as a remote provider does by default, not, or "
        "both (%(default)s)",
    )
    bench.add_argument(
        "--load-rounds",
        type=int,
        default=1,
        help="with --load: run the session counts in turn this many times and pool each count's rounds, so "
        "their ratio compares them on the same machine (%(default)s)",
    )
    bench.add_argument(
        "--cores-apart",
        action="store_true",
        help="with --document-tokens or --load: the worker on one half of this computer's cores and the app (or "
        "the load's clients) on the other, as two machines would be (Linux)",
    )
    bench.add_argument(
        "--modes",
        default="local,sequential,lookup,lookahead,learned,auto",
        help="decoding modes to run, comma-separated",
    )
    bench.add_argument("--max-new-tokens", type=int, default=64, help="tokens per answer (stop tokens ignored)")
    bench.add_argument("--prompts", type=int, default=0, help="use the first N prompts of each category (0 = all)")
    bench.add_argument("--budget", type=int, default=48, help="most drafted tokens per round trip")
    bench.add_argument("--head-depth", type=int, default=6, help="how far ahead the learned head drafts")
    bench.add_argument("--head-nodes", type=int, default=20, help="the learned head's drafted tokens per step at most")
    bench.add_argument("--no-peer", action="store_true", help="skip transformers' prompt-lookup comparison")
    bench.add_argument("--report", type=Path, help="only re-summarise and re-plot the runs of an earlier --json")
    bench.add_argument("--load", help="instead: N concurrent sessions against one worker, e.g. 1,4,16")
    bench.add_argument("--max-pass-rows", type=int, help="with --load: the worker's row budget per batched pass")
    bench.add_argument(
        "--replicas", type=int, default=1, help="with --load: this many workers behind HAProxy (packaging/worker)"
    )
    bench.add_argument(
        "--kill-replica",
        action="store_true",
        help="with --load N --replicas 2+: real answers, one replica killed mid-answer; tokens checked",
    )
    bench.add_argument("--json", type=Path, help="write the runs here")
    bench.add_argument("--plot", type=Path, help="draw tok/s and the step breakdown here (PNG)")
    compute_options(bench)
    bench.set_defaults(func=cmd_bench)

    privacy = command("privacy", help="measure token recovery from the hidden states per split depth")
    privacy.add_argument("--model", default=BUNDLED_SPEC, help=f"{BUNDLED_SPEC} or a local Hugging Face folder")
    privacy.add_argument("--depths", default="1,2,4,6,8", help="split depths (layers local on each side)")
    privacy.add_argument("--corpus", type=Path, help="a folder of .txt documents (default: Python's own docs)")
    privacy.add_argument("--json", type=Path, help="write the report here (required but with --annotated)")
    privacy.add_argument("--plot", type=Path, help="draw recovery versus depth here (PNG)")
    privacy.add_argument(
        "--max-train-pairs", type=int, default=24_000, help="(hidden state, token) pairs the attackers learn from"
    )
    privacy.add_argument("--max-test-pairs", type=int, default=4_000, help="held-out pairs the attackers are scored on")
    privacy.add_argument("--mlp-epochs", type=int, default=5, help="training epochs of the MLP attacker")
    privacy.add_argument("--mlp-width", type=int, default=2048, help="hidden width of the MLP attacker")
    privacy.add_argument("--seed", type=int, default=0, help="seed of the document split and the attackers")
    privacy.add_argument("--refresh", action="store_true", help="recompute even when a cached report exists")
    privacy.add_argument(
        "--pseudonymise",
        action="store_true",
        help="evaluate the corpus as the model reads it with identifiers replaced (default: the raw text)",
    )
    privacy.add_argument(
        "--identifiers",
        action="store_true",
        help="instead: detection scores on the identifier evaluation set, and what the attackers recover of "
        "identifiers with pseudonymisation off and on",
    )
    privacy.add_argument(
        "--identifier-documents", type=int, default=90, help="held-out documents attacked (and dev ones trained on)"
    )
    privacy.add_argument(
        "--annotated",
        type=Path,
        metavar="DIR",
        help="with --identifiers: score detection on your own annotated documents (a .jsonl file or a folder of "
        "them; format in docs/PRIVACY.md) instead of the project's sets; no model is loaded",
    )
    privacy.add_argument("--identifier-depth", type=int, default=2, help="the split depth attacked with --identifiers")
    privacy.add_argument(
        "--fidelity-variants",
        type=int,
        default=6,
        help="with --identifiers: renderings of each document-QA prompt the model answers plainly and "
        "pseudonymised (0 skips the fidelity measurement)",
    )
    privacy.add_argument("--split", default="2", help="with --identifiers: the split the fidelity answers run at")
    privacy.set_defaults(func=cmd_privacy)
    return parser


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
