# Sourced by scripts/serve, build and test: make .venv if missing and install what the
# site and tests need, at the versions pinned in constraints.txt. Installs again only when
# pyproject.toml or constraints.txt changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export NO_MKDOCS_2_WARNING=1
export PYTHONDONTWRITEBYTECODE=1

find_python() {
    for candidate in "${PYTHON:-}" python3.11 python3.12 python3.13 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11, 5))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    # 3.11.5: the pinned pymdown-extensions (13) requires it; Debian 12's python3 is 3.11.2
    echo "distlesson needs Python 3.11.5 or newer (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

if [ ! -x .venv/bin/python ]; then
    echo "Creating .venv ..."
    "$(find_python)" -m venv .venv
fi
stamp=".venv/.distlesson-installed"
wanted="$(cat pyproject.toml constraints.txt | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "Installing distlesson and its dependencies into .venv ..."
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -c constraints.txt -e ".[test]"
    echo "$wanted" > "$stamp"
fi
PY="$ROOT/.venv/bin/python"
