"""Every log line and the end screen read as sentences in the chosen language: for each event type
of each game's catalog (its log templates), a sample event is rendered by the web client in each
language and must contain no internal id (no string of the event's data left as it came, no
underscore, no placeholder), no English word outside English, no word said twice ("tile Tile U"),
no seat word before a name ("Seat Ann") and no "1 points". The end screen's per-player tables
likewise."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

SAMPLES: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "event_samples.json").read_text())
ENGLISH = ("the", "seat", "takes", "receives", "scores", "player", "places", "tile", "card", "none", "null")
NAMES = ("Ann", "Bob", "Cid", "Dee")
SEAT_WORDS = {"en": "seat", "de": "Platz|Platzes", "fr": "place", "es": "puesto"}
"""The word for a seat: a name already says who, so "Seat Ann" or "la place Ann" is a double."""
PLURALS = "points|cities|tiles|buildings|Punkte|Städte|Karten|villes|tuiles|puntos|ciudades|losetas"

RENDER = """
async ([lang, slug, samples, names]) => {
  const i18n = await import("/play/js/core/i18n.js");
  await i18n.setLanguage(lang);
  const { describeEvent } = await import("/play/js/panels/log.js");
  const { resultDetails } = await import("/play/js/panels/result.js");
  const response = await fetch(`/v1/game-types/${slug}`, { headers: { "Accept-Language": lang } });
  const detail = await response.json();
  const nameOf = (seat) => (seat === null || seat === undefined ? i18n.t("game.nobody") : names[seat]);
  const context = { nameOf, templates: detail.log_templates, data: detail.data };
  const lines = Object.entries(samples).map(
    ([type, data]) => [type, describeEvent({ seq: 1, type, data }, context)]);
  const over = samples.game_over;
  const game = { seats: over.scores.map((_, seat) => ({ seat, name: names[seat] })) };
  const end = resultDetails(over, game, { nameOf, data: detail.data, seatBadge: nameOf });
  return { templates: Object.keys(detail.log_templates), lines, end: end.innerText || end.textContent };
}
"""


SKIPPED = ("name", "bot", "seed", "seed_salt", "reason", "decision", "to")
"""A person's or bot's name, and data no sentence shows."""


def ids_in(data: Any, nested: bool = False) -> set[str]:
    """Every id an event carries: its strings, and the keys of its nested counts ({"sand": 1})."""
    found: set[str] = set()
    if isinstance(data, dict):
        if nested and data and all(isinstance(value, int) for value in data.values()):
            found |= {key for key in data if not key.isdigit()}
        for key, value in data.items():
            if key not in SKIPPED:
                found |= ids_in(value, True)
    elif isinstance(data, list):
        for item in data:
            found |= ids_in(item, True)
    elif isinstance(data, str):
        found.add(data)
    return found


def leftovers(text: str, data: Any, lang: str) -> list[str]:
    words = set(re.findall(r"[\w/.+-]+", text))
    ids = ids_in(data)
    if lang == "en":  # an English id may be the word itself ("any" colour); ids that are not words
        ids = {v for v in ids if not re.fullmatch(r"[a-z]+", v)}
    spelled = [v for v in ids if v in words or (("/" in v or "_" in v) and v in text)]
    problems = [f"id {value!r}" for value in spelled]
    if lang != "en":
        problems += [f"english {word!r}" for word in ENGLISH if re.search(rf"\b{word}\b", text, re.I)]
    seat_before_name = rf"\b(?:{SEAT_WORDS[lang]}) (?:{'|'.join(NAMES)})\b"
    problems += [f"seat word {m.group(0)!r}" for m in re.finditer(seat_before_name, text, re.I)]
    problems += [f"doubled {m.group(0)!r}" for m in re.finditer(r"\b([^\W\d_]+) \1\b", text, re.I)]
    problems += [f"plural {m.group(0)!r}" for m in re.finditer(rf"(?<![\d.])1 (?:{PLURALS})\b", text)]
    problems += [f"mark {mark!r}" for mark in ("_", "{", "undefined", "NaN", "[object") if mark in text]
    return problems


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es"])
def test_every_event_and_the_end_screen_read_in_the_language_with_printed_names(
    open_page: Callable[..., Page], lang: str
) -> None:
    page = open_page(locale=lang)
    page.goto("/play/")
    page.wait_for_selector("#lang-select")
    for slug, samples in SAMPLES.items():
        rendered = page.evaluate(RENDER, [lang, slug, samples, list(NAMES)])
        unsampled = set(rendered["templates"]) - set(samples)
        assert not unsampled, f"{slug}: no sample event for {unsampled}"
        bad = {}
        for event_type, line in rendered["lines"]:
            problems = leftovers(line, samples[event_type], lang)
            if problems:
                bad[event_type] = (line, problems)
        assert not bad, (lang, slug, bad)
        end_problems = leftovers(rendered["end"], samples["game_over"]["details"], lang)
        assert not end_problems, (lang, slug, rendered["end"], end_problems)
        assert all(name in rendered["end"] for name in NAMES[: len(samples["game_over"]["scores"])])
