"""The TypeScript client sample (clients/typescript) against a real server on 127.0.0.1.

It installs the pinned npm packages (package-lock.json; no reinstall while ``node_modules`` holds
that lock's packages; npm's own cache, outside the repository, so that a fresh clone on the same
machine, as CI's is, installs from it instead of downloading them all again),
generates a REST client from the served /openapi.json and GraphQL types from the served schema,
compiles them with ``tsc --strict``, then plays a whole game of each type through each API against
random bots and verifies the Standard Webhooks signatures of a host's endpoint on 127.0.0.1. Any
error (install, generation, compilation, a refused move, a bad signature) fails the test, and so
does an ``unknown`` or ``any`` in the generated types the sample reaches (game data included), or
an ``as`` cast or ``!`` assertion in its source. The server is ``python -m api`` as deployed (no
test game beside the real ones).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.support.servers import running_server

pytestmark = pytest.mark.timeout(900)
SAMPLE = Path(__file__).resolve().parents[2] / "clients" / "typescript"
GAMES = ("im-schutze-der-burg", "keythedral", "carcassonne")
INSTALLED = SAMPLE / "node_modules" / ".installed-from-lock"
"""A copy of the package-lock.json the packages in node_modules were installed from."""


def run(*command: str, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        command,
        cwd=SAMPLE,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def test_the_sample_source_has_no_casts_and_no_non_null_assertions() -> None:
    for path in sorted((SAMPLE / "src").glob("*.ts")):
        code = re.sub(r"//.*|/\*.*?\*/", "", path.read_text(), flags=re.S)
        assert not re.search(r"\bas\s+(?!const\b)[\w{(\[]", code), f"{path.name}: an `as` cast"
        assert not re.search(r"\bas\s+const\b", code), f"{path.name}: `as const`"
        assert not re.search(r"[\w)\]]!(?!=)", code), f"{path.name}: a `!` non-null assertion"


def without_comments(code: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", code, flags=re.S)


def declarations(code: str) -> dict[str, str]:
    """The ``export type Name = ...`` blocks of a generated file, by name, comments left out."""
    blocks = re.split(r"\n(?=export type )", without_comments(code))
    return {m.group(1): block for block in blocks if (m := re.match(r"export type (\w+)", block.strip()))}


def untyped_generated_types(sample: Path) -> list[str]:
    """Every generated type the sample reaches that holds ``unknown`` or ``any``: in
    ``src/rest/types.gen.ts`` the closure of the types its source imports, the request and answer
    types of the SDK functions it calls and the types the GraphQL scalars map to; in
    ``src/gql/types.ts`` every line but codegen's internal ``Exact`` helper."""
    rest = declarations((sample / "src" / "rest" / "types.gen.ts").read_text())
    gql = without_comments((sample / "src" / "gql" / "types.ts").read_text())
    source = "\n".join(path.read_text() for path in sorted((sample / "src").glob("*.ts")))
    roots = set(re.findall(r"import\('\.\./rest/types\.gen\.js'\)\.(\w+)", gql))
    for names in re.findall(r'import type \{([^}]*)\} from "\./rest/types\.gen\.js"', source):
        roots |= {name.strip() for name in names.split(",") if name.strip()}
    for names in re.findall(r'import \{([^}]*)\} from "\./rest/sdk\.gen\.js"', source):
        for name in filter(None, (n.strip() for n in names.split(","))):
            roots |= {f"{name[0].upper()}{name[1:]}{part}" for part in ("Data", "Responses")}
    assert roots <= set(rest), f"not generated: {sorted(roots - set(rest))}"
    reached: set[str] = set()
    todo = sorted(roots)
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += [n for n in re.findall(r"\b[A-Z]\w*\b", rest[name]) if n in rest]
    loose = re.compile(r"\b(unknown|any)\b")
    # A string literal is a value, not a type: Keythedral's colour enum holds 'any'.
    literal = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")

    def untyped(text: str) -> bool:
        return bool(loose.search(literal.sub("''", text)))

    found = [f"types.gen.ts: {name}" for name in sorted(reached) if untyped(rest[name])]
    return found + [
        f"gql/types.ts: {line.strip()}"
        for line in gql.splitlines()
        if untyped(line) and not line.startswith("type Exact<")
    ]


