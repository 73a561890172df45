"""What a bench run means: summaries per mode/RTT/category, the RTT decomposition and its plot."""

from __future__ import annotations

import math
from pathlib import Path

from app.bench.records import LOCAL, BenchResult, BenchRun, ModeFit, RttPoint, SummaryRow
from app.model.choices import Mode
from app.plotting import require_matplotlib

PROJECTION_RTTS = (5.0, 20.0, 40.0, 80.0, 150.0)
RATIOS = ("speedup_vs_sequential", "fraction_of_local", "network_bound_fraction_of_local")


def _geomean(values: list[float]) -> float:
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0.0


def add_ratios(runs: list[BenchRun]) -> None:
    """Each run's speed against sequential and against local, for the same prompt (same bench run)."""
    by_key = {(r.mode, r.rtt_ms, r.prompt_id): r for r in runs}
    local = {r.prompt_id: r for r in runs if r.mode == LOCAL}
    for run in runs:
        sequential = by_key.get((Mode.SEQUENTIAL, run.rtt_ms, run.prompt_id))
        if sequential and run.mode != LOCAL:
            run.speedup_vs_sequential = round(run.tok_per_s / sequential.tok_per_s, 4)
        if run.prompt_id in local and run.mode != LOCAL:
            run.fraction_of_local = round(run.tok_per_s / local[run.prompt_id].tok_per_s, 4)
            # Decoding against decoding: the bound has no prefill in it.
            if run.network_bound_tok_per_s:
                bound = run.network_bound_tok_per_s / local[run.prompt_id].decode_tok_per_s
                run.network_bound_fraction_of_local = round(bound, 4)


def summarise(runs: list[BenchRun]) -> list[SummaryRow]:
    """One row per (mode, RTT, prompt set, category) and per (mode, RTT, prompt set) overall: each prompt set
    on its own, never pooled, so the held-out set's figures are not flattered by the bench's."""
    groups: dict[tuple[str, float, str, str], list[BenchRun]] = {}
    for run in runs:
        for category in (run.category, "overall"):
            groups.setdefault((run.mode, run.rtt_ms, run.prompt_set, category), []).append(run)
    rows = []
    for (mode, rtt, prompt_set, category), group in groups.items():
        n = len(group)
        step = {k: round(sum(r.step_ms[k] for r in group) / n, 3) for k in group[0].step_ms}
        row = SummaryRow(
            mode=mode,
            rtt_ms=rtt,
            category=category,
            prompt_set=prompt_set,
            prompts=n,
            tokens_per_round_trip=round(sum(r.new_tokens for r in group) / sum(r.round_trips for r in group), 4),
            tok_per_s=round(1000 * sum(r.new_tokens for r in group) / sum(r.total_ms for r in group), 3),
            decode_tok_per_s=round(sum(r.decode_tok_per_s for r in group) / n, 3),
            step_ms=step,
            serialization_share=round(step["serialization"] / step["total"], 4) if step["total"] else 0.0,
            wire_overhead_share=round((step["serialization"] + max(0.0, step["network"] - rtt)) / step["total"], 4)
            if step["total"] and mode != LOCAL
            else 0.0,
            fraction_of_limit=round(sum(r.fraction_of_limit for r in group) / n, 4),
        )
        drafted = [r.draft_ms for r in group if r.draft_ms is not None]
        if drafted:
            row.draft_ms = round(sum(drafted) / len(drafted), 3)
        planned = [r for r in group if r.expected_tokens_per_step is not None and r.accepted_per_step]
        if planned:  # over all decode steps of the group
            steps = [sum(r.accepted_per_step.values()) for r in planned]
            expected = sum(r.expected_tokens_per_step * n for r, n in zip(planned, steps, strict=True))
            row.expected_tokens_per_step = round(expected / sum(steps), 4)
            row.tokens_per_step = round(sum(r.decoded_tokens for r in planned) / sum(steps), 4)
        bounded = [r for r in group if r.network_bound_tok_per_s]
        if mode != LOCAL and bounded:  # all decoded tokens over all the time spent on the link
            link_s = sum(r.decoded_tokens / r.network_bound_tok_per_s for r in bounded)
            row.network_bound_tok_per_s = round(sum(r.decoded_tokens for r in bounded) / link_s, 3)
        for ratio in RATIOS:
            values = [getattr(r, ratio) for r in group if getattr(r, ratio) is not None]
            if values:
                setattr(row, ratio, round(_geomean(values), 4))
                setattr(row, f"min_{ratio}", round(min(values), 4))
        peers = [r for r in group if r.peer_pld_forwards is not None]
        if peers:  # aggregated like ours: all tokens over all forward passes
            tokens = sum(r.peer_pld_new_tokens for r in peers)
            row.peer_pld_tokens_per_forward = round(tokens / sum(r.peer_pld_forwards for r in peers), 4)
        rows.append(row)
    return sorted(rows, key=lambda r: (r.mode, r.rtt_ms, r.prompt_set, r.category != "overall", r.category))


