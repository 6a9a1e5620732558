"""The repository's own check of its shape, run by the test command: no import circle across rooms and no source file
over 450 lines. Prints what it finds and exits 1 on either.

A room is a top-level module of the server (`src/leads`, `src/notify.rs` or `src/notify/`, ...) or a crate under
`crates/`. An arrow goes from a room to another when its code names it: `crate::other` (or `super::` reaching out of
the room) in Rust, the crate's name for another crate. Test code is left out (`tests.rs`, a `tests/` folder, a
`#[cfg(test)]` module written inline), as are test files for the line count: a test may reach anywhere and be long.

Usage: python3 tests/house.py [ROOT]
"""

import pathlib
import re
import sys

LONGEST = 450
SOURCE_SUFFIXES = {".rs", ".ts", ".tsx", ".mjs", ".py", ".sh", ".css"}


def is_test_file(path: pathlib.Path) -> bool:
    parts = path.parts
    return (
        path.name in {"tests.rs", "tests.ts"}
        or "tests" in parts[:-1]
        or "e2e" in parts
        or path.name.endswith((".spec.ts", ".test.ts", ".test.tsx"))
    )


CHAR_LITERAL = re.compile(r"'(?:\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'")


def code_only(text: str) -> str:
    """Rust text with its comments and the insides of its string and character literals blanked (newlines kept), so
    that neither a `//` in a string nor a brace in one misleads what follows."""
    out = []
    at, length = 0, len(text)
    while at < length:
        char = text[at]
        if text.startswith("//", at):
            end = text.find("\n", at)
            at = length if end < 0 else end
            continue
        if text.startswith("/*", at):
            end = text.find("*/", at + 2)
            end = length if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[at:end]))
            at = end
            continue
        raw = re.match(r'b?r(#*)"', text[at:at + 260])
        if raw and (at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")):
            closing = '"' + raw.group(1)
            end = text.find(closing, at + raw.end())
            end = length if end < 0 else end + len(closing)
            out.append('""' + re.sub(r"[^\n]", "", text[at:end]))
            at = end
            continue
        if char == '"':
            end = at + 1
            while end < length and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append('""' + re.sub(r"[^\n]", "", text[at:end + 1]))
            at = end + 1
            continue
        if char == "'":
            literal = CHAR_LITERAL.match(text, at)
            if literal:
                out.append("' '")
                at = literal.end()
                continue
        out.append(char)
        at += 1
    return "".join(out)


def without_inline_tests(text: str) -> str:
    """The file's text without a `#[cfg(test)] mod name { ... }` written inline (braces counted)."""
    out = []
    lines = text.split("\n")
    skipping = False
    depth = 0
    pending = False
    for line in lines:
        if skipping:
            depth += line.count("{") - line.count("}")
            if depth <= 0:
                skipping = False
            continue
        if pending:
            pending = False
            if re.match(r"\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", line):
                skipping = True
                depth = line.count("{") - line.count("}")
                if depth <= 0:
                    skipping = False
                continue
        if line.strip() == "#[cfg(test)]":
            pending = True
            continue
        out.append(line)
    return "\n".join(out)


def rooms_of(root: pathlib.Path) -> dict[str, list[pathlib.Path]]:
    """Every room and its non-test Rust files."""
    rooms: dict[str, list[pathlib.Path]] = {}
    src = root / "src"
    for entry in sorted(src.iterdir()):
        if entry.name in {"lib.rs", "main.rs"}:
            continue
        name = entry.stem if entry.suffix == ".rs" else entry.name
        files = [entry] if entry.is_file() else sorted(entry.rglob("*.rs"))
        rooms.setdefault(f"src/{name}", []).extend(f for f in files if not is_test_file(f.relative_to(root)))
    for crate in sorted((root / "crates").iterdir()):
        if (crate / "Cargo.toml").exists():
            files = sorted((crate / "src").rglob("*.rs")) if (crate / "src").exists() else []
            rooms[f"crates/{crate.name}"] = [f for f in files if not is_test_file(f.relative_to(root))]
    return rooms


def crate_names(root: pathlib.Path) -> dict[str, str]:
    """The Rust name each crate is imported by (its package name with `_`, or its `[lib] name`) -> its room."""
    names = {}
    for crate in sorted((root / "crates").iterdir()):
        manifest = crate / "Cargo.toml"
        if not manifest.exists():
            continue
        text = manifest.read_text()
        package = re.search(r'^\[package\][^\[]*?^name\s*=\s*"([^"]+)"', text, re.M | re.S)
        library = re.search(r'^\[lib\][^\[]*?^name\s*=\s*"([^"]+)"', text, re.M | re.S)
        name = (library or package).group(1).replace("-", "_")
        names[name] = f"crates/{crate.name}"
    return names


def arrows(root: pathlib.Path) -> dict[tuple[str, str], list[str]]:
    """(from room, to room) -> the places that make the arrow ("file:line")."""
    rooms = rooms_of(root)
    crates = crate_names(root)
    server_room_of = {room.split("/", 1)[1]: room for room in rooms if room.startswith("src/")}
    found: dict[tuple[str, str], list[str]] = {}
    for room, files in rooms.items():
        # The server's own crate is named `crate` inside src/ and `truckins` from the outside.
        inside_server = room.startswith("src/")
        for file in files:
            code = without_inline_tests(code_only(file.read_text()))
            targets: list[tuple[str, int]] = []
            if inside_server:
                for name, at in server_paths(code, module_path(root / "src", file)):
                    targets.append((server_room_of.get(name), at))
            for name, crate_room in crates.items():
                for match in re.finditer(rf"\b{name}::|^\s*use\s+{name}\b", code, re.M):
                    targets.append((crate_room, match.start()))
            for target, at in targets:
                if target and target != room:
                    number = code.count("\n", 0, at) + 1
                    found.setdefault((room, target), []).append(f"{file.relative_to(root)}:{number}")
    return found


def module_path(src: pathlib.Path, file: pathlib.Path) -> list[str]:
    """The module a file is, as the names from the crate's root: src/notify/outbox/due.rs -> notify, outbox, due."""
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts and parts[-1] == "mod":
        parts.pop()
    return parts


def server_paths(code: str, module: list[str]) -> list[tuple[str, int]]:
    """The top-level modules `code` names, with where: `crate::x`, each first name of a group `crate::{x, y::z}`
    (over several lines too), and `super::` chains that climb to the crate's root (`super::super::x` from a module
    two deep)."""
    named = []
    for match in re.finditer(r"\bcrate::(\w+)", code):
        named.append((match.group(1), match.start()))
    for match in re.finditer(r"\bcrate::\{", code):
        named.extend((name, match.start()) for name in group_heads(code, match.end()))
    for match in re.finditer(r"\b((?:super::)+)(\w+|\{)", code):
        climbs = match.group(1).count("super::")
        # `super` from a file's module climbs one; from the crate's root the next name is a room.
        if climbs < len(module):
            continue
        if match.group(2) != "{":
            named.append((match.group(2), match.start()))
        else:
            named.extend((name, match.start()) for name in group_heads(code, match.end()))
    return named


def group_heads(code: str, start: int) -> list[str]:
    """The first name of each item of the `{...}` group opening just before `start`."""
    depth, at = 1, start
    while at < len(code) and depth:
        depth += {"{": 1, "}": -1}.get(code[at], 0)
        at += 1
    inner, heads, level, token_start = code[start:at - 1], [], 0, 0
    for index, char in enumerate(inner + ","):
        if char == "{":
            level += 1
        elif char == "}":
            level -= 1
        elif char == "," and level == 0:
            first = re.match(r"\s*(\w+)", inner[token_start:index])
            if first and first.group(1) not in {"self", "super"}:
                heads.append(first.group(1))
            token_start = index + 1
    return heads


def circles(edges: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one room (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def long_files(root: pathlib.Path) -> list[tuple[str, int]]:
    places = [root / "src", root / "crates", root / "web" / "src", root / "web" / "scripts", root / "build.rs",
              root / "tests" / "run.sh", root / "bench"]
    found = []
    for place in places:
        files = [place] if place.is_file() else sorted(place.rglob("*")) if place.exists() else []
        for file in files:
            relative = file.relative_to(root)
            # The test command itself is code of the house, not a test.
            if not file.is_file() or file.suffix not in SOURCE_SUFFIXES or (is_test_file(relative) and place != root / "tests" / "run.sh"):
                continue
            if "node_modules" in relative.parts or ".generated" in relative.parts:
                continue
            lines = len(file.read_text(errors="replace").splitlines())
            if lines > LONGEST:
                found.append((str(relative), lines))
    return found


def self_test() -> None:
    """The check finds what it is for, in a tree made for it: a circle through a grouped import spanning lines and
    a `super::super::` climbing out of a room, and a file of 451 lines; and a test module is not an arrow."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "src" / "a").mkdir(parents=True)
        (root / "crates").mkdir()
        (root / "src" / "a" / "mod.rs").write_text("mod inner;\n")
        (root / "src" / "a" / "inner.rs").write_text("fn f() { super::super::b::g(); }\n")
        (root / "src" / "b.rs").write_text("use crate::{\n    c::x,\n};\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n")
        (root / "src" / "c.rs").write_text("use crate::a::inner;\n" + "// line\n" * 450)
        (root / "src" / "d").mkdir()
        (root / "src" / "d" / "mod.rs").write_text(
            'fn f() { let _ = format!("https://{}", crate::e::g()); let _ = \'{\'; }\n'
            "use super::{f::h};\n"
        )
        (root / "src" / "e.rs").write_text("use crate::d;\n")
        (root / "src" / "f.rs").write_text("fn h() {}\n")
        edges = arrows(root)
        assert ("src/a", "src/b") in edges and ("src/b", "src/c") in edges, edges
        assert ("src/b", "src/a") not in edges, "a test module is no arrow"
        assert ("src/d", "src/e") in edges, "a `//` in a string hides no arrow"
        assert ("src/d", "src/f") in edges, "a grouped `super::{...}` from a room's root is an arrow"
        assert circles(edges) == [["src/a", "src/b", "src/c"], ["src/d", "src/e"]], circles(edges)
        assert long_files(root) == [("src/c.rs", 451)], long_files(root)


def main() -> int:
    self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    edges = arrows(root)
    groups = circles(edges)
    long = long_files(root)
    rooms = {a for a, _ in edges} | {b for _, b in edges}
    print(f"house: {len(rooms)} rooms, {len(edges)} arrows between them, {len(groups)} circle(s), "
          f"{len(long)} source file(s) over {LONGEST} lines")
    for group in groups:
        print(f"  circle: {' <-> '.join(group)}")
        for a in group:
            for b in group:
                if (a, b) in edges:
                    places = edges[(a, b)]
                    print(f"    {a} -> {b}: {', '.join(places[:3])}{' ...' if len(places) > 3 else ''}")
    for name, lines in long:
        print(f"  {name}: {lines} lines (at most {LONGEST}; test files apart)")
    return 1 if groups or long else 0


if __name__ == "__main__":
    sys.exit(main())
