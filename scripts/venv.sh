# Sourced by play.sh and test.sh: make .venv and install the project with EXTRAS ("" or "[test]"),
# again only when pyproject.toml changed since the last install.
ensure_venv() {
  local extras=$1 stamp=.venv/.installed-${2}
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
  fi
  local want
  want=$(sha256sum pyproject.toml | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".${extras}"
    echo "$want" > "$stamp"
  fi
}
