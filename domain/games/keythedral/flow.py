"""The frame machine that runs the flow of play, names the decision due and applies answers.

The flow is a stack of frames (``State.stack``). Each frame type (registered by ``phases``,
``actions``, ``transfers`` and ``laws``) has a ``step`` (do automatic work, or return the decision
the frame waits for) and an ``answer`` (apply one legal choice). ``advance`` runs steps until a
real decision is due: a decision with exactly one legal choice is applied at once, since it is no
decision at all. A ``step`` that returns a decision must not change the state, so that a loaded
state rebuilds the same decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from domain.engine import JSON, Choice, Decision, Event
from domain.games.keythedral.state import Frame, Pending, State
from domain.games.keythedral.view import PROMPTS

Step = Callable[[State, Frame, list[Event]], Pending | None]
Answer = Callable[[State, Frame, int, Choice, list[Event]], None]
JointAnswer = Callable[[State, Frame, Mapping[int, Choice], list[Event]], None]

STEPS: dict[str, Step] = {}
ANSWERS: dict[str, Answer] = {}
JOINT_ANSWERS: dict[str, JointAnswer] = {}


def frame_type(name: str, step: Step, answer: Answer | None = None, joint: JointAnswer | None = None) -> None:
    STEPS[name] = step
    if answer is not None:
        ANSWERS[name] = answer
    if joint is not None:
        JOINT_ANSWERS[name] = joint


def advance(st: State, events: list[Event]) -> None:
    """Run the flow until someone must choose between at least two options, or the game ends."""
    st.pending = None
    stack = st.stack
    steps = STEPS
    while stack and not st.over:
        top = stack[-1]
        pending = steps[top["t"]](st, top, events)
        if pending is None:
            continue
        choices = pending.choices
        assert choices, f"{pending.kind}: a decision without choices"
        if len(choices) == 1 and pending.seats is None and not pending.held:
            ANSWERS[top["t"]](st, top, pending.seat, choices[0], events)
            continue
        st.pending = pending
        return
    if st.over:
        stack.clear()


def rebuild_pending(st: State) -> None:
    """After loading: the state rests on a real decision, so its step only reports it."""
    st.pending = None
    if st.stack and not st.over:
        top = st.stack[-1]
        st.pending = STEPS[top["t"]](st, top, [])


def decision(st: State) -> Decision | None:
    """The decision the game waits for, built once per pending decision."""
    pending = st.pending
    if pending is None:
        return None
    if pending.decision is None:
        if pending.seats is not None:
            pending.decision = Decision(
                tuple(pending.seats),
                pending.kind,
                PROMPTS[pending.kind],
                simultaneous=True,
                data=pending.data,
            )
        else:
            pending.decision = _decision(pending.seat, pending.kind, pending.data)
    return pending.decision


_DECISIONS: dict[tuple[object, ...], Decision] = {}


def _decision(seat: int, kind: str, data: dict[str, JSON]) -> Decision:
    """Decisions are frozen and their data are scalars, so equal ones are shared, not rebuilt."""
    key = (seat, kind, *data.items()) if data else (seat, kind)
    found = _DECISIONS.get(key)
    if found is None:
        if len(_DECISIONS) > 50_000:
            _DECISIONS.clear()
        found = _DECISIONS[key] = Decision((seat,), kind, PROMPTS[kind], data=data)
    return found


def legal_choices(st: State, seat: int) -> list[Choice]:
    pending = st.pending
    if pending is None:
        return []
    return list(pending.choices_of(seat))


def apply(st: State, choices: Mapping[int, Choice]) -> list[Event]:
    """Apply the pending decision (one seat's choice, or every asked seat's in a law window),
    then run on to the next one."""
    events: list[Event] = []
    top = st.stack[-1]
    pending = st.pending
    assert pending is not None
    if pending.seats is not None:
        JOINT_ANSWERS[top["t"]](st, top, choices, events)
    else:
        ANSWERS[top["t"]](st, top, pending.seat, choices[pending.seat], events)
    advance(st, events)
    return events


def push(st: State, frame: Frame) -> None:
    st.stack.append(frame)


def ask(seat: int, kind: str, choices: list[Choice], **data: JSON) -> Pending:
    return Pending(seat, kind, choices, data)


def ask_held(seat: int, kind: str, choices: list[Choice], held: bool, **data: JSON) -> Pending:
    """Like ``ask``, but a single choice is still asked when ``held`` (see ``Pending.held``)."""
    return Pending(seat, kind, choices, data, held=held)


def ask_all(kind: str, seats: dict[int, list[Choice]], **data: JSON) -> Pending:
    """A simultaneous decision of every seat in ``seats`` (in order), each from its own list."""
    first = next(iter(seats))
    return Pending(first, kind, seats[first], data, seats=seats)
