#!/usr/bin/env bash
# Lints the CI workflows (.github/workflows/*.yml), which cannot run here:
#   - check-jsonschema against the GitHub workflow schema it ships (SchemaStore's): keys,
#     types, required fields;
#   - zizmor (offline): template injection, unpinned actions, credentials left in checkouts,
#     cache poisoning of what is published, excessive permissions.
# Both come from PyPI into .tools/lint (scripts/setup.sh installs them). scripts/test.sh runs this.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bin=.tools/lint/bin
if [[ ! -x $bin/zizmor || ! -x $bin/check-jsonschema ]]; then
    echo "error: the workflow linters are missing: run bash scripts/setup.sh" >&2
    exit 1
fi
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
((${#workflows[@]})) || { echo "error: no workflow in .github/workflows" >&2; exit 1; }

echo "==> check-jsonschema (GitHub workflow schema): ${workflows[*]}"
"$bin/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}"
echo "==> zizmor --offline: ${workflows[*]}"
"$bin/zizmor" --offline --no-progress "${workflows[@]}"