def decompose(runs: list[BenchRun]) -> dict[str, ModeFit]:
    """Per mode: step time = RTT + f, f fitted to the runs; leave-one-RTT-out error; projections.

    Each RTT contributes its aggregate (all tokens, all time, all round trips over the prompt set). Each
    mode is projected with its own fitted overhead and its own tokens per round trip, never with another
    mode's overhead.
    """
    modes = sorted({r.mode for r in runs if r.mode != LOCAL})
    report = {}
    for mode in modes:
        points = _aggregate_by_rtt([r for r in runs if r.mode == mode])
        overhead = _fit_overhead(points)
        errors = []
        for held_out in points if len(points) > 1 else []:
            fit = _fit_overhead([p for p in points if p is not held_out])
            predicted = 1000 * held_out.tokens_per_round_trip / (held_out.rtt_ms + fit)
            errors.append(abs(predicted - held_out.tok_per_s) / held_out.tok_per_s)
        projections = {}
        for rtt in PROJECTION_RTTS:
            nearest = min(points, key=lambda p: abs(p.rtt_ms - rtt))
            projections[str(int(rtt))] = round(1000 * nearest.tokens_per_round_trip / (rtt + overhead), 3)
        report[mode] = ModeFit(
            overhead_ms=round(overhead, 3),
            cv_mean_abs_error=round(sum(errors) / len(errors), 4) if errors else None,
            measured=[
                RttPoint(*(round(v, 3) for v in (p.rtt_ms, p.tokens_per_round_trip, p.step_ms, p.tok_per_s)))
                for p in points
            ],  # fmt: skip
            projected_tok_per_s=projections,
        )
    return report


def _aggregate_by_rtt(runs: list[BenchRun]) -> list[RttPoint]:
    points = []
    for rtt in sorted({r.rtt_ms for r in runs}):
        group = [r for r in runs if r.rtt_ms == rtt]
        tokens = sum(r.new_tokens for r in group)
        trips = sum(r.round_trips for r in group)
        elapsed = sum(r.total_ms for r in group)
        points.append(RttPoint(rtt, tokens / trips, elapsed / trips, 1000 * tokens / elapsed))
    return points


def _fit_overhead(points: list[RttPoint]) -> float:
    """Least-squares f in step_ms = RTT + f (slope one: the RTT is paid once per round trip)."""
    return sum(p.step_ms - p.rtt_ms for p in points) / len(points)


def plot_bench(result: BenchResult, path: Path) -> None:
    """Measured tok/s against RTT with each mode's projection; tokens per round trip by category."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # The curves and the step breakdown are of one prompt set (the bench's when it ran); the bars show them all.
    sets = list(dict.fromkeys(r.prompt_set for r in result.summary))
    primary = "bench" if "bench" in sets else sets[0]
    overall = [r for r in result.summary if r.category == "overall" and r.prompt_set == primary]
    modes = sorted({r.mode for r in overall})
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(16, 4.6))
    colours = {}
    for mode in modes:
        rows = sorted((r for r in overall if r.mode == mode), key=lambda r: r.rtt_ms)
        if mode == LOCAL:
            left.axhline(rows[0].tok_per_s, color="grey", linestyle="--", label="local (unsplit, no network)")
            continue
        (line,) = left.plot([r.rtt_ms for r in rows], [r.tok_per_s for r in rows], "o", label=f"{mode} measured")
        colours[mode] = line.get_color()
        fit = result.decomposition.get(mode)
        if fit:
            xs = [0.0, *PROJECTION_RTTS]
            ys = [1000 * rows[0].tokens_per_round_trip / (xs[0] + fit.overhead_ms)] + list(
                fit.projected_tok_per_s.values()
            )
            left.plot(xs, ys, "--", color=line.get_color(), alpha=0.7, label=f"{mode} RTT + {fit.overhead_ms:.0f} ms")
    left.set_xlabel("RTT (ms)")
    left.set_ylabel("tok/s")
    left.set_title(f"{result.model}, split {result.split}: measured and projected")
    left.legend(fontsize=7)

    top_rtt = max(r.rtt_ms for r in overall)
    categories = [
        (s, c) for s in sets for c in sorted({r.category for r in result.summary if r.prompt_set == s} - {"overall"})
    ] + [(s, "overall") for s in sets]
    labels = [c if len(sets) == 1 else f"{s}\n{c}" for s, c in categories]
    spec_modes = [m for m in modes if m != LOCAL]
    width = 0.8 / max(1, len(spec_modes))
    for index, mode in enumerate(spec_modes):
        values = []
        for prompt_set, category in categories:
            key = (mode, top_rtt, prompt_set, category)
            row = next((r for r in result.summary if (r.mode, r.rtt_ms, r.prompt_set, r.category) == key), None)
            values.append(row.tokens_per_round_trip if row else 0.0)
        middle.bar(
            [c + index * width for c in range(len(categories))], values, width, label=mode, color=colours.get(mode)
        )
    middle.set_xticks([c + width * (len(spec_modes) - 1) / 2 for c in range(len(categories))], labels, fontsize=7)
    middle.set_ylabel(f"tokens per round trip (RTT {top_rtt:.0f} ms)")
    middle.set_title("tokens per round trip by category")
    middle.legend(fontsize=7)

    rows = sorted((r for r in overall if r.mode != LOCAL and r.rtt_ms == top_rtt), key=lambda r: r.mode)
    bottom = [0.0] * len(rows)
    for part in ("network", "local_compute", "remote_compute", "serialization"):
        values = [r.step_ms[part] for r in rows]
        right.bar([r.mode for r in rows], values, bottom=bottom, label=part.replace("_", " "))
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    right.set_ylabel(f"mean decode step at RTT {top_rtt:.0f} ms (ms)")
    right.set_title("where a step's time goes")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
