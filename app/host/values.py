"""The values a front end and the engine host exchange: a conversation's turns, an answer and how it ended,
what opens a chat and what is shown about it. Torch-free, like the package that exports them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from app.engine.source.names import BUNDLED_SPEC
from app.model.choices import Mode, SplitSpec

if TYPE_CHECKING:
    from app.engine.decode.metrics import LocalStepCost, StepTiming
    from app.privacy.report import PrivacyReport


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"


@dataclass(frozen=True)
class Turn:
    """One message of a conversation, as its author wrote it."""

    role: Role | str  # a role's name is read as the Role
    text: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "role", Role(self.role))

    def as_message(self) -> dict[str, str]:
        """The turn as chat templates take it."""
        return {"role": self.role.value, "content": self.text}


def as_messages(turns: Sequence[Turn]) -> list[dict[str, str]]:
    return [turn.as_message() for turn in turns]


class Ending(StrEnum):
    """How an answer ended, in the words the window shows and the history stores."""

    COMPLETE = ""  # the model finished it
    LENGTH = "length"  # it reached the longest-answer limit
    STOPPED = "stopped"  # the user stopped it
    REPEATING = "repeating"  # it had begun to repeat itself and was cut there
    LOST = "lost"  # the connection to the worker was lost mid-answer
    FAILED = "failed"  # an error cut it off


@dataclass(frozen=True)
class Reply:
    """An answer as a front end sees it."""

    text: str  # what the user reads (re-identified when the conversation was pseudonymised)
    ending: Ending
    tokens: tuple[int, ...]  # the answer's tokens, as the model chose them
    steps: tuple[StepTiming, ...]  # every round trip, the prefill's first
    local_step_cost: LocalStepCost | None  # this computer's compute in a decode step (None without one)
    model_prompt: str = ""  # the last message exactly as the model read it
    model_text: str = ""  # the answer exactly as the model wrote it (its stand-ins in place)
    identifiers: dict[str, int] = field(default_factory=dict)  # identifiers replaced in the last message, by type

    @property
    def decode_steps(self) -> list[StepTiming]:
        return [step for step in self.steps if step.kind == "decode"]


@dataclass(frozen=True)
class EngineConfig:
    """What the engine needs to open a chat; equal configs share one open engine."""

    model: str = BUNDLED_SPEC
    split: SplitSpec | str = SplitSpec(2, 2)  # a setting's text ("2", "2,3") is read as a SplitSpec
    endpoint: str | None = None  # None: the bundled worker process on loopback
    token: str | None = None
    cert_sha256: str | None = None  # pinned certificate of a self-signed wss:// worker
    compress_wire: bool = True  # large frames to a remote worker go compressed, losslessly
    device: str = "auto"
    mode: Mode | str = Mode.AUTO  # a setting's name is read as the Mode
    budget: int = 48
    allow_unencrypted: bool = False  # the administrator's policy lets ws:// reach another computer

    def __post_init__(self) -> None:
        object.__setattr__(self, "split", SplitSpec.parse(str(self.split)))
        object.__setattr__(self, "mode", Mode.parse(self.mode))


class NotAsReviewed(RuntimeError):
    """The model would read the last message otherwise than the user confirmed it in review: nothing was sent."""


@dataclass(frozen=True)
class ChatInfo:
    """What a front end shows about the open chat."""

    model: str
    split: str
    num_layers: int
    local_layers: int  # layers computed on this computer, both ends together
    embedded: bool  # the worker is the bundled loopback process
    endpoint: str | None
    public_checkpoint: bool


@dataclass(frozen=True)
class StepUpdate:
    """One round trip as it finished: where its time went, and the break-even its plan had to beat."""

    timing: StepTiming
    break_even: float | None  # None for a prefill


@dataclass(frozen=True)
class ModelPrivacy:
    """The report shown for a model (None until measured), and whether its weights are public."""

    report: PrivacyReport | None
    public_checkpoint: bool
