"""Table talk: a message to post, the entries a reader sees, and the chat's settings."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.i18n import platform_texts
from domain.model.chat import KINDS, MAX_MESSAGE_LENGTH, MESSAGE_RULE, PHRASES, ChatEntry, ChatState

Phrase = Literal[PHRASES]  # type: ignore[valid-type]
Kind = Literal[KINDS]  # type: ignore[valid-type]


class ChatMessageCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        # Exactly what is accepted: one of `text` and `phrase`, never both.
        json_schema_extra={
            "oneOf": [
                {
                    "type": "object",
                    "required": ["text"],
                    "properties": {"text": {"type": "string"}, "phrase": {"type": "null"}},
                },
                {
                    "type": "object",
                    "required": ["phrase"],
                    "properties": {"phrase": {"type": "string"}, "text": {"type": "null"}},
                },
            ]
        },
    )

    text: str | None = Field(
        None,
        max_length=4 * MAX_MESSAGE_LENGTH,
        description=f"The message: {MESSAGE_RULE}. Send `text` or `phrase`, not both.",
    )
    phrase: Phrase | None = Field(
        None, description="A canned phrase, shown to each reader in its own language."
    )


class ChatEntryPublic(BaseModel):
    seq: int = Field(description="The entry's place in the game's chat: 1, 2, ... (not the game's `seq`).")
    kind: Kind = Field(
        description="`message`; `muted`/`unmuted` (the host, about `target`); `hidden`/`shown` "
        "(`seat` hid `target` for itself: only that seat sees these)."
    )
    seat: int | None = Field(description="The writer of a message, or the seat that hid `target`.")
    target: int | None = Field(description="The seat muted, unmuted, hidden or shown again.")
    text: str | None = Field(
        description="The message as plain text (never HTML); a phrase's text in the reader's language."
    )
    phrase: Phrase | None = Field(description="The canned phrase's code, when the message is one.")
    created_at: datetime

    @classmethod
    def of(cls, entry: ChatEntry, lang: str) -> ChatEntryPublic:
        text = entry.text
        if entry.phrase is not None:
            text = platform_texts(lang)[f"chat.phrase.{entry.phrase}"]
        return cls(
            seq=entry.seq,
            kind=entry.kind,
            seat=entry.seat,
            target=entry.target,
            text=text,
            phrase=entry.phrase,
            created_at=entry.created_at,
        )


class ChatSettingsPublic(BaseModel):
    muted: list[int] = Field(description="Seats the host muted: they cannot write.")
    hidden: list[int] = Field(description="Seats whose messages the token's seat hides for itself.")

    @classmethod
    def of(cls, state: ChatState) -> ChatSettingsPublic:
        return cls(muted=sorted(state.muted), hidden=sorted(state.hidden))


class ChatPagePublic(ChatSettingsPublic):
    entries: list[ChatEntryPublic] = Field(description="What the token's reader sees, oldest first.")
    last_seq: int = Field(
        description="Resume after this (`after`): the chat's last entry read, seen or hidden."
    )
    seat: int | None = Field(description="The token's seat (None: the host or a spectator).")
    can_write: bool = Field(description="Whether the token may post (a seat that is not muted).")
