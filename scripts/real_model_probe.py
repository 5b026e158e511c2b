"""The helper of `scripts/real_model_check.sh` (standard library only; not run in CI).

    real_model_probe.py port                                   a free TCP port on 127.0.0.1
    real_model_probe.py wait URL SECONDS                       wait until URL answers 200
    real_model_probe.py proxy UPSTREAM PORT LOG LABEL_FILE     a recording proxy in front of the model server
    real_model_probe.py run OUT LABEL -- COMMAND …             run one app command, its output timed
    real_model_probe.py forced PROXY LOG OUT                   replay the app's request with tool_choice set
    real_model_probe.py settle LOG LABEL SECONDS               wait until LABEL's request has ended at the server
    real_model_probe.py summary UPSTREAM LOG OUT               print what the runs showed

The proxy sits between the app and the server so the exact requests the app sends (fields, tools, stream
options) and every streamed chunk the server returns (with its time) are on record: one JSON line per exchange
in LOG, tagged with the label the `run` step wrote to LABEL_FILE. It relays each SSE line as it arrives, so the
app sees the server's stream as it is.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HOP = {"host", "connection", "content-length", "accept-encoding", "transfer-encoding", "keep-alive"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait(url: str, seconds: float) -> None:
    end = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > end:
            sys.exit(f"{url} did not answer within {seconds:.0f} s")
        time.sleep(1)


# ---------------------------------------------------------------------------------------------------------- proxy


def proxy(upstream: str, port: int, log_path: str, label_file: str) -> None:
    up = urlsplit(upstream)
    lock = threading.Lock()

    class Relay(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # the body ends when the connection closes: SSE relayed line by line

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            self._relay(None)

        def do_POST(self) -> None:
            self._relay(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

        def _relay(self, body: bytes | None) -> None:
            label = Path(label_file).read_text().strip() if os.path.exists(label_file) else ""
            started = time.monotonic()
            record: dict[str, Any] = {"label": label, "method": self.command, "path": self.path, "chunks": []}
            record["at"] = time.time()
            if body:
                try:
                    record["request"] = json.loads(body)
                except ValueError:
                    record["request_raw"] = body.decode("utf-8", "replace")
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
            conn = http.client.HTTPConnection(up.hostname or "127.0.0.1", up.port or 80, timeout=900)
            try:
                conn.request(self.command, self.path, body=body, headers=headers)
                resp = conn.getresponse()
                record["status"] = resp.status
                try:
                    self.send_response(resp.status)
                    for k, v in resp.getheaders():
                        if k.lower() not in HOP:
                            self.send_header(k, v)
                    self.send_header("Connection", "close")
                    self.end_headers()
                except OSError:
                    record["client_gone_at"] = round(time.monotonic() - started, 3)
                rest: list[bytes] = []
                while True:
                    raw = resp.readline()
                    if not raw:
                        break
                    t = round(time.monotonic() - started, 3)
                    if "client_gone_at" not in record:
                        try:
                            self.wfile.write(raw)
                            self.wfile.flush()
                        except OSError:  # the app gave up (its timeout): the server's answer is still recorded
                            record["client_gone_at"] = t
                    text = raw.decode("utf-8", "replace").rstrip("\r\n")
                    if text.startswith("data:"):
                        data = text[5:].strip()
                        try:
                            record["chunks"].append({"t": t, "data": json.loads(data)})
                        except ValueError:
                            record["chunks"].append({"t": t, "raw": data})
                    elif text.startswith((":", "event:", "id:", "retry:")):
                        record["chunks"].append({"t": t, "other": text})
                    elif text:
                        rest.append(raw)
                if rest:
                    whole = b"".join(rest)
                    try:
                        record["response"] = json.loads(whole)
                    except ValueError:
                        record["response_raw"] = whole.decode("utf-8", "replace")[:4000]
            except (OSError, http.client.HTTPException) as e:
                record["proxy_error"] = f"{type(e).__name__}: {e}"
            finally:
                conn.close()
                record["seconds"] = round(time.monotonic() - started, 3)
                with lock, open(log_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(record, ensure_ascii=False) + "\n")

    ThreadingHTTPServer(("127.0.0.1", port), Relay).serve_forever()


# ------------------------------------------------------------------------------------------------------------ run


def run(out: str, label: str, command: list[str]) -> None:
    """Run COMMAND, keep its output, and time every piece of standard output (is the answer printed as it
    streams, or at once?)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "label").write_text(label)
    started, wall = time.monotonic(), time.time()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pieces: list[tuple[float, int]] = []
    stdout: list[bytes] = []
    stderr: list[bytes] = []

    def drain_err() -> None:
        assert proc.stderr is not None
        stderr.append(proc.stderr.read())

    t = threading.Thread(target=drain_err)
    t.start()
    assert proc.stdout is not None
    while True:
        data = os.read(proc.stdout.fileno(), 65536)
        if not data:
            break
        pieces.append((round(time.monotonic() - started, 3), len(data)))
        stdout.append(data)
    rc = proc.wait()
    t.join()
    meta = {
        "label": label,
        "command": command,
        "rc": rc,
        "at": wall,
        "seconds": round(time.monotonic() - started, 3),
        "stdout_pieces": pieces,
    }
    (folder / f"{label}.out").write_bytes(b"".join(stdout))
    (folder / f"{label}.err").write_bytes(b"".join(stderr))
    (folder / f"{label}.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1))
    (folder / "label").write_text("")
    print(f"  {label}: exit {rc} in {meta['seconds']:.1f} s", file=sys.stderr)


# --------------------------------------------------------------------------------------------------------- forced


def forced(proxy_url: str, log_path: str, out: str) -> None:
    """The app never forces a call (only its `llamacpp` preset sends tool_choice "auto"): replay its first request
    that offered tools,
    as the server saw it, with tool_choice set — forcing classrooms__free (streamed, as the app streams), "auto"
    streamed, and "auto" unstreamed (as the app's `llamacpp` preset sends requests that offer tools) — to see what
    the server does when asked."""
    first = next((r for r in _records(log_path) if (r.get("request") or {}).get("tools")), None)
    if first is None:
        print("  forced: no request with tools on record", file=sys.stderr)
        return
    request = {k: v for k, v in first["request"].items() if k != "stream_options"}
    names = [t["function"]["name"] for t in request["tools"]]
    name = next((n for n in names if n.endswith("classrooms__free")), names[0])
    folder = Path(out)
    probes: list[tuple[str, Any, bool]] = [
        ("forced", {"type": "function", "function": {"name": name}}, True),
        ("auto-streamed", "auto", True),
        ("auto-unstreamed", "auto", False),
    ]
    for label, choice, stream in probes:
        (folder / "label").write_text(f"probe-{label}")
        body = {**request, "stream": stream, "tool_choice": choice}
        if stream:
            body["stream_options"] = {"include_usage": True}
        req = urllib.request.Request(
            proxy_url.rstrip("/") + "/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=900) as r:
                size = len(r.read())
            status = f"HTTP {r.status}, {size} bytes"
        except urllib.error.HTTPError as e:
            status = f"HTTP {e.code}: {e.read()[:300].decode('utf-8', 'replace')}"
        except (OSError, http.client.HTTPException) as e:
            status = f"{type(e).__name__}: {e}"
        meta = {"label": f"probe-{label}", "tool_choice": choice, "stream": stream, "status": status}
        meta["at"] = time.time() - (time.monotonic() - started)
        meta["seconds"] = round(time.monotonic() - started, 3)
        (folder / f"probe-{label}.json").write_text(json.dumps(meta, ensure_ascii=False))
        print(f"  probe-{label}: {status} in {meta['seconds']:.1f} s", file=sys.stderr)
    (folder / "label").write_text("")


def settle(log_path: str, label: str, seconds: float) -> None:
    """Wait until the proxy has recorded LABEL's exchange: a server that keeps generating after the app gave up
    (an unstreamed request cannot be stopped) is busy until then, and its answer is part of the record."""
    end = time.monotonic() + seconds
    while not any(r["label"] == label and r["path"].endswith("/completions") for r in _records(log_path)):
        if time.monotonic() > end:
            print(f"  {label}: the server was still busy after {seconds:.0f} s more", file=sys.stderr)
            return
        time.sleep(2)


# -------------------------------------------------------------------------------------------------------- summary


def _records(log_path: str) -> list[dict[str, Any]]:
    if not os.path.exists(log_path):
        return []
    return [json.loads(line) for line in Path(log_path).read_text("utf-8").splitlines() if line.strip()]


def _tokens(upstream: str, text: str) -> int | None:
    """The server's own count of TEXT's tokens (llama-cpp-python's /extras/tokenize), None when it has none."""
    if not text:
        return 0
    req = urllib.request.Request(
        upstream.rstrip("/") + "/extras/tokenize",
        json.dumps({"input": text}).encode(),
        {"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return len(json.loads(r.read())["tokens"])
    except (OSError, ValueError, KeyError):
        return None


def _short(text: str, n: int = 500) -> str:
    text = text.replace("\n", "⏎ ")
    return text if len(text) <= n else f"{text[:n]}… ({len(text)} chars)"


def _exchange(upstream: str, r: dict[str, Any], t0: float | None) -> list[str]:
    req = r.get("request") or {}
    when = f" at +{r['at'] - t0:.1f} s" if t0 is not None else ""
    lines = [f"    {r['method']} {r['path']}{when} → {r.get('status', '-')} in {r['seconds']:.1f} s"]
    if req:
        sent = {k: v for k, v in req.items() if k not in ("messages", "tools")}
        tools = req.get("tools") or []
        lines.append(
            f"      sent: {json.dumps(sent, ensure_ascii=False)}; {len(req.get('messages') or [])} messages"
            f" ({len(json.dumps(req.get('messages'), ensure_ascii=False))} chars), {len(tools)} tools"
            f" ({len(json.dumps(tools, ensure_ascii=False))} chars)"
        )
        absent = [k for k in ("max_tokens", "max_completion_tokens", "tool_choice", "temperature") if k not in req]
        if absent:
            lines.append(f"      not sent: {', '.join(absent)}")
    chunks = r.get("chunks") or []
    data = [c["data"] for c in chunks if "data" in c]
    if chunks:
        content = "".join((ch.get("delta") or {}).get("content") or "" for d in data for ch in d.get("choices") or [])
        content_chunks = sum(1 for d in data for ch in d.get("choices") or [] if (ch.get("delta") or {}).get("content"))
        tool_deltas = [
            tc for d in data for ch in d.get("choices") or [] for tc in (ch.get("delta") or {}).get("tool_calls") or []
        ]
        finish = [ch.get("finish_reason") for d in data for ch in d.get("choices") or [] if ch.get("finish_reason")]
        usage = [d["usage"] for d in data if d.get("usage")]
        empty = sum(1 for d in data if not d.get("choices"))
        done = any(c.get("raw") == "[DONE]" for c in chunks)
        other = [c["other"] for c in chunks if "other" in c]
        errors = [d for d in data if "error" in d]
        times = [c["t"] for c in chunks if "data" in c]
        lines.append(
            f"      stream: {len(data)} data chunks, first at {times[0] if times else '-'} s, last at"
            f" {times[-1] if times else '-'} s; {content_chunks} with content, {len(tool_deltas)} tool-call deltas,"
            f" {empty} without choices; [DONE] {'seen' if done else 'NOT seen'}"
            + (f"; other SSE lines: {other[:3]}" if other else "")
        )
        lines.append(f"      usage chunk: {json.dumps(usage[-1]) if usage else 'NONE (no chunk carried usage)'}")
        n = _tokens(upstream, content)
        span = (times[-1] - times[0]) if len(times) > 1 else 0
        rate = f", {n / span:.0f} tokens/s" if n and span else ""
        cut = "CUT (finish_reason=length)" if "length" in finish else "not cut"
        lines.append(f"      finish_reason: {finish or 'none'} → {cut}; answer tokens (server tokenizer): {n}{rate}")
        if tool_deltas:
            lines.append(f"      tool-call deltas (first 2): {json.dumps(tool_deltas[:2], ensure_ascii=False)[:500]}")
            lines.append(f"      the app's ToolCallAccumulator makes of them: {_assembled(tool_deltas)}")
        if content:
            lines.append(f"      streamed text: {_short(content)}")
        if errors:
            lines.append(f"      ERROR in stream: {json.dumps(errors[0], ensure_ascii=False)[:400]}")
    elif req.get("stream") and "response" not in r and r.get("status") == 200:
        lines.append("      stream: EMPTY (status 200, then the body ended with no chunk and no [DONE])")
    if "response" in r:
        resp = r["response"]
        choice = (resp.get("choices") or [{}])[0] if isinstance(resp, dict) else {}
        message = choice.get("message") or {}
        finish = choice.get("finish_reason")
        cut = "CUT (finish_reason=length)" if finish == "length" else "not cut"
        lines.append(f"      whole response (unstreamed): finish_reason={finish} → {cut}; usage={resp.get('usage')}")
        if message.get("tool_calls"):
            lines.append(f"      tool_calls: {json.dumps(message['tool_calls'], ensure_ascii=False)[:500]}")
        if message.get("content"):
            lines.append(f"      text: {_short(message['content'])}")
        if resp.get("error") or resp.get("detail"):
            lines.append(f"      ERROR body: {json.dumps(resp, ensure_ascii=False)[:500]}")
    if "response_raw" in r:
        lines.append(f"      raw body: {_short(r['response_raw'], 400)}")
    if "client_gone_at" in r:
        lines.append(
            f"      the app was gone (it had stopped waiting) when the server answered at {r['client_gone_at']:.1f} s"
        )
    if "proxy_error" in r:
        lines.append(f"      proxy error: {r['proxy_error']}")
    return lines


def _assembled(deltas: list[dict[str, Any]]) -> str:
    """The calls the app would assemble from these deltas (needs the checkout on PYTHONPATH)."""
    try:
        from tui.runtime.chat.accumulator import ToolCallAccumulator
    except ImportError:
        return "(the app is not importable here)"
    acc = ToolCallAccumulator()
    for delta in deltas:
        acc.feed(delta)
    return "; ".join(
        f"{c.name}({c.arguments_text}) parsed={c.arguments} error={c.error} id={c.id[:40]}" for c in acc.finish()
    )


def summary(upstream: str, log_path: str, out: str) -> None:
    records = _records(log_path)
    folder = Path(out)
    print("=" * 100)
    print("REAL MODEL CHECK — summary")
    for meta_path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime):
        meta = json.loads(meta_path.read_text())
        label = meta["label"]
        print("-" * 100)
        if label.startswith("probe-"):
            print(
                f"[{label}] the app's request replayed with tool_choice={json.dumps(meta['tool_choice'])},"
                f" stream={meta['stream']}: {meta['status']} after {meta['seconds']:.1f} s"
            )
        else:
            pieces = meta["stdout_pieces"]
            print(f"[{label}] {' '.join(_short(a, 60) for a in meta['command'][-12:])}")
            print(
                f"  exit {meta['rc']} after {meta['seconds']:.1f} s; stdout arrived in {len(pieces)} pieces"
                f" (first at {pieces[0][0] if pieces else '-'} s, last at {pieces[-1][0] if pieces else '-'} s)"
            )
            out_text = (folder / f"{label}.out").read_text("utf-8", "replace")
            err_text = (folder / f"{label}.err").read_text("utf-8", "replace").strip()
            if label.endswith("json"):
                try:
                    report = json.loads(out_text)
                except ValueError:
                    print(f"  --json output is not JSON: {_short(out_text)}")
                else:
                    print(f"  answer: {_short(report.get('answer') or '')}")
                    calls = [
                        f"{c['tool']}({json.dumps(c['arguments'], ensure_ascii=False)}) → {c['decision']}"
                        + (f": {c['message']}" if c.get("message") else "")
                        for c in report.get("toolCalls") or []
                    ]
                    print(f"  tool calls: {calls or 'none'}")
                    print(f"  usage reported by the app: {report.get('usage')}")
                    print(f"  error: {report.get('error')}")
            else:
                print(f"  stdout: {_short(out_text)}")
            if err_text:
                print(f"  stderr: {_short(err_text, 800)}")
        mine = [r for r in records if r["label"] == label]
        print(f"  HTTP exchanges seen by the proxy: {len(mine)}")
        for r in mine:
            for line in _exchange(upstream, r, meta.get("at")):
                print(line)
    print("=" * 100)


def main() -> None:
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "port":
        print(free_port())
    elif cmd == "wait":
        wait(args[0], float(args[1]))
    elif cmd == "proxy":
        proxy(args[0], int(args[1]), args[2], args[3])
    elif cmd == "run":
        if "--" not in args:
            sys.exit("run OUT LABEL -- COMMAND …")
        split = args.index("--")
        run(args[0], args[1], args[split + 1 :])
    elif cmd == "forced":
        forced(args[0], args[1], args[2])
    elif cmd == "settle":
        settle(args[0], args[1], float(args[2]))
    elif cmd == "summary":
        summary(args[0], args[1], args[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
