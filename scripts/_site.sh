# Sourced by scripts/build and scripts/test: build_site builds the strict site into a fresh
# folder and only then replaces site/ with it, so a failed build keeps the last good site.
build_site() {
    local fresh
    fresh="$(mktemp -d "${ROOT:-.}/.site-build.XXXXXX")"
    if "$PY" -m mkdocs build --strict --site-dir "$fresh" "$@"; then
        rm -rf site
        mv "$fresh" site
    else
        local status=$?
        rm -rf "$fresh"
        echo "the strict build failed (see above); site/ still holds the last good build" >&2
        return "$status"
    fi
}
