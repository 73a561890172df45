"""The command line's words: the top-level options and one builder per command, each adding that command's
arguments. Building any of it (and so ``--help``) imports no torch: only light modules."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from app import __version__
from app.engine.source.names import BUNDLED_SPEC
from app.model.choices import DEVICE_CHOICES, DTYPE_CHOICES, MODE_NAMES, STORED_DTYPE_CHOICES
from app.remote_worker.__main__ import add_worker_arguments
from app.wire.limits import DEFAULT_MAX_FRAME

EXAMPLE_PROMPT = "In two sentences, why should a clinic keep patient notes on its own computers?"

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


def build_parser(run: dict[str, Callable[[argparse.Namespace], int]]) -> argparse.ArgumentParser:
    """The whole command line; ``run`` names the function each command runs (``args.func``)."""
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
    for name, (summary, add_arguments) in COMMANDS.items():
        command = sub.add_parser(name, help=summary, description=summary, **formatting)
        add_arguments(command)
        command.set_defaults(func=run[name])
    return parser


def model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default=BUNDLED_SPEC, help=f"{BUNDLED_SPEC} or a local Hugging Face folder")
    p.add_argument("--split", default="2", help="layers kept local on each side: K or K_IN,K_OUT")


def device_options(p: argparse.ArgumentParser, where: str = "where this side computes") -> None:
    p.add_argument("--device", default="auto", choices=DEVICE_CHOICES, help=f"{where} (auto: CUDA if any)")
    p.add_argument(
        "--dtype",
        default="auto",
        choices=DTYPE_CHOICES,
        help="compute dtype (auto: float32 on CPU, bfloat16 on CUDA)",
    )


def compute_options(p: argparse.ArgumentParser) -> None:
    device_options(p)
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


def _ask(p: argparse.ArgumentParser) -> None:
    p.add_argument("prompt", nargs="?", default=EXAMPLE_PROMPT, help="what to ask (default: an example question)")
    p.add_argument("--endpoint", help="ws://HOST:PORT of a worker (default: start one on loopback)")
    p.add_argument(
        "--pin",
        metavar="SHA256",
        help="with a wss:// endpoint: trust only the worker certificate with this SHA-256 (a self-signed worker)",
    )
    p.add_argument(
        "--no-compress",
        dest="compress_wire",
        action="store_false",
        help="with --endpoint: send hidden states uncompressed (compression is lossless and pays below "
        "~500 Mbit/s; the loopback worker never uses it)",
    )
    p.add_argument("--system", help="a system message (default: none)")
    p.add_argument("--max-new-tokens", type=int, help="most tokens in the answer (128)")
    p.add_argument("--temperature", type=float, default=0.0, help="0 = greedy")
    p.add_argument("--top-p", type=float, default=1.0, help="nucleus sampling mass when sampling (1 = all)")
    p.add_argument("--seed", type=int, help="seed of the sampler, for a repeatable sampled answer")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of streaming text")
    p.add_argument(
        "--mode",
        default="auto",
        choices=MODE_NAMES,
        help="decoding mode: auto chooses the speculation budget each step from live measurements",
    )
    p.add_argument("--budget", type=int, help="most drafted tokens verified per round trip (48)")
    p.add_argument(
        "--pseudonymise",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="replace identifiers before the model reads them, and put them back in the answer "
        "(default: on with --endpoint, off for the embedded worker on this computer)",
    )
    term_list_options(p)
    model_options(p)
    compute_options(p)
    # No defaults of its own for what the policy can lock: a flag not given takes the policy's value, and
    # otherwise the command's default (app/data/command_policy.py).
    unset = dict.fromkeys(("model", "split", "device", "mode", "temperature", "top_p", "compress_wire"))
    p.set_defaults(**unset)


def _export_worker(p: argparse.ArgumentParser) -> None:
    model_options(p)
    p.add_argument(
        "--out",
        required=True,
        type=Path,
        help="a new or empty folder, or one exported before (only the files it wrote are replaced)",
    )
    p.add_argument(
        "--dtype",
        default=None,
        choices=STORED_DTYPE_CHOICES,
        help="store the weights in this dtype (default: as in the model)",
    )
    p.add_argument(
        "--bundle",
        action="store_true",
        help="also write the worker's code, requirements, start script, systemd unit and Dockerfile",
    )


def _worker(p: argparse.ArgumentParser) -> None:
    add_worker_arguments(p)


def _train_draft(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default=BUNDLED_SPEC, help=f"{BUNDLED_SPEC} or a local Hugging Face folder")
    p.add_argument("--out", type=Path, help="write the head here (default: the user cache, found automatically)")
    p.add_argument("--prompts", type=Path, help="a prompt file like app/resources/draft_prompts.json")
    p.add_argument("--epochs", type=int, default=6, help="passes over the training positions (%(default)s)")
    p.add_argument("--new-tokens", type=int, default=128, help="tokens per training answer")
    p.add_argument("--sampled-answers", type=int, default=1, help="sampled answers per prompt beside the greedy one")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled answers and the head's initial weights")
    p.add_argument(
        "--fuse-layer",
        type=int,
        default=2,
        help="the head also reads the drafted-from token's feature after this many layers; workstations whose "
        "split keeps at least as many layers local use it (0: not at all; %(default)s)",
    )
    p.add_argument(
        "--answers",
        type=Path,
        help="keep the model's answers (with their features) in this file, and read them from it on a later run "
        "made the same way, so retraining the head does not answer again",
    )
    device_options(p, "where the model answers and the head learns")
    p.add_argument("--force", action="store_true", help="overwrite an existing head")


def _install_draft(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="a head written by splitchat train-draft --out")
    p.add_argument("--model", default=BUNDLED_SPEC, help=f"{BUNDLED_SPEC} or the local model folder it is for")
    p.add_argument("--force", action="store_true", help="replace the head installed for this model")


def _pseudonymise(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", default="-", help="a text file, or - for standard input")
    p.add_argument(
        "--json", action="store_true", help="also print {text, entities: [{type, start, end, surrogate}]} last"
    )
    term_list_options(p)


def _worker_token(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--token-file", required=True, type=Path, help="the worker's token file (created if missing; one hash a line)"
    )


def _bench(p: argparse.ArgumentParser) -> None:
    model_options(p)
    p.add_argument("--rtt-ms", default="0,20,80,150", help="round-trip times to emulate, comma-separated")
    p.add_argument("--jitter-ms", type=float, default=0.0, help="random extra delay per message, in ms")
    p.add_argument(
        "--bandwidth-mbps",
        default="0",
        help="link bandwidth each way in Mbit/s (0 = unlimited); with --document-tokens a comma-separated list",
    )
    p.add_argument(
        "--document-tokens",
        help="instead: the wait for the first token after pasting documents of these sizes, e.g. 1000,4000",
    )
    p.add_argument(
        "--no-ahead",
        action="store_true",
        help="with --document-tokens: skip the runs where the document was sent while the user typed",
    )
    p.add_argument(
        "--wire-compression",
        choices=("on", "off", "both"),
        default="on",
        help="with --document-tokens: compress large frames as a remote provider does by default, not, or "
        "both (%(default)s)",
    )
    p.add_argument(
        "--load-rounds",
        type=int,
        default=1,
        help="with --load: run the session counts in turn this many times and pool each count's rounds, so "
        "their ratio compares them on the same machine (%(default)s)",
    )
    p.add_argument(
        "--cores-apart",
        action="store_true",
        help="with --document-tokens or --load: the worker on one half of this computer's cores and the app (or "
        "the load's clients) on the other, as two machines would be (Linux)",
    )
    p.add_argument(
        "--modes",
        default="local,sequential,lookup,lookahead,learned,auto",
        help="decoding modes to run, comma-separated",
    )
    p.add_argument("--max-new-tokens", type=int, default=64, help="tokens per answer (stop tokens ignored)")
    p.add_argument("--prompts", type=int, default=0, help="use the first N prompts of each category (0 = all)")
    p.add_argument(
        "--prompt-set",
        choices=("bench", "held-out", "both"),
        default="bench",
        help="the bench's prompts, the held-out set written apart from them and from the draft head's training "
        "prompts, or both, each reported on its own (%(default)s)",
    )
    p.add_argument("--budget", type=int, default=48, help="most drafted tokens per round trip")
    p.add_argument("--head-depth", type=int, default=6, help="how far ahead the learned head drafts")
    p.add_argument("--head-nodes", type=int, default=20, help="the learned head's drafted tokens per step at most")
    p.add_argument("--no-peer", action="store_true", help="skip transformers' prompt-lookup comparison")
    p.add_argument("--report", type=Path, help="only re-summarise and re-plot the runs of an earlier --json")
    p.add_argument("--load", help="instead: N concurrent sessions against one worker, e.g. 1,4,16")
    p.add_argument("--max-pass-rows", type=int, help="with --load: the worker's row budget per batched pass")
    p.add_argument(
        "--replicas", type=int, default=1, help="with --load: this many workers behind HAProxy (packaging/worker)"
    )
    p.add_argument(
        "--kill-replica",
        action="store_true",
        help="with --load N --replicas 2+: real answers, one replica killed mid-answer; tokens checked",
    )
    p.add_argument("--json", type=Path, help="write the runs here")
    p.add_argument("--plot", type=Path, help="draw tok/s and the step breakdown here (PNG)")
    compute_options(p)


def _privacy(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default=BUNDLED_SPEC, help=f"{BUNDLED_SPEC} or a local Hugging Face folder")
    p.add_argument("--depths", default="1,2,4,6,8", help="split depths (layers local on each side)")
    p.add_argument("--corpus", type=Path, help="a folder of .txt documents (default: Python's own docs)")
    p.add_argument("--json", type=Path, help="write the report here (required but with --annotated)")
    p.add_argument("--plot", type=Path, help="draw recovery versus depth here (PNG)")
    p.add_argument(
        "--max-train-pairs", type=int, default=24_000, help="(hidden state, token) pairs the attackers learn from"
    )
    p.add_argument("--max-test-pairs", type=int, default=4_000, help="held-out pairs the attackers are scored on")
    p.add_argument("--mlp-epochs", type=int, default=5, help="training epochs of the MLP attacker")
    p.add_argument("--mlp-width", type=int, default=2048, help="hidden width of the MLP attacker")
    p.add_argument("--seed", type=int, default=0, help="seed of the document split and the attackers")
    p.add_argument("--refresh", action="store_true", help="recompute even when a cached report exists")
    p.add_argument(
        "--pseudonymise",
        action="store_true",
        help="evaluate the corpus as the model reads it with identifiers replaced (default: the raw text)",
    )
    p.add_argument(
        "--identifiers",
        action="store_true",
        help="instead: detection scores on the identifier evaluation set, and what the attackers recover of "
        "identifiers with pseudonymisation off and on",
    )
    p.add_argument(
        "--identifier-documents", type=int, default=90, help="held-out documents attacked (and dev ones trained on)"
    )
    p.add_argument(
        "--annotated",
        type=Path,
        metavar="DIR",
        help="with --identifiers: score detection on your own annotated documents (a .jsonl file or a folder of "
        "them; format in docs/PRIVACY.md) instead of the project's sets; no model is loaded",
    )
    p.add_argument("--identifier-depth", type=int, default=2, help="the split depth attacked with --identifiers")
    p.add_argument(
        "--fidelity-variants",
        type=int,
        default=6,
        help="with --identifiers: renderings of each document-QA prompt the model answers plainly and "
        "pseudonymised (0 skips the fidelity measurement)",
    )
    p.add_argument("--split", default="2", help="with --identifiers: the split the fidelity answers run at")


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "ask": (
        "one chat turn, headless; the token comes from $SPLITCHAT_TOKEN",
        _ask,
    ),
    "export-worker": (
        "write the middle layers (only) for a worker",
        _export_worker,
    ),
    "worker": (
        "serve a shard's middle layers (the cloud half)",
        _worker,
    ),
    "train-draft": (
        "train the learned draft head for a model (where the whole model is)",
        _train_draft,
    ),
    "install-draft": (
        "install a draft head trained on another machine, for this model's weights only",
        _install_draft,
    ),
    "pseudonymise": (
        "print a text as the model would read it: identifiers replaced by stand-ins",
        _pseudonymise,
    ),
    "worker-token": (
        "add a random token's hash to a token file and print the token once",
        _worker_token,
    ),
    "bench": (
        "measure decoding over an emulated WAN",
        _bench,
    ),
    "privacy": (
        "measure token recovery from the hidden states per split depth",
        _privacy,
    ),
}