def test_the_check_of_generated_types_finds_unknown_game_data(tmp_path: Path) -> None:
    (tmp_path / "src" / "rest").mkdir(parents=True)
    (tmp_path / "src" / "gql").mkdir()
    (tmp_path / "src" / "main.ts").write_text(
        'import { getGame } from "./rest/sdk.gen.js";\nimport type { Seat } from "./rest/types.gen.js";\n'
    )
    (tmp_path / "src" / "rest" / "types.gen.ts").write_text(
        "export type GetGameData = { path: { game_id: string } };\n"
        "export type GetGameResponses = { 200: GamePublic };\n"
        "export type GamePublic = { state: View; options: {\n    [key: string]: unknown;\n} };\n"
        "/** not reached, not checked: any */\nexport type View = { round: number };\n"
        "export type Seat = { name: string; colour: 'any' | 'red' };\n"
        "export type Problem = { errors: Array<unknown> };\n"
    )
    (tmp_path / "src" / "gql" / "types.ts").write_text(
        "type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };\n"
        "export type GameQuery = { game: { state: import('../rest/types.gen.js').View,"
        " options: unknown } };\n"
    )
    assert untyped_generated_types(tmp_path) == [
        "types.gen.ts: GamePublic",
        "gql/types.ts: export type GameQuery = { game: { state: import('../rest/types.gen.js').View,"
        " options: unknown } };",
    ]


def install() -> None:
    """``npm ci`` from the lock, unless node_modules already holds exactly its packages."""
    lock = (SAMPLE / "package-lock.json").read_text()
    if INSTALLED.exists() and INSTALLED.read_text() == lock:
        return
    run("npm", "ci", "--no-audit", "--no-fund", "--prefer-offline")
    INSTALLED.write_text(lock)


def test_generated_clients_compile_strictly_and_play_every_game(tmp_path: Path) -> None:
    for tool in ("node", "npm"):
        assert shutil.which(tool), f"{tool} is needed (Debian: apt-get install nodejs npm)"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'tabletop.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
        "TABLETOP_WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",  # the receiver is on 127.0.0.1
        "TABLETOP_WEBHOOK_POLL_SECONDS": "0.1",
    }
    install()
    with running_server(env, production=True) as base:
        url = {"TABLETOP_URL": base}
        run("node", "scripts/generate.mjs", env=url)
        assert untyped_generated_types(SAMPLE) == []
        run("node", "node_modules/typescript/bin/tsc", "-p", "tsconfig.json")
        out = run("node", "--experimental-websocket", "dist/src/main.js", env=url, timeout=600)
        metrics = httpx.get(f"{base}/metrics", timeout=10).text
    over_socket = re.search(r"^tabletop_socket_submits_total (\S+)$", metrics, re.M)
    graphql_moves = re.findall(r"^GraphQL [\w-]+: finished after (\d+) own moves", out, re.M)
    # Every GraphQL move rode the seat's websocket by the pre-resolved path (a refused one counts too).
    assert over_socket is not None and float(over_socket.group(1)) >= sum(map(int, graphql_moves)) > 0
    for game in GAMES:
        assert re.search(rf"^REST {game}: finished after \d+ own moves", out, re.M), out
        assert re.search(rf"^webhook {game}: [1-9]\d* deliveries verified", out, re.M), out
        assert re.search(
            rf"^GraphQL {game}: finished after \d+ own moves over the websocket, .*, (\d+)/\1 events typed$",
            out,
            re.M,
        ), out
        assert re.search(
            rf"^GraphQL webhook {game}: ([1-9]\d*) deliveries verified, \1 listed with typed "
            "payloads$",
            out,
            re.M,
        ), out
