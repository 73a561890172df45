"""Recovery rate versus split depth: one panel per direction, each attacker with its 95 % interval."""

from __future__ import annotations

from pathlib import Path

from app.plotting import require_matplotlib
from app.privacy.report import DIRECTIONS, FROM_WORKER, TO_WORKER, PrivacyReport

STYLE = {
    "learned_mlp": ("learned MLP (collected pairs)", "tab:red", "o"),
    "public_head_search": ("public weights: head search", "tab:purple", "s"),
    "public_codebook": ("public weights: codebook", "tab:blue", "^"),
    "public_tail": ("public weights: tail + LM head", "tab:purple", "s"),
    "public_embedding": ("public weights: embedding projection", "tab:gray", "v"),
}
TITLES = {TO_WORKER: "What the worker receives", FROM_WORKER: "What the worker returns"}


def plot_report(report: PrivacyReport, out: Path) -> None:
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, direction in zip(axes, DIRECTIONS, strict=True):
        for attacker, (label, color, marker) in STYLE.items():
            mine = report.series(direction, attacker)
            if not mine:
                continue
            depths = [r.depth for r in mine]
            rates = [100 * r.top1 for r in mine]
            # Clamped: at 100 % the interval's top equals the rate up to rounding.
            below = [max(0.0, 100 * (r.top1 - r.ci95[0])) for r in mine]
            above = [max(0.0, 100 * (r.ci95[1] - r.top1)) for r in mine]
            ax.errorbar(depths, rates, yerr=[below, above], label=label, color=color, marker=marker, capsize=3)
        for name, style in (("most_frequent", "--"), ("unigram_prior", ":")):
            rate = 100 * report.baseline[name].top1
            ax.axhline(rate, color="black", linestyle=style, linewidth=1, label=f"baseline: {name.replace('_', ' ')}")
        ax.set_title(TITLES[direction])
        ax.set_xlabel("layers kept local on each side (split depth)")
        ax.set_xticks(report.depths)
        ax.set_ylim(0, 100)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("tokens recovered, top-1 (%)")
    for ax in axes:
        ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 0.1))
    tested = report.corpus.test_pairs
    fig.suptitle(f"Token recovery from hidden states — {report.model}, {tested} test tokens")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
